// Insert or replace pattern memories: every property is overwritten, so nothing stale survives.
// Params: $rows (LIST<MAP>: uid, props = every Pattern property incl. uid).
// Returns: nothing.
UNWIND $rows AS row
MERGE (n:Pattern {uid: row.uid})
SET n = row.props
