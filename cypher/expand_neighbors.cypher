// One step of association-chain completion, from a frontier of events to their neighbours:
// along an event-to-event link of the wanted kinds (either direction), or through an entity
// both events MENTION. The store runs it once per hop (breadth first) in one read transaction,
// so each event is reached at its shortest distance and a hub entity is crossed once per hop.
// Through an entity only the first $cap co-mentioning events the entity's relationship chain
// gives are read (no ORDER BY, so the LIMIT stops the read): a speaker mentioned by every event
// costs what the walk can use, not its whole storyline (ordering by id read all of it: 7 s per
// walk at 1,000 events).
// Params: $uids (LIST<STRING>, the frontier), $event_kinds (LIST<STRING>),
//         $via_entities (BOOLEAN: also step through shared entities), $cap (INTEGER).
// Returns: source, target (STRING event ids), status (STRING, null for a stub),
//          step ("NEXT", "CAUSES"... or "MENTIONS <name>"; the first by name when several), sorted
//          by source, target.
MATCH (a:Event)
WHERE a.uid IN $uids
CALL (a) {
  MATCH (a)-[r]-(b:Event)
  WHERE type(r) IN $event_kinds
  RETURN b, type(r) AS step
  UNION
  MATCH (a)-[:MENTIONS]->(x:Entity)
  WHERE $via_entities
  CALL (a, x) {
    MATCH (x)<-[:MENTIONS]-(b:Event)
    WHERE b <> a
    RETURN b
    LIMIT $cap
  }
  RETURN b, 'MENTIONS ' + coalesce(x.name, x.id) AS step
}
RETURN a.id AS source, b.id AS target, b.status AS status, min(step) AS step
ORDER BY source, target
