// Events by lexical relevance (Lucene BM25) of their tokenised text to a query.
// The query itself requires the namespace's token (lucene_query), so Lucene returns only this
// namespace's events, and at most $fetch of them (its top by score); the status and date filters
// run on those, and the caller asks again with a larger $fetch when too few survive while Lucene
// had more to give (fetched = $fetch).
// Params: $query (STRING, a Lucene query the caller built from quoted, escaped tokens of the user
//         text and the namespace token: user text never becomes query syntax), $fetch (INTEGER),
//         $k (INTEGER), $namespace (STRING), $statuses (LIST<STRING> or null),
//         $time_from, $time_to (DATE or null).
// Returns: one row: fetched (INTEGER, rows Lucene gave), hits (LIST<MAP{id, score}>, best first,
//          ties by id).
CALL db.index.fulltext.queryNodes('event_terms', $query, {limit: $fetch}) YIELD node, score
WITH collect({node: node, score: score}) AS candidates
CALL (candidates) {
  UNWIND candidates AS c
  WITH c.node AS node, c.score AS score
  WHERE node.namespace = $namespace
    AND ($statuses IS NULL OR node.status IN $statuses)
    AND (($time_from IS NULL AND $time_to IS NULL)
         OR any(d IN node.days WHERE ($time_from IS NULL OR d >= $time_from) AND ($time_to IS NULL OR d <= $time_to)))
  WITH node.id AS id, score
  ORDER BY score DESC, id
  LIMIT $k
  RETURN collect({id: id, score: score}) AS hits
}
RETURN size(candidates) AS fetched, hits
