// Remove links by (kind, source, target); links that do not exist are ignored.
// Params: $rows (LIST<MAP>: kind, source_uid, target_uid). Returns: nothing.
UNWIND $rows AS row
CALL (row) {
  MATCH (a:Event {uid: row.source_uid})-[r]->(b)
  WHERE type(r) = row.kind AND b.uid = row.target_uid
  RETURN r
  UNION
  MATCH (a:Entity {uid: row.source_uid})-[r]->(b)
  WHERE type(r) = row.kind AND b.uid = row.target_uid
  RETURN r
}
DELETE r
