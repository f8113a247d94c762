// Delete one entity node with all its links (MENTIONS, ALIAS_OF in both directions, WORKS_AT...).
// Params: $uid (STRING). Returns: deleted (INTEGER, 0 or 1).
MATCH (x:Entity {uid: $uid})
DETACH DELETE x
RETURN count(*) AS deleted
