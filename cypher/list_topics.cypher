// A namespace's topics, by id.
// Params: $namespace (STRING). Returns: topic (MAP of Topic properties).
MATCH (n:Topic)
WHERE n.namespace = $namespace AND n.stub IS NULL
RETURN n {.*} AS topic
ORDER BY n.id
