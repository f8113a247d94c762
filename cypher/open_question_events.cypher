// Active events that still lack a key slot (open questions of active memory), newest first.
// Params: $namespace (STRING), $limit (INTEGER).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`).
MATCH (e:Event)
WHERE e.namespace = $namespace AND e.stub IS NULL AND e.status = 'active'
  AND size(coalesce(e.open_slots, [])) > 0
RETURN e {.*, embedding: null} AS event
ORDER BY e.time DESC, e.id
LIMIT $limit
