// Every link of a namespace, optionally of some kinds. Links start at an Event, an Entity or a
// Pattern.
// Params: $namespace (STRING), $kinds (LIST<STRING> or null = all).
// Returns: kind, source, target (STRING), props (STRING, JSON), sorted by kind, source, target.
CALL () {
  MATCH (a:Event)-[r]->(b)
  WHERE a.namespace = $namespace
  RETURN a, r, b
  UNION ALL
  MATCH (a:Entity)-[r]->(b)
  WHERE a.namespace = $namespace
  RETURN a, r, b
  UNION ALL
  MATCH (a:Pattern)-[r]->(b)
  WHERE a.namespace = $namespace
  RETURN a, r, b
}
WITH a, r, b
WHERE $kinds IS NULL OR type(r) IN $kinds
RETURN type(r) AS kind, a.id AS source, b.id AS target, r.props_json AS props
ORDER BY kind, source, target
