// The newest events of each of some sessions, at or after a time: a batch's session context.
// Params: $namespace (STRING), $sessions (LIST<STRING>), $since (DATETIME or null),
//         $limit (INTEGER, events per session).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`).
UNWIND $sessions AS session
CALL (session) {
  MATCH (e:Event)
  WHERE e.namespace = $namespace AND e.session = session AND e.stub IS NULL
    AND ($since IS NULL OR e.time >= $since)
  RETURN e
  ORDER BY e.time DESC, e.id DESC
  LIMIT $limit
}
RETURN e {.*, embedding: null} AS event
