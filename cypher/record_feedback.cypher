// Insert or replace one labelled search.
// Params: $uid, $namespace (STRING), $at (FLOAT, epoch seconds of the question), $data (STRING: the
// feedback as JSON). Returns: nothing.
MERGE (f:Feedback {uid: $uid})
SET f.namespace = $namespace, f.at = $at, f.data = $data
