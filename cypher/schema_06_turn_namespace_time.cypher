// Schema: a namespace's raw log in time order.
// Params: none. Returns: nothing.
CREATE RANGE INDEX turn_namespace_time IF NOT EXISTS FOR (n:Turn) ON (n.namespace, n.time)
