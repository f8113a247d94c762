// Schema: a namespace's days (timelines in Browser, orphan clean-up).
// Params: none. Returns: nothing.
CREATE RANGE INDEX day_namespace_date IF NOT EXISTS FOR (n:Day) ON (n.namespace, n.date)
