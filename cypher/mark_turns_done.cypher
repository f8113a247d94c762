// Mark consolidated turns done (inside the transaction that applies their delta).
// Params: $uids (LIST<STRING>). Returns: nothing.
MATCH (t:Turn)
WHERE t.uid IN $uids
SET t.state = 'done'
