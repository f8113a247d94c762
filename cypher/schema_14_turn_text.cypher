// Schema: fulltext index over the turns' `search_text`, the raw turn text already tokenised by
// simplemem_graph.text.tokenize (as schema_12_event_text does for events), so the whitespace
// analyzer splits words exactly as the embedded store's turns_fts index does.
// Params: none. Returns: nothing.
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS
FOR (n:Turn) ON EACH [n.search_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
