// The tail of each of some entities' storylines: per entity, its newest events (any status) that
// MENTION it or an entity tied to it by ALIAS_OF (either direction, transitively).
// Params: $uids (LIST<STRING>, the entities), $limit (INTEGER, events per entity).
// Returns: entity (STRING id), events (LIST<MAP> of Event properties, newest first; the embedding
//          as packed float32 `embedding_f32`).
UNWIND $uids AS uid
MATCH (x:Entity {uid: uid})
CALL (x) {
  MATCH (x)-[:ALIAS_OF*0..10]-(alias:Entity)
  WITH DISTINCT alias
  MATCH (e:Event)-[:MENTIONS]->(alias)
  WHERE e.stub IS NULL
  WITH DISTINCT e
  ORDER BY e.time DESC, e.id DESC
  LIMIT $limit
  RETURN collect(e {.*, embedding: null}) AS events
}
RETURN x.id AS entity, events
