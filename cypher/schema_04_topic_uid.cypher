// Schema: one Topic per (namespace, id), keyed by uid = namespace + '|' + id.
// Params: none. Returns: nothing.
CREATE CONSTRAINT topic_uid IF NOT EXISTS FOR (n:Topic) REQUIRE n.uid IS UNIQUE
