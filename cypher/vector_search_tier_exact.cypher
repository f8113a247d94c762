// Exact cosine search over one tier of a namespace's events, read through the (namespace, tier)
// index: the fall-back of vector_search_tier when the tier is a thin slice of the vector index
// (the hot tier: a few thousand events).
// Params: $vector (LIST<FLOAT>), $k (INTEGER), $namespace (STRING), $tier (STRING),
//         $statuses (LIST<STRING> or null), $time_from, $time_to (DATE or null).
// Returns: id (STRING), score (FLOAT, normalised cosine (1 + cos) / 2), best first.
MATCH (e:Event)
WHERE e.namespace = $namespace AND e.tier = $tier AND e.embedding IS NOT NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN e.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
RETURN e.id AS id, score
ORDER BY score DESC, id
LIMIT $k
