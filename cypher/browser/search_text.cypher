// Browser: events by words of their text (Lucene syntax allowed here, unlike the store's search).
// Params: $namespace, $text (lower-case words; Chinese as separate words, e.g. '市场部 OR 报告').
// Returns: time, status, text, score.
CALL db.index.fulltext.queryNodes('event_terms', $text) YIELD node, score
WHERE node.namespace = $namespace
RETURN node.time AS time, node.status AS status, node.text AS text, score
ORDER BY score DESC
LIMIT 25
