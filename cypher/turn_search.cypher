// Turns of the raw log by lexical relevance (Lucene BM25) of their tokenised text to a query.
// The query requires the namespace's token (lucene_query), so Lucene matches only this
// namespace's turns, at most $fetch of them (a margin over $k, so ties at the cut are broken by
// id as below); stubs have no text, so they never match.
// Params: $query (STRING, a Lucene query the caller built from quoted, escaped tokens of the user
//         text and the namespace token: user text never becomes query syntax), $fetch (INTEGER),
//         $k (INTEGER), $namespace (STRING).
// Returns: id (STRING, the turn id), score (FLOAT), best first.
CALL db.index.fulltext.queryNodes('turn_terms', $query, {limit: $fetch}) YIELD node, score
WHERE node.namespace = $namespace AND node.stub IS NULL
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
