// Turns by uid, oldest first.
// Params: $uids (LIST<STRING>). Returns: turn (MAP of Turn properties).
MATCH (t:Turn)
WHERE t.uid IN $uids AND t.stub IS NULL AND coalesce(t.state, 'done') <> 'forgotten'
RETURN t {.*} AS turn
ORDER BY t.time, t.id
