// Insert or replace topics.
// Params: $rows (LIST<MAP>: uid, props = every Topic property incl. uid). Returns: nothing.
UNWIND $rows AS row
MERGE (n:Topic {uid: row.uid})
SET n = row.props
