// Delete up to $batch nodes of a namespace with their links; the caller repeats it, one
// transaction per batch, until it deletes nothing, so a large namespace never needs one huge
// transaction.
// Params: $namespace (STRING), $batch (INTEGER). Returns: deleted (INTEGER).
CALL () {
  MATCH (n:Turn) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Event) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Entity) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Topic) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Day) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Lease) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Job) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Pattern) WHERE n.namespace = $namespace RETURN n
  UNION ALL MATCH (n:Feedback) WHERE n.namespace = $namespace RETURN n
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
