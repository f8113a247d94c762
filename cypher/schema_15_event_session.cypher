// Schema: a namespace's events by session (session_events: a batch's session context).
// Params: none. Returns: nothing.
CREATE RANGE INDEX event_namespace_session IF NOT EXISTS FOR (n:Event) ON (n.namespace, n.session)
