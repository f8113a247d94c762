// Schema: one node per labelled search (feedback on results, issue 10).
// Params: none. Returns: nothing.
CREATE CONSTRAINT feedback_uid IF NOT EXISTS FOR (n:Feedback) REQUIRE n.uid IS UNIQUE
