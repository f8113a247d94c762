// Node counts of one namespace (or all, when $namespace is null), stubs and erased turns excluded.
// Params: $namespace (STRING or null). Returns: one row: turns, events, entities, topics (INTEGER).
CALL () { MATCH (n:Turn) WHERE ($namespace IS NULL OR n.namespace = $namespace) AND n.stub IS NULL AND coalesce(n.state, 'done') <> 'forgotten' RETURN count(n) AS turns }
CALL () { MATCH (n:Event) WHERE ($namespace IS NULL OR n.namespace = $namespace) AND n.stub IS NULL RETURN count(n) AS events }
CALL () { MATCH (n:Entity) WHERE ($namespace IS NULL OR n.namespace = $namespace) AND n.stub IS NULL RETURN count(n) AS entities }
CALL () { MATCH (n:Topic) WHERE ($namespace IS NULL OR n.namespace = $namespace) AND n.stub IS NULL RETURN count(n) AS topics }
RETURN turns, events, entities, topics
