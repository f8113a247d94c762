// Remove a store-wide setting (no-op when it is not set).
// Params: $key (STRING). Returns: nothing.
MATCH (m:StoreMeta {key: $key})
DELETE m
