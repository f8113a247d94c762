// A namespace's entities, by id.
// Params: $namespace (STRING). Returns: entity (MAP of Entity properties).
MATCH (n:Entity)
WHERE n.namespace = $namespace AND n.stub IS NULL
RETURN n {.*} AS entity
ORDER BY n.id
