// Turns set aside because their consolidation failed, of one namespace (or all when null).
// Params: $namespace (STRING or null). Returns: namespace, id, error (STRING) rows.
MATCH (t:Turn)
WHERE ($namespace IS NULL OR t.namespace = $namespace) AND t.state = 'failed' AND t.stub IS NULL
RETURN t.namespace AS namespace, t.id AS id, coalesce(t.failure, '') AS error
ORDER BY namespace, t.time, id
