// A namespace's labelled searches, oldest question first.
// Params: $namespace (STRING). Returns: data (STRING: the feedback as JSON).
MATCH (f:Feedback)
WHERE f.namespace = $namespace
RETURN f.data AS data
ORDER BY f.at, f.uid
