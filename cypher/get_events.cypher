// Events by uid (order restored by the caller).
// Params: $uids (LIST<STRING>).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`).
MATCH (e:Event)
WHERE e.uid IN $uids AND e.stub IS NULL
RETURN e {.*, embedding: null} AS event
