// A namespace's entity revision (GraphStore.entity_revision): moved on, inside the writing
// transaction, by every write to its entities or its ALIAS_OF / WORKS_AT / CANDIDATE_ALIAS links.
// Params: $namespace (STRING). Returns: value (INTEGER; 0 when no such write happened yet).
OPTIONAL MATCH (r:EntityRevision {uid: $namespace})
RETURN coalesce(r.value, 0) AS value
