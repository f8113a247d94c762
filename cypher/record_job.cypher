// Insert or replace one job run.
// Params: $uid, $namespace, $kind (STRING), $started (FLOAT, epoch seconds), $data (STRING: the run
// as JSON). Returns: nothing.
MERGE (j:Job {uid: $uid})
SET j.namespace = $namespace, j.kind = $kind, j.started = $started, j.data = $data
