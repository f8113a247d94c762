// Ids and packed float32 embeddings of a namespace's events that have one, oldest first (as
// list_events orders them): the global pass reads every vector as one matrix, not as events.
// Params: $namespace (STRING), $statuses (LIST<STRING> or null = any).
// Returns: id (STRING), embedding (BYTES: the packed float32 `embedding_f32`).
MATCH (e:Event)
WHERE e.namespace = $namespace AND e.stub IS NULL AND e.embedding_f32 IS NOT NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
RETURN e.id AS id, e.embedding_f32 AS embedding
ORDER BY e.time, e.id
