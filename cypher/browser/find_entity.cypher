// Browser: entities whose name or alias contains a word (fuzzy, via the entity_names index).
// Params: $namespace, $text (one word; append ~ for fuzzy matching, e.g. 'acme~').
// Returns: name, type, aliases, score, events (how many events mention it).
CALL db.index.fulltext.queryNodes('entity_names', $text) YIELD node, score
WHERE node.namespace = $namespace
RETURN node.name AS name, node.type AS type, node.aliases AS aliases, score,
       COUNT { (:Event)-[:MENTIONS]->(node) } AS events
ORDER BY score DESC
LIMIT 25
