// Schema: Event nodes by namespace alone. The composite (namespace, ...) index serves only queries
// that also constrain its second property; without this one, every "this namespace's events" query
// (exact vector search of a small tenant, counts, pending turns, session speakers) scanned
// every Event node of every namespace.
// Params: none. Returns: nothing.
CREATE RANGE INDEX event_namespace IF NOT EXISTS FOR (n:Event) ON (n.namespace)
