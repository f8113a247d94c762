// Schema: a namespace's pending turns (logged, not consolidated yet), found without a scan.
// Params: none. Returns: nothing.
CREATE RANGE INDEX turn_namespace_state IF NOT EXISTS FOR (n:Turn) ON (n.namespace, n.state)
