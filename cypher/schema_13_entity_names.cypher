// Schema: fulltext index over entity names and aliases (tokenised like event text), for fuzzy
// look-ups by people in Neo4j Browser (cypher/browser/find_entity.cypher).
// Params: none. Returns: nothing.
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS
FOR (n:Entity) ON EACH [n.search_names]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
