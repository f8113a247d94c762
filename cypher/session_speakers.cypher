// The speakers of each session in the raw log, in order of their first turn.
// Params: $namespace (STRING), $sessions (LIST<STRING>). Returns: session, speaker (STRING) rows.
MATCH (t:Turn)
WHERE t.namespace = $namespace AND t.session IN $sessions AND t.stub IS NULL
  AND coalesce(t.state, 'done') <> 'forgotten'
WITH t.session AS session, t.speaker AS speaker, min(t.time) AS first
RETURN session, speaker
ORDER BY session, first, speaker
