// Schema: a namespace's events in time order (list_events, stats, namespace deletes).
// Params: none. Returns: nothing.
CREATE RANGE INDEX event_namespace_time IF NOT EXISTS FOR (n:Event) ON (n.namespace, n.time)
