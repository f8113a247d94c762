// Links of a namespace touching any of some nodes (either end), optionally of some kinds.
// Params: $uids (LIST<STRING>: namespace + '|' + node id), $namespace (STRING),
//         $kinds (LIST<STRING> or null = all).
// Returns: kind, source, target (STRING), props (STRING, JSON), sorted by kind, source, target.
CALL () {
  MATCH (n:Event) WHERE n.uid IN $uids RETURN n
  UNION MATCH (n:Entity) WHERE n.uid IN $uids RETURN n
  UNION MATCH (n:Turn) WHERE n.uid IN $uids RETURN n
  UNION MATCH (n:Topic) WHERE n.uid IN $uids RETURN n
  UNION MATCH (n:Day) WHERE n.uid IN $uids RETURN n
  UNION MATCH (n:Pattern) WHERE n.uid IN $uids RETURN n
}
MATCH (n)-[r]-()
WHERE r.namespace = $namespace AND ($kinds IS NULL OR type(r) IN $kinds)
WITH DISTINCT r
RETURN type(r) AS kind, startNode(r).id AS source, endNode(r).id AS target, r.props_json AS props
ORDER BY kind, source, target
