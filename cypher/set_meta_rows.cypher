// Set store-wide settings, replacing earlier values (a delta's meta keys, in its transaction).
// Params: $rows (LIST<MAP>: key, value). Returns: nothing.
UNWIND $rows AS row
MERGE (m:StoreMeta {key: row.key})
SET m.value = row.value
