// Turn recall in one query (GraphStore.turn_recall): the $k turns of the raw log most relevant to
// the query (as turn_search), then the events made from them (FROM links) that pass the filters,
// by their best turn's rank, then id.
// Params: $query (STRING, a Lucene query built by lucene_query: user text never becomes query
//         syntax), $fetch (INTEGER), $k (INTEGER), $namespace (STRING),
//         $statuses (LIST<STRING> or null), $time_from, $time_to (DATE or null).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`),
//          rank (INTEGER, 0-based rank of its best turn).
CALL db.index.fulltext.queryNodes('turn_terms', $query, {limit: $fetch}) YIELD node, score
WHERE node.namespace = $namespace AND node.stub IS NULL
WITH node, score
ORDER BY score DESC, node.id
LIMIT $k
WITH collect(node) AS turns
UNWIND range(0, size(turns) - 1) AS rank
WITH turns[rank] AS t, rank
MATCH (e:Event)-[:FROM]->(t)
WHERE e.stub IS NULL
  AND ($statuses IS NULL OR e.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN e.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
WITH e, min(rank) AS rank
RETURN e {.*, embedding: null} AS event, rank
ORDER BY rank, e.id
