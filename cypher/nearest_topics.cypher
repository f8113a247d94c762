// The topics among the k nearest (cosine) to any of some vectors, from the shared topic vector
// index, over-fetched ($fetch >> $k) then filtered by namespace.
// Params: $vectors (LIST<LIST<FLOAT>>), $fetch (INTEGER), $k (INTEGER), $namespace (STRING).
// Returns: topic (MAP of Topic properties), sorted by id.
UNWIND $vectors AS vector
CALL (vector) {
  CALL db.index.vector.queryNodes('topic_centroid', $fetch, vector) YIELD node, score
  WITH node, score
  WHERE node.namespace = $namespace AND node.stub IS NULL
  RETURN node
  ORDER BY score DESC
  LIMIT $k
}
WITH DISTINCT node
RETURN node {.*} AS topic
ORDER BY node.id
