// Schema: one Day per (namespace, ISO date), keyed by uid = namespace + '|' + date.
// Params: none. Returns: nothing.
CREATE CONSTRAINT day_uid IF NOT EXISTS FOR (n:Day) REQUIRE n.uid IS UNIQUE
