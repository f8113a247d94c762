// Insert or replace events: every property is overwritten, so nothing stale survives.
// Params: $rows (LIST<MAP>: uid, props = every Event property incl. uid, search_text, days).
// Returns: nothing.
UNWIND $rows AS row
MERGE (e:Event {uid: row.uid})
SET e = row.props
