// Entities whose canonical name or an alias equals a name, case-insensitively.
// Params: $namespace (STRING), $key (STRING, the name case-folded by the caller).
// Returns: entity (MAP of Entity properties).
MATCH (n:Entity)
WHERE n.namespace = $namespace AND n.stub IS NULL AND $key IN n.name_keys
RETURN n {.*} AS entity
ORDER BY n.id
