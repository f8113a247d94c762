// A candidate pool as a subgraph (GraphStore.events_and_links): the events of $uids, and the
// links of $kinds from one of them to another.
// Params: $uids (LIST<STRING>: namespace + '|' + event id), $kinds (LIST<STRING>).
// Returns: event (MAP of Event properties; the embedding as packed float32 `embedding_f32`),
//          links (LIST<MAP> of kind, target, props (STRING, JSON)), one row per event.
MATCH (e:Event)
WHERE e.uid IN $uids AND e.stub IS NULL
CALL (e) {
  OPTIONAL MATCH (e)-[r]->(f:Event)
  WHERE type(r) IN $kinds AND f.uid IN $uids
  RETURN collect(CASE WHEN r IS NULL THEN null ELSE {kind: type(r), target: f.id, props: r.props_json} END) AS links
}
RETURN e {.*, embedding: null} AS event, links
