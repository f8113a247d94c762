// Browser (graph view): causal chains of up to four steps, longest first.
// Params: $namespace. Returns: chain (a path to draw), steps.
MATCH chain = (first:Event)-[:CAUSES*1..4]->(last:Event)
WHERE first.namespace = $namespace AND NOT EXISTS { (:Event)-[:CAUSES]->(first) }
RETURN chain, length(chain) AS steps
ORDER BY steps DESC
LIMIT 25
