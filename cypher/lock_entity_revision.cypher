// Read a namespace's entity revision under its write lock (the SET takes it), at the start of a
// transaction that may change entities: a concurrent writer waits until this one commits, so the
// value read is the one this transaction's changes follow.
// Params: $namespace (STRING). Returns: value (INTEGER; 0 when no entity write happened yet).
MERGE (r:EntityRevision {uid: $namespace})
  ON CREATE SET r.value = 0
SET r.locked = true
RETURN r.value AS value
