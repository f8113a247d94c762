// The pending turns of a namespace's oldest pending chunk (the turns one add_turns call logged),
// oldest first: consolidation takes a chunk at a time.
// Params: $namespace (STRING). Returns: turn (MAP of Turn properties).
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.state = 'pending' AND t.stub IS NULL
WITH min(t.chunk) AS oldest
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.state = 'pending' AND t.stub IS NULL AND t.chunk = oldest
RETURN t {.*} AS turn
ORDER BY t.time, t.id
