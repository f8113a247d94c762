"""Opening a store by URI: the embedded store for a path, Neo4j for a neo4j:// or bolt:// URI."""

from __future__ import annotations

from simplemem_graph.config import Settings, is_neo4j_uri, sqlite_path
from simplemem_graph.stores.base import GraphStore


def open_store(uri: str | None, settings: Settings | None = None, *, dimension: int = 384) -> GraphStore:
    """A store from a URI: a path or sqlite:/// for the embedded store, neo4j:// or bolt:// for Neo4j."""
    settings = settings or Settings.from_env()
    if uri is not None and is_neo4j_uri(uri):
        from simplemem_graph.stores.neo4j import Neo4jStore

        # A user without a password sends an empty one: the server refuses it as it would None.
        auth = (settings.neo4j_user, settings.neo4j_password or "") if settings.neo4j_user else None
        return Neo4jStore.connect(
            uri,
            database=settings.neo4j_database,
            auth=auth,
            dimension=dimension,
            retry_s=settings.neo4j_retry_s,
        )
    from simplemem_graph.stores.embedded import EmbeddedStore

    return EmbeddedStore(sqlite_path(uri))
