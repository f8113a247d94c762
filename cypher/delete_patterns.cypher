// Delete pattern memories with their EVIDENCED_BY links.
// Params: $uids (LIST<STRING>). Returns: deleted (INTEGER).
MATCH (p:Pattern)
WHERE p.uid IN $uids
DETACH DELETE p
RETURN count(*) AS deleted
