// Job runs, newest first, of one namespace (or all when $namespace is null) and one kind (or all).
// Params: $namespace (STRING or null), $kind (STRING or null), $limit (INTEGER). Returns: data (STRING).
MATCH (j:Job)
WHERE ($namespace IS NULL OR j.namespace = $namespace) AND ($kind IS NULL OR j.kind = $kind)
RETURN j.data AS data
ORDER BY j.started DESC, j.uid DESC
LIMIT $limit
