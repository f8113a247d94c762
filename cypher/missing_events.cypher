// The event keys among $uids with no (non-stub) event: what a feedback names but does not exist.
// Params: $uids (LIST<STRING>: namespace|id). Returns: uid (STRING), one row per missing event.
UNWIND $uids AS uid
OPTIONAL MATCH (e:Event {uid: uid})
WITH uid, e
WHERE e IS NULL OR e.stub IS NOT NULL
RETURN uid
