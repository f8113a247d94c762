// Schema: one Entity per (namespace, id), keyed by uid = namespace + '|' + id.
// Params: none. Returns: nothing.
CREATE CONSTRAINT entity_uid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE
