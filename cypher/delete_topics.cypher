// Delete topics (and their IN_TOPIC links), e.g. those emptied by re-clustering.
// Params: $uids (LIST<STRING>). Returns: deleted (INTEGER, topics deleted).
MATCH (t:Topic)
WHERE t.uid IN $uids
DETACH DELETE t
RETURN count(*) AS deleted
