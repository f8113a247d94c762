// Namespaces with at least one turn or event.
// Params: none. Returns: namespace (STRING), sorted.
CALL () {
  MATCH (t:Turn) WHERE t.stub IS NULL RETURN DISTINCT t.namespace AS namespace
  UNION
  MATCH (e:Event) WHERE e.stub IS NULL RETURN DISTINCT e.namespace AS namespace
}
RETURN namespace
ORDER BY namespace
