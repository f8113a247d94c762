// Schema: a namespace's entities (list_entities, find_entities, orphan clean-up).
// Params: none. Returns: nothing.
CREATE RANGE INDEX entity_namespace IF NOT EXISTS FOR (n:Entity) ON (n.namespace)
