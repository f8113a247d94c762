// Wait until every index is online (after the schema files ran).
// Params: $timeout (INTEGER seconds). Returns: nothing.
CALL db.awaitIndexes($timeout)
