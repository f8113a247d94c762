// Add or replace links of kind ON (event time) and DUE (deadline) from an event to its Day node,
// idempotent on (kind, source, target). Day nodes are created on first use.
// Params: $rows (LIST<MAP>: kind, namespace, source, target (ISO date), source_uid, target_uid,
//         day (DATE), props = relationship properties incl. namespace, props_json).
// Returns: nothing.
UNWIND $rows AS row
MERGE (a:Event {uid: row.source_uid})
  ON CREATE SET a.stub = true, a.namespace = row.namespace, a.id = row.source
MERGE (d:Day {uid: row.target_uid})
  ON CREATE SET d.namespace = row.namespace, d.id = row.target, d.date = row.day
MERGE (a)-[r:$(row.kind)]->(d)
SET r = row.props
