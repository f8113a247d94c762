// Schema: one Pattern per (namespace, id), keyed by uid = namespace + '|' + id (issue 14).
// Params: none. Returns: nothing.
CREATE CONSTRAINT pattern_uid IF NOT EXISTS FOR (n:Pattern) REQUIRE n.uid IS UNIQUE
