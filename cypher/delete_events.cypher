// Delete events and every link touching them (their entities and topics are cleaned up after,
// by delete_orphans, in the same transaction).
// Params: $uids (LIST<STRING>). Returns: deleted (INTEGER, events deleted).
MATCH (e:Event)
WHERE e.uid IN $uids AND e.stub IS NULL
DETACH DELETE e
RETURN count(*) AS deleted
