// Schema: drop the text-only event fulltext index of earlier versions (replaced by event_terms,
// which also holds the namespace token); a no-op on a new database.
// Params: none. Returns: nothing.
DROP INDEX event_text IF EXISTS
