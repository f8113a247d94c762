// Append turns to the raw log; a turn already logged is left as it was.
// Params: $rows (LIST<MAP>: index (position in the batch), uid, props = every Turn property,
//         search_text = the turn text tokenised for the turn_text fulltext index).
// Returns: index (INTEGER), added (BOOLEAN) per row.
UNWIND $rows AS row
MERGE (t:Turn {uid: row.uid})
// A stub (created by a FROM link before its turn was logged) counts as not logged yet.
WITH t, row, t.text IS NULL AS added
SET t += CASE WHEN added THEN row.props ELSE {} END,
    t.search_text = CASE WHEN added THEN row.search_text ELSE t.search_text END,
    t.stub = CASE WHEN added THEN null ELSE t.stub END
RETURN row.index AS index, added
