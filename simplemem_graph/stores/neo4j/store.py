"""`Neo4jStore`: connecting, the schema (the numbered `schema_*.cypher` files), and the parts
stacked into one store."""

from __future__ import annotations

from neo4j import Driver, GraphDatabase, NotificationDisabledClassification
from neo4j.exceptions import ClientError

from simplemem_graph.errors import ConfigError, StoreUnavailableError
from simplemem_graph.stores.cypher import query_names
from simplemem_graph.stores.neo4j.connection import _DRIVER_ERRORS
from simplemem_graph.stores.neo4j.coordination import Coordination

# Bolt only: the driver would take http:// for its preview HTTP API, which this store does not use.
_SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")


class Neo4jStore(Coordination):
    """The Neo4j store. Open it with `Neo4jStore.connect(uri)`; `__init__` does no I/O."""

    kind = "neo4j"

    def __init__(self, driver: Driver, *, database: str | None = None, dimension: int = 384, uri: str = ""):
        self._driver = driver
        self.database = database
        self.dimension = dimension
        self.uri = uri

    @classmethod
    def connect(
        cls,
        uri: str,
        *,
        database: str | None = None,
        auth: tuple[str, str] | None = None,
        dimension: int = 384,
        retry_s: float = 120.0,
    ) -> Neo4jStore:
        """Connect, check the server answers, and create the schema if it is missing.

        Args:
            uri: `neo4j://host:7687` (routing: one server, a cluster or Aura), `neo4j+s://...`,
                or `bolt://...` for a direct connection.
            database: the database name; None for the server's default.
            auth: (user, password), or None for a server with auth disabled.
            dimension: the embedding model's dimension, for the vector index.
            retry_s: how long a transaction is retried on transient errors (server restarting,
                connection lost) before StoreUnavailableError; every write is idempotent, so a
                retried batch is applied once.

        Returns:
            A ready store.

        Raises:
            StoreUnavailableError: the server cannot be reached or refuses the credentials.
            ConfigError: the vector index exists with another dimension (another model).

        Example:
            >>> store = Neo4jStore.connect("neo4j://localhost:7687")  # doctest: +SKIP
        """
        if uri.split("://", 1)[0] not in _SCHEMES:
            raise ConfigError(
                f"neo4j store: {uri!r} is not a Bolt URI; use one of {[s + '://' for s in _SCHEMES]}"
            )
        try:
            driver = GraphDatabase.driver(
                uri,
                auth=auth,
                max_transaction_retry_time=retry_s,
                # A fresh database has no labels yet; "label does not exist" is expected noise.
                notifications_disabled_classifications=[NotificationDisabledClassification.UNRECOGNIZED],
            )
        except ValueError as e:
            raise ConfigError(f"neo4j store: bad URI {uri!r}: {e}") from e
        try:
            driver.verify_connectivity()
        except _DRIVER_ERRORS as e:
            driver.close()
            raise StoreUnavailableError(f"neo4j store: cannot connect to {uri}: {e}") from e
        store = cls(driver, database=database, dimension=dimension, uri=uri)
        try:
            store._ensure_schema()
        except BaseException:
            driver.close()
            raise
        return store

    def _ensure_schema(self) -> None:
        """Run every `schema_*.cypher` in name order (all idempotent), check the vector index's
        dimension, and wait for the indexes to come online."""
        for name in (n for n in query_names() if n.startswith("schema_")):
            try:
                self._execute(name, dimension=self.dimension)
            except ClientError as e:
                # Two processes creating the same index at once: the loser is told it exists.
                if "EquivalentSchemaRuleAlreadyExists" not in (e.code or ""):
                    raise
        rows = self._execute("show_vector_index")
        if rows and rows[0]["dimensions"] != self.dimension:
            raise ConfigError(
                f"neo4j store: the event vector index holds {rows[0]['dimensions']}-d embeddings but "
                f"this store was opened for {self.dimension}-d ones: one database needs one embedding model"
            )
        self._execute("await_indexes", timeout=300)
        self._reindex_search_terms()
