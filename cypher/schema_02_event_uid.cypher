// Schema: one Event per (namespace, id), keyed by uid = namespace + '|' + id.
// Params: none. Returns: nothing.
CREATE CONSTRAINT event_uid IF NOT EXISTS FOR (n:Event) REQUIRE n.uid IS UNIQUE
