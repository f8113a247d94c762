// Schema: one entity revision node per namespace (GraphStore.entity_revision), keyed by the
// namespace itself; MERGE on it takes this constraint's lock, so concurrent writers serialise.
// Params: none. Returns: nothing.
CREATE CONSTRAINT entity_revision_uid IF NOT EXISTS FOR (n:EntityRevision) REQUIRE n.uid IS UNIQUE
