// Put a namespace's failed turns back in the pending queue.
// Params: $namespace (STRING). Returns: retried (INTEGER).
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.state = 'failed'
SET t.state = 'pending', t.failure = null
RETURN count(t) AS retried
