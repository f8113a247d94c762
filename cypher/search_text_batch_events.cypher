// One batch of events for re-indexing the fulltext terms (Neo4jStore.ensure_schema), by uid order.
// Params: $after (STRING, "" to start), $limit (INTEGER). Returns: uid, text, namespace.
MATCH (n:Event)
WHERE n.uid > $after AND n.text IS NOT NULL
RETURN n.uid AS uid, n.text AS text, n.namespace AS namespace
ORDER BY n.uid
LIMIT $limit
