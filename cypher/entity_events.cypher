// An entity's storyline: events that MENTION it or any entity linked to it by ALIAS_OF (either
// direction, transitively), oldest first.
// Params: $uids (LIST<STRING>, the entities), $statuses (LIST<STRING> or null),
//         $time_from, $time_to (DATE or null).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`).
MATCH (x:Entity)
WHERE x.uid IN $uids
MATCH (x)-[:ALIAS_OF*0..10]-(alias:Entity)
WITH DISTINCT alias
MATCH (e:Event)-[:MENTIONS]->(alias)
WHERE e.stub IS NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN e.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
WITH DISTINCT e
RETURN e {.*, embedding: null} AS event
ORDER BY e.time, e.id
