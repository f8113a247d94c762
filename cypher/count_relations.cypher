// Link counts by kind for one namespace (or all, when $namespace is null).
// Params: $namespace (STRING or null). Returns: kind (STRING), count (INTEGER), sorted by kind.
MATCH ()-[r]->()
WHERE $namespace IS NULL OR r.namespace = $namespace
RETURN type(r) AS kind, count(r) AS count
ORDER BY kind
