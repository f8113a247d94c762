// A namespace's topics, by id.
// Params: $namespace (STRING), $centroids (BOOLEAN: false leaves the centroid out).
// Returns: topic (MAP of Topic properties).
MATCH (n:Topic)
WHERE n.namespace = $namespace AND n.stub IS NULL
RETURN CASE WHEN $centroids THEN n {.*} ELSE n {.*, centroid: null} END AS topic
ORDER BY n.id
