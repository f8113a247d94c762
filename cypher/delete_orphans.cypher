// Delete a namespace's entities, topics and days that no event reaches any more. An entity is
// still reached when an event mentions it or when ALIAS_OF / CANDIDATE_ALIAS / WORKS_AT links
// (up to 10 steps, either direction) tie it to a mentioned entity: forgetting one event must not
// wipe the alias graph.
// Params: $namespace (STRING). Returns: deleted (INTEGER, nodes deleted).
CALL () {
  MATCH (n:Entity)
  WHERE n.namespace = $namespace
    AND NOT EXISTS { (n)-[:ALIAS_OF|CANDIDATE_ALIAS|WORKS_AT*0..10]-(:Entity)<-[:MENTIONS]-(:Event) }
  RETURN n
  UNION
  MATCH (n:Topic) WHERE n.namespace = $namespace AND NOT EXISTS { (:Event)-[:IN_TOPIC]->(n) }
  RETURN n
  UNION
  MATCH (n:Day) WHERE n.namespace = $namespace AND NOT EXISTS { (:Event)-[:ON|DUE]->(n) }
  RETURN n
}
DETACH DELETE n
RETURN count(*) AS deleted
