// Schema: one node per job run.
// Params: none. Returns: nothing.
CREATE CONSTRAINT job_uid IF NOT EXISTS FOR (n:Job) REQUIRE n.uid IS UNIQUE
