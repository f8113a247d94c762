// New fulltext terms and namespace tokens for events (Neo4jStore.ensure_schema re-indexing).
// Params: $rows (LIST<MAP>: uid, search_text, search_ns). Returns: nothing.
UNWIND $rows AS row
MATCH (n:Event {uid: row.uid})
SET n.search_text = row.search_text, n.search_ns = row.search_ns
