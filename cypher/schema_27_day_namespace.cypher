// Schema: Day nodes by namespace alone. The composite (namespace, ...) index serves only queries
// that also constrain its second property; without this one, every "this namespace's days" query
// (exact vector search of a small tenant, counts, pending turns, session speakers) scanned
// every Day node of every namespace.
// Params: none. Returns: nothing.
CREATE RANGE INDEX day_namespace IF NOT EXISTS FOR (n:Day) ON (n.namespace)
