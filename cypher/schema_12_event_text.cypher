// Schema: fulltext index over `search_text`, the event text already tokenised by
// simplemem_graph.text.tokenize (lower-cased, Chinese segmented by jieba, joined by spaces), so
// the whitespace analyzer splits words exactly as the embedded store's FTS5 index does.
// Params: none. Returns: nothing.
CREATE FULLTEXT INDEX event_text IF NOT EXISTS
FOR (n:Event) ON EACH [n.search_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
