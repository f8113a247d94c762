// Event counts by tier (hot: recent or often used; cold: the rest) for one namespace (or all,
// when $namespace is null); the global pass moves events between them.
// Params: $namespace (STRING or null). Returns: tier (STRING), count (INTEGER).
MATCH (e:Event)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.stub IS NULL
RETURN coalesce(e.tier, 'hot') AS tier, count(e) AS count
ORDER BY tier
