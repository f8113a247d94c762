// Lock a lease node for the rest of this transaction (the SET takes Neo4j's write lock, so two
// transactions deciding about the same lease run one after the other) and read who holds it.
// Params: $uid, $namespace, $lease (STRING). Returns: holder (STRING or null), expires (FLOAT or null).
MERGE (l:Lease {uid: $uid})
ON CREATE SET l.namespace = $namespace, l.name = $lease
SET l.checked = timestamp()
RETURN l.holder AS holder, l.expires AS expires
