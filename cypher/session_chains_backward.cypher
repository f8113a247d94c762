// Per event: the events that precede it along NEXT links scoped to its session (scope
// "session:..."), nearest first, up to $steps (at most 16); a stub (a link to an event not written)
// ends the chain. One round trip for every memory a search widens with its neighbouring turns.
// Params: $uids (LIST<STRING>, the start events), $steps (INTEGER <= 16).
// Returns: start (STRING id), chain (LIST<MAP> of Event properties, nearest first; the embedding
//          as packed float32 `embedding_f32`).
UNWIND $uids AS uid
MATCH (s:Event {uid: uid})
CALL (s) {
  OPTIONAL MATCH p = (s)<-[rs:NEXT*1..16]-(e:Event)
  WHERE length(p) <= $steps AND all(r IN rs WHERE r.scope STARTS WITH 'session:')
    AND all(n IN nodes(p) WHERE n.stub IS NULL)
  WITH e, min(length(p)) AS depth
  ORDER BY depth
  RETURN collect(e {.*, embedding: null}) AS chain
}
RETURN s.id AS start, chain
