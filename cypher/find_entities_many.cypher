// Entities whose canonical name or an alias equals any of several names, case-insensitively: one
// round trip for every span of a query (find_entities asks for one name).
// Params: $namespace (STRING), $keys (LIST<STRING>, the names case-folded by the caller).
// Returns: keys (LIST<STRING>, the asked keys this entity answers), entity (MAP of Entity
//          properties), sorted by entity id.
MATCH (n:Entity)
WHERE n.namespace = $namespace AND n.stub IS NULL AND any(key IN n.name_keys WHERE key IN $keys)
RETURN [key IN n.name_keys WHERE key IN $keys] AS keys, n {.*} AS entity
ORDER BY n.id
