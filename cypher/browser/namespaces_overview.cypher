// Browser: what each namespace (tenant) holds.
// Params: none. Returns: namespace, turns, events, entities (one row per namespace).
MATCH (n)
WHERE (n:Turn OR n:Event OR n:Entity) AND n.stub IS NULL
RETURN n.namespace AS namespace,
       count(CASE WHEN n:Turn THEN 1 END) AS turns,
       count(CASE WHEN n:Event THEN 1 END) AS events,
       count(CASE WHEN n:Entity THEN 1 END) AS entities
ORDER BY events DESC
