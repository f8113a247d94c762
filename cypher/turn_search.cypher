// Turns of the raw log by lexical relevance (Lucene BM25) of their tokenised text to a query.
// Params: $query (STRING, a Lucene query the caller built from quoted, escaped tokens of the user
//         text: user text never becomes query syntax), $k (INTEGER), $namespace (STRING).
// Returns: id (STRING, the turn id), score (FLOAT), best first.
CALL db.index.fulltext.queryNodes('turn_text', $query) YIELD node, score
WHERE node.namespace = $namespace AND node.stub IS NULL
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
