// Give a lease (already locked by lease_lock in this transaction) to a holder until $expires.
// Params: $uid, $holder (STRING), $expires (FLOAT, epoch seconds). Returns: nothing.
MATCH (l:Lease {uid: $uid})
SET l.holder = $holder, l.expires = $expires
