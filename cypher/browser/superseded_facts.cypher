// Browser: how facts changed: each SUPERSEDES link, newest first.
// Params: $namespace. Returns: now (the newer text), was (the older text), changed_at.
MATCH (new:Event)-[:SUPERSEDES]->(old:Event)
WHERE new.namespace = $namespace
RETURN new.text AS now, old.text AS was, new.time AS changed_at
ORDER BY changed_at DESC
LIMIT 50
