// Set pending turns aside: their consolidation failed; each keeps its error until retried.
// Params: $rows (LIST<MAP>: uid, error). Returns: nothing.
UNWIND $rows AS row
MATCH (t:Turn {uid: row.uid})
WHERE t.state = 'pending'
SET t.state = 'failed', t.failure = row.error
