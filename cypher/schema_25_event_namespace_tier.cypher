// Schema: a namespace's events by tier (vector_search_tier: the hot tier searched first).
// Params: none. Returns: nothing.
CREATE RANGE INDEX event_namespace_tier IF NOT EXISTS FOR (n:Event) ON (n.namespace, n.tier)
