// A namespace's events, oldest first, optionally filtered by status and date range.
// Params: $namespace (STRING), $statuses (LIST<STRING> or null = any),
//         $time_from, $time_to (DATE or null): keep events with a day (time, deadline or a named
//         date, precomputed in `days`) inside the closed range.
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`).
MATCH (e:Event)
WHERE e.namespace = $namespace AND e.stub IS NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN e.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
RETURN e {.*, embedding: null} AS event
ORDER BY e.time, e.id
