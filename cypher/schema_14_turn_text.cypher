// Schema: fulltext index over the turns' `search_text`, the raw turn text already tokenised by
// simplemem_graph.text.tokenize (as schema_12_event_text does for events), so the whitespace
// analyzer splits words exactly as the embedded store's turns_fts index does; and over
// `search_ns`, the namespace's token, so a search matches only its own namespace inside Lucene.
// Replaces `turn_text` (text only), dropped by schema_24.
// Params: none. Returns: nothing.
CREATE FULLTEXT INDEX turn_terms IF NOT EXISTS
FOR (n:Turn) ON EACH [n.search_text, n.search_ns]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
