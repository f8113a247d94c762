// Schema: native vector index over event embeddings (cosine). One index serves every namespace;
// recall over-fetches from it and then filters by namespace (see vector_search).
// Params: $dimension (INTEGER, the embedding model's dimension). Returns: nothing.
CREATE VECTOR INDEX event_embedding IF NOT EXISTS
FOR (n:Event) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
