// Schema: one lease node per (namespace, lease name).
// Params: none. Returns: nothing.
CREATE CONSTRAINT lease_uid IF NOT EXISTS FOR (n:Lease) REQUIRE n.uid IS UNIQUE
