// The higher memories of one namespace (or all, when $namespace is null): patterns by status, and
// open questions (active events still lacking a key slot, see open_question_events.cypher).
// Params: $namespace (STRING or null). Returns: one row: patterns (MAP status -> INTEGER),
// open_questions (INTEGER).
CALL () {
  MATCH (p:Pattern) WHERE ($namespace IS NULL OR p.namespace = $namespace)
  WITH p.status AS status, count(p) AS n
  RETURN collect([status, n]) AS patterns
}
CALL () {
  MATCH (e:Event)
  WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.stub IS NULL AND e.status = 'active'
    AND size(coalesce(e.open_slots, [])) > 0
  RETURN count(e) AS open_questions
}
RETURN patterns, open_questions
