// Schema: a namespace's patterns (list_patterns, namespace deletion).
// Params: none. Returns: nothing.
CREATE RANGE INDEX pattern_namespace IF NOT EXISTS FOR (n:Pattern) ON (n.namespace)
