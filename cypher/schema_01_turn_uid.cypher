// Schema: one Turn per (namespace, id). Community edition has no node keys, so `uid` is
// namespace + '|' + id and carries a uniqueness constraint (which also indexes it).
// Params: none. Returns: nothing.
CREATE CONSTRAINT turn_uid IF NOT EXISTS FOR (n:Turn) REQUIRE n.uid IS UNIQUE
