// Add or replace links of kind EVIDENCED_BY (pattern to event), idempotent on
// (kind, source, target). An endpoint not written yet becomes a stub node (stub = true) that its
// later upsert fills in, so links may arrive before their nodes, as in the embedded store.
// Params: $rows (LIST<MAP>: kind (a LinkKind value, checked by the caller), namespace, source,
//         target, source_uid, target_uid, props = relationship properties incl. namespace, props_json).
// Returns: nothing.
UNWIND $rows AS row
MERGE (a:Pattern {uid: row.source_uid})
  ON CREATE SET a.stub = true, a.namespace = row.namespace, a.id = row.source
MERGE (b:Event {uid: row.target_uid})
  ON CREATE SET b.stub = true, b.namespace = row.namespace, b.id = row.target
MERGE (a)-[r:$(row.kind)]->(b)
SET r = row.props
