// A store-wide setting (e.g. the embedding model of the vectors).
// Params: $key (STRING). Returns: value (STRING), no row when unset.
MATCH (m:StoreMeta {key: $key})
RETURN m.value AS value
