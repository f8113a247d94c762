// Record a retrieval: one more access, and when.
// Params: $uids (LIST<STRING>), $at (DATETIME). Returns: nothing.
MATCH (e:Event)
WHERE e.uid IN $uids AND e.stub IS NULL
SET e.access_count = coalesce(e.access_count, 0) + 1, e.last_accessed = $at
