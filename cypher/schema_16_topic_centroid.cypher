// Schema: native vector index over topic centroids (cosine), so a batch finds its events' nearest
// topics without reading every topic (nearest_topics).
// Params: $dimension (INTEGER, the embedding model's dimension). Returns: nothing.
CREATE VECTOR INDEX topic_centroid IF NOT EXISTS
FOR (n:Topic) ON n.centroid
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
