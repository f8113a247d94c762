// Schema: a namespace's job runs, newest first.
// Params: none. Returns: nothing.
CREATE RANGE INDEX job_namespace_started IF NOT EXISTS FOR (n:Job) ON (n.namespace, n.started)
