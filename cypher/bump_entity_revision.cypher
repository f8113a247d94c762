// Move a namespace's entity revision on to a new value (random, never reused: a value an index was
// kept at never comes back, even after the namespace is deleted and written again).
// Params: $namespace (STRING), $value (INTEGER, not 0). Returns: nothing.
MERGE (r:EntityRevision {uid: $namespace})
SET r.value = $value
