// Erase turns from the raw log: what was said (text, its fulltext terms), who said it and the
// agent go; a tombstone (uid, id, session, time, state 'forgotten') stays. Its text is '' rather
// than null, so add_turns does not take it for a stub and log the turn again.
// Params: $uids (LIST<STRING>). Returns: forgotten (INTEGER, turns not erased before).
MATCH (t:Turn)
WHERE t.uid IN $uids AND t.stub IS NULL AND coalesce(t.state, 'done') <> 'forgotten'
SET t.text = '', t.speaker = '', t.agent = null, t.failure = null, t.search_text = null,
    t.state = 'forgotten'
RETURN count(t) AS forgotten
