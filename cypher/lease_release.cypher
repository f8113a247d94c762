// Give a lease back, only if $holder holds it.
// Params: $uid, $holder (STRING). Returns: nothing.
MATCH (l:Lease {uid: $uid})
WHERE l.holder = $holder
SET l.holder = null, l.expires = null
