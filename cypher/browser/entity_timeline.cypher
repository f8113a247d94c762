// Browser: an entity's storyline, aliases included, oldest first.
// Params: $namespace, $entity (a name or alias, any case).
// Returns: time, status, text, via (the name the event used), source_ids.
MATCH (x:Entity)
WHERE x.namespace = $namespace AND toLower($entity) IN x.name_keys
MATCH (x)-[:ALIAS_OF*0..10]-(alias:Entity)
MATCH (e:Event)-[:MENTIONS]->(alias)
RETURN DISTINCT e.time AS time, e.status AS status, e.text AS text, alias.name AS via, e.source_ids AS source_ids
ORDER BY time
