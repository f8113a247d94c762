"""Maintenance: deletes (with the orphans they leave), namespaces, statistics, closing."""

from __future__ import annotations

from typing import Any

from simplemem_graph.stores.base import compression_counts
from simplemem_graph.stores.neo4j.walks import Walks

_DELETE_BATCH = 5_000


class Maintenance(Walks):
    """Deleting, counting and closing."""

    def delete_namespace(self, namespace: str) -> None:
        # Batches in their own transactions: a namespace of millions of nodes would not fit in one.
        while self._execute("delete_namespace_batch", namespace=namespace, batch=_DELETE_BATCH)[0]["deleted"]:
            pass
        self._transaction(lambda tx: self._revise_entities(tx, [namespace]))

    def namespaces(self) -> list[str]:
        return [r["namespace"] for r in self._execute("namespaces", read=True)]

    def stats(self, namespace: str | None = None) -> dict[str, Any]:
        counts = self._execute("count_nodes", read=True, namespace=namespace)[0]
        relations = {
            r["kind"]: r["count"] for r in self._execute("count_relations", read=True, namespace=namespace)
        }
        statuses = {
            r["status"]: r["count"]
            for r in self._execute("count_event_statuses", read=True, namespace=namespace)
        }
        tiers = {
            r["tier"]: r["count"] for r in self._execute("count_event_tiers", read=True, namespace=namespace)
        }
        compression = compression_counts(
            [
                (r["trigger"], r["events"], r["turns"], r["windows"])
                for r in self._execute("count_compression", read=True, namespace=namespace)
            ]
        )
        memories = self._execute("count_memories", read=True, namespace=namespace)[0]
        return {
            "store": self.kind,
            "uri": self.uri,
            "database": self.database,
            "namespace": namespace,
            "namespaces": len(self.namespaces()) if namespace is None else 1,
            **counts,
            "pending": self._count_pending(namespace),
            "relations": relations,
            "events_by_status": statuses,
            "events_by_tier": tiers,
            "compression": compression,
            "patterns": {status: n for status, n in memories["patterns"]},
            "open_questions": memories["open_questions"],
        }

    def close(self) -> None:
        self._driver.close()
