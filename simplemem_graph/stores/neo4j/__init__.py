"""`Neo4jStore`: the `GraphStore` contract on Neo4j 5.26+ (one server, a cluster or Aura).

- Every query is a file in `cypher/`, loaded by name (`stores.cypher.load_query`) and always
  parameterised; writes are batched as `UNWIND $rows` inside managed transactions, so the driver
  retries transient failures and a batch lands whole or not at all.
- Community edition has no node keys: each node carries `uid = namespace + '|' + id` under a
  uniqueness constraint. Relationships carry `namespace` and their props as JSON (`props_json`).
- Links may arrive before their nodes (as in the embedded store): the missing end is created as a
  stub (`stub = true`) that the node's upsert fills in; reads skip stubs.
- Recall uses the native vector index (over-fetch, then filter by namespace) and a whitespace
  fulltext index over text pre-tokenised by `text.search_terms`, the same terms FTS5 sees.

Each module adds one concern on top of those before it, as a class the next one extends:
`connection` (plumbing) < `vectors` < `fulltext` < `log` (turns) < `events` < `nodes` (entities,
topics, links, patterns) < `walks` < `maintenance` (deletes, stats) < `coordination` (deltas,
leases, jobs, meta, feedback) < `store` (opening, the `schema_*.cypher` files). The embedded store
is stacked in the same order, module for module and method for method, so the two read side by side.
"""

from simplemem_graph.stores.neo4j.store import Neo4jStore
from simplemem_graph.stores.neo4j_records import LINK_QUERIES

__all__ = ["LINK_QUERIES", "Neo4jStore"]
