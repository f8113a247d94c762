// A namespace's pattern memories, by id, optionally of some statuses.
// Params: $namespace (STRING), $statuses (LIST<STRING> or null = any).
// Returns: pattern (MAP of Pattern properties).
MATCH (n:Pattern)
WHERE n.namespace = $namespace AND n.stub IS NULL
  AND ($statuses IS NULL OR n.status IN $statuses)
RETURN n {.*} AS pattern
ORDER BY n.id
