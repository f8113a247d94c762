// The storylines of a question's entities, ranked in the store (GraphStore.entity_recall): events
// that MENTION an entity of any group or an alias of it (ALIAS_OF, either direction, transitively),
// named by more groups first, then closer to the query vector, then oldest; the best $limit.
// Params: $groups (LIST<LIST<STRING>>, entity uids per group), $vector (LIST<FLOAT>),
//         $limit (INTEGER), $statuses (LIST<STRING> or null), $time_from, $time_to (DATE or null).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`),
//          named_by (LIST<INTEGER>, the groups naming it).
// vector.similarity.cosine is (1 + cosine) / 2; an event without a vector counts as cosine 0.
UNWIND range(0, size($groups) - 1) AS g
MATCH (x:Entity)
WHERE x.uid IN $groups[g]
MATCH (x)-[:ALIAS_OF*0..10]-(alias:Entity)
WITH DISTINCT g, alias
MATCH (e:Event)-[:MENTIONS]->(alias)
WHERE e.stub IS NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN e.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
WITH e, collect(DISTINCT g) AS named_by
WITH e, named_by,
     CASE WHEN e.embedding IS NULL THEN 0.5 ELSE vector.similarity.cosine(e.embedding, $vector) END AS similarity
ORDER BY size(named_by) DESC, similarity DESC, e.time, e.id
LIMIT $limit
RETURN e {.*, embedding: null} AS event, named_by
