// Insert or replace entities (name_keys: case-folded name and aliases for exact look-ups).
// Params: $rows (LIST<MAP>: uid, props = every Entity property incl. uid, name_keys, search_names).
// Returns: nothing.
UNWIND $rows AS row
MERGE (n:Entity {uid: row.uid})
SET n = row.props
