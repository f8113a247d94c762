// Schema: fulltext index over `search_text`, the event text already tokenised by
// simplemem_graph.text.tokenize (lower-cased, Chinese segmented by jieba, joined by spaces), so
// the whitespace analyzer splits words exactly as the embedded store's FTS5 index does; and over
// `search_ns`, one token naming the namespace, so a search is a Lucene query that matches only its
// own namespace's events (a required, zero-weight clause), not every tenant's before a filter.
// Replaces `event_text` (text only), dropped by schema_23.
// Params: none. Returns: nothing.
CREATE FULLTEXT INDEX event_terms IF NOT EXISTS
FOR (n:Event) ON EACH [n.search_text, n.search_ns]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
