"""`EmbeddedStore`: the default store, with no server. One SQLite file holds everything.

- SQLite (WAL) keeps turns, events, entities, topics and links; each batch is one transaction.
- FTS5 does lexical search. Text is pre-tokenised (`text.search_terms`: words, jieba's for Chinese,
  plus Chinese character pairs) into the indexed column, and queries go through the same function,
  so both sides agree on the terms. Every term is prefixed with its namespace's key, so a query
  reads only its own namespace's postings, not every tenant's.
- Vectors live in an append-only, memory-mapped float32 file per namespace (`vector_index.py`):
  nothing is loaded or rebuilt at start or after a write; exact cosine search, filters in SQL.
- Association-chain walks are indexed SQL, one query per hop (no in-memory graph to rebuild).
- Every date an event is about is a row of `event_days`, so date ranges filter in SQL.

The connection is shared across threads behind one lock, so the HTTP API can serve concurrent
requests from one store.

Each module adds one concern on top of those before it, as a class the next one extends:
`connection` (plumbing) < `vectors` < `fulltext` < `log` (turns) < `events` < `nodes` (entities,
topics, links, patterns) < `walks` < `maintenance` (deletes, stats) < `coordination` (deltas,
leases, jobs, meta, feedback) < `store` (opening, `schema` migrations). The Neo4j store is stacked
in the same order, module for module and method for method, so the two read side by side.
"""

from simplemem_graph.stores.embedded.fulltext import _match_expression
from simplemem_graph.stores.embedded.store import EmbeddedStore
from simplemem_graph.stores.embedded.vectors import rebuild_vectors

__all__ = ["EmbeddedStore", "_match_expression", "rebuild_vectors"]
