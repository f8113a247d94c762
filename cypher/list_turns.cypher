// A namespace's whole raw log, oldest first.
// Params: $namespace (STRING). Returns: turn (MAP of Turn properties).
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.stub IS NULL AND coalesce(t.state, 'done') <> 'forgotten'
RETURN t {.*} AS turn
ORDER BY t.time, t.id
