// Schema: drop the text-only turn fulltext index of earlier versions (replaced by turn_terms,
// which also holds the namespace token); a no-op on a new database.
// Params: none. Returns: nothing.
DROP INDEX turn_text IF EXISTS
