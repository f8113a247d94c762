// Events that mention one entity and no other: they go when that entity is deleted.
// Params: $uid (STRING, the entity). Returns: uid (STRING, one row per event).
MATCH (x:Entity {uid: $uid})<-[:MENTIONS]-(e:Event)
WHERE NOT EXISTS { (e)-[:MENTIONS]->(y:Entity) WHERE y <> x }
RETURN DISTINCT e.uid AS uid
