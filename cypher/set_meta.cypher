// Set a store-wide setting, replacing an earlier value.
// Params: $key (STRING), $value (STRING). Returns: nothing.
MERGE (m:StoreMeta {key: $key})
SET m.value = $value
