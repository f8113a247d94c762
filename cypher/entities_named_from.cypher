// Entities with a name or alias starting with one of some characters (GraphStore.
// entities_named_from): the candidates of a misspelt or shortened name in a query. The filter
// runs in the server over the namespace's entities (its index); only the matches travel.
// Params: $namespace (STRING), $firsts (LIST<STRING>, casefolded single characters).
// Returns: entity (MAP of Entity properties), by id.
MATCH (n:Entity)
WHERE n.namespace = $namespace AND n.stub IS NULL
  AND any(key IN n.name_keys WHERE left(key, 1) IN $firsts)
RETURN n {.*} AS entity
ORDER BY n.id
