// Events by lexical relevance (Lucene BM25) of their tokenised text to a query.
// Params: $query (STRING, a Lucene query the caller built from quoted, escaped tokens of the user
//         text: user text never becomes query syntax), $k (INTEGER), $namespace (STRING),
//         $statuses (LIST<STRING> or null), $time_from, $time_to (DATE or null).
// Returns: id (STRING), score (FLOAT), best first.
CALL db.index.fulltext.queryNodes('event_text', $query) YIELD node, score
WHERE node.namespace = $namespace
  AND ($statuses IS NULL OR node.status IN $statuses)
  AND (($time_from IS NULL AND $time_to IS NULL)
       OR any(d IN node.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
