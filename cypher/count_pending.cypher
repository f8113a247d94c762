// Pending turns of one namespace (or all, when $namespace is null).
// Params: $namespace (STRING or null). Returns: pending (INTEGER).
MATCH (t:Turn)
WHERE ($namespace IS NULL OR t.namespace = $namespace) AND t.state = 'pending' AND t.stub IS NULL
RETURN count(t) AS pending
