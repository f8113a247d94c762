// A namespace's pending turns (logged, not consolidated yet), oldest first; only those among
// $uids when it is not null.
// Params: $namespace (STRING), $limit (INTEGER), $uids (LIST<STRING> or null).
// Returns: turn (MAP of Turn properties).
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.state = 'pending' AND t.stub IS NULL
  AND ($uids IS NULL OR t.uid IN $uids)
RETURN t {.*} AS turn
ORDER BY t.time, t.id
LIMIT $limit
