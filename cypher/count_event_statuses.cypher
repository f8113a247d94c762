// Event counts by status for one namespace (or all, when $namespace is null).
// Params: $namespace (STRING or null). Returns: status (STRING), count (INTEGER).
MATCH (e:Event)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.stub IS NULL
RETURN e.status AS status, count(e) AS count
ORDER BY status
