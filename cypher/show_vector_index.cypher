// The dimension the event vector index was created with, to refuse a model of another size.
// Params: none. Returns: dimensions (INTEGER), at most one row.
SHOW VECTOR INDEXES YIELD name, options
WHERE name = 'event_embedding'
RETURN options.indexConfig.`vector.dimensions` AS dimensions
