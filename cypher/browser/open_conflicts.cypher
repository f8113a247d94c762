// Browser: facts that contradict each other and are still unresolved, newest first.
// Params: $namespace. Returns: newer, older (texts), newer_time, older_time, details (link props).
MATCH (a:Event)-[r:CONTRADICTS]->(b:Event)
WHERE a.namespace = $namespace AND a.status <> 'archived' AND b.status <> 'archived'
RETURN a.text AS newer, b.text AS older, a.time AS newer_time, b.time AS older_time, r.props_json AS details
ORDER BY newer_time DESC
