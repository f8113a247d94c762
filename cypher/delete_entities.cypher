// Delete entity nodes with all their links (MENTIONS, ALIAS_OF in both directions, WORKS_AT...);
// the events that mentioned them stay (a delta's entity deletes; see delete_entity for the
// user-facing delete that takes the events mentioning only it too).
// Params: $uids (LIST<STRING>). Returns: deleted (INTEGER, entities deleted).
MATCH (x:Entity)
WHERE x.uid IN $uids
DETACH DELETE x
RETURN count(*) AS deleted
