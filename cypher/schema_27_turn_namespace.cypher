// Schema: Turn nodes by namespace alone. The composite (namespace, ...) index serves only queries
// that also constrain its second property; without this one, every "this namespace's turns" query
// (exact vector search of a small tenant, counts, pending turns, session speakers) scanned
// every Turn node of every namespace.
// Params: none. Returns: nothing.
CREATE RANGE INDEX turn_namespace IF NOT EXISTS FOR (n:Turn) ON (n.namespace)
