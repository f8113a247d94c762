// Insert or replace events: every property is overwritten, so nothing stale survives. The
// embedding is stored by db.create.setNodeVectorProperty as a float32 array (what the vector index
// reads), half the size of the list of doubles a plain SET would store.
// Params: $rows (LIST<MAP>: uid, props = every Event property incl. uid, search_text, days, but
//         not the embedding; vector = the embedding (LIST<FLOAT>) or null).
// Returns: nothing.
UNWIND $rows AS row
MERGE (e:Event {uid: row.uid})
SET e = row.props
WITH e, row
WHERE row.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(e, 'embedding', row.vector)
