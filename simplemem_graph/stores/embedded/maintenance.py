"""Maintenance: deletes (with the orphans they leave), namespaces, statistics, closing."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

from simplemem_graph.models import ENTITY_LINKS, LinkKind
from simplemem_graph.stores.base import compression_counts
from simplemem_graph.stores.embedded.vectors import _topic_space
from simplemem_graph.stores.embedded.walks import Walks


class Maintenance(Walks):
    """Deleting, counting and closing."""

    def _delete_events_in(
        self, conn: sqlite3.Connection, namespace: str, ids: Sequence[str]
    ) -> list[tuple[int | None, int | None]]:
        """Delete events and every link touching them in the caller's transaction (the orphans
        they leave are the caller's to sweep); one (vector slot, byte size) per event deleted."""
        present = list(dict.fromkeys(ids))
        holes: list[tuple[int | None, int | None]] = []
        for start in range(0, len(present), 400):
            chunk = present[start : start + 400]
            marks = self._placeholders(len(chunk))
            rows = conn.execute(
                f"SELECT rid, vslot, length(embedding) FROM events WHERE namespace = ? AND id IN ({marks})",
                [namespace, *chunk],
            ).fetchall()
            if not rows:
                continue
            conn.executemany("DELETE FROM events_fts WHERE rowid = ?", [(r[0],) for r in rows])
            conn.executemany("DELETE FROM event_days WHERE rid = ?", [(r[0],) for r in rows])
            conn.execute(f"DELETE FROM events WHERE namespace = ? AND id IN ({marks})", [namespace, *chunk])
            conn.execute(
                f"DELETE FROM links WHERE namespace = ? AND (source IN ({marks}) OR target IN ({marks}))",
                [namespace, *chunk, *chunk],
            )
            holes += [(slot, size) for _, slot, size in rows]
        return holes

    def _zero_vectors(self, namespace: str, holes: Sequence[tuple[int | None, int | None]]) -> None:
        """A deleted event's row of the vector file is a hole searches skip; once the delete is
        committed, zero it too, so a forgotten memory leaves no vector behind."""
        for slot, size in holes:
            if slot is not None and size:
                self._vector_file(namespace, size // 4).write(slot, np.zeros(size // 4, np.float32))

    def _delete_orphans(self, conn: sqlite3.Connection, namespace: str) -> None:
        """Entities and topics that no event reaches any more go with the events.

        An entity is live when an event mentions it, or when an alias / candidate / employer link
        ties it to a live entity: forgetting one event must not wipe the alias graph.
        """
        mentioned = {
            r[0]
            for r in conn.execute(
                "SELECT DISTINCT target FROM links WHERE namespace = ? AND kind = ?",
                (namespace, LinkKind.MENTIONS.value),
            )
        }
        ties = conn.execute(
            f"SELECT source, target FROM links WHERE namespace = ? AND kind IN ({self._placeholders(3)})",
            (namespace, *(k.value for k in ENTITY_LINKS)),
        ).fetchall()
        graph = nx.Graph(ties)
        graph.add_nodes_from(mentioned)
        live = (
            set().union(*(nx.node_connected_component(graph, e) for e in mentioned)) if mentioned else set()
        )
        entities = [r[0] for r in conn.execute("SELECT id FROM entities WHERE namespace = ?", (namespace,))]
        topics = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM topics t WHERE namespace = ? AND NOT EXISTS (SELECT 1 FROM links l "
                "WHERE l.namespace = t.namespace AND l.kind = ? AND l.target = t.id)",
                (namespace, LinkKind.IN_TOPIC.value),
            )
        ]
        self._delete_nodes(conn, namespace, "entities", [e for e in entities if e not in live])
        self._delete_nodes(conn, namespace, "topics", topics)

    def _delete_nodes(self, conn: sqlite3.Connection, namespace: str, table: str, ids: list[str]) -> None:
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            marks = self._placeholders(len(chunk))
            conn.execute(f"DELETE FROM {table} WHERE namespace = ? AND id IN ({marks})", [namespace, *chunk])
            conn.execute(
                f"DELETE FROM links WHERE namespace = ? AND (source IN ({marks}) OR target IN ({marks}))",
                [namespace, *chunk, *chunk],
            )
            if table == "entities":
                conn.execute(
                    f"DELETE FROM entity_names WHERE namespace = ? AND entity_id IN ({marks})",
                    [namespace, *chunk],
                )

    def delete_namespace(self, namespace: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "DELETE FROM events_fts WHERE rowid IN (SELECT rid FROM events WHERE namespace = ?)",
                (namespace,),
            )
            conn.execute("DELETE FROM turns_fts WHERE namespace = ?", (namespace,))
            tables: tuple[str, ...] = ("turns", "events", "event_days", "entities", "entity_names")
            tables += ("topics", "links", "patterns", "feedback", "vector_spaces", "leases", "jobs")
            for table in tables:
                conn.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
            conn.execute("DELETE FROM vector_spaces WHERE namespace = ?", (_topic_space(namespace),))
            self._drop_vector_files(namespace)
            self._drop_vector_files(_topic_space(namespace))

    def namespaces(self) -> list[str]:
        rows = self._read("SELECT namespace FROM turns UNION SELECT namespace FROM events ORDER BY 1")
        return [r[0] for r in rows]

    def stats(self, namespace: str | None = None) -> dict[str, Any]:
        where, params = ("WHERE namespace = ?", [namespace]) if namespace is not None else ("", [])

        def count(table: str) -> int:
            return self._read(f"SELECT COUNT(*) FROM {table} {where}", params)[0][0]

        relations = dict(
            self._read(f"SELECT kind, COUNT(*) FROM links {where} GROUP BY kind ORDER BY kind", params)
        )
        statuses = dict(self._read(f"SELECT status, COUNT(*) FROM events {where} GROUP BY status", params))
        tier = "coalesce(json_extract(data, '$.tier'), 'hot')"
        tiers = dict(self._read(f"SELECT {tier}, COUNT(*) FROM events {where} GROUP BY 1", params))
        trigger = "coalesce(json_extract(e.data, '$.trigger'), 'information')"
        by_trigger = self._read(
            f"SELECT {trigger}, COUNT(DISTINCT e.rid), COUNT(DISTINCT e.namespace || '|' || s.value), "
            "COUNT(DISTINCT CASE WHEN json_array_length(e.data, '$.source_ids') > 1 THEN e.rid END) "
            "FROM events e, json_each(e.data, '$.source_ids') s "
            + ("WHERE e.namespace = ? " if namespace is not None else "")
            + "GROUP BY 1",
            params,
        )
        patterns = dict(self._read(f"SELECT status, COUNT(*) FROM patterns {where} GROUP BY status", params))
        open_questions = self._read(
            "SELECT COUNT(*) FROM events WHERE status = 'active' "
            "AND json_array_length(data, '$.open_slots') > 0" + (" AND namespace = ?" if where else ""),
            params,
        )[0][0]
        return {
            "store": self.kind,
            "path": self.path,
            "namespace": namespace,
            "namespaces": len(self.namespaces()) if namespace is None else 1,
            # Erased turns are tombstones, not turns of the log any more.
            "turns": self._read(
                f"SELECT COUNT(*) FROM turns {where} {'AND' if where else 'WHERE'} state != 'forgotten'",
                params,
            )[0][0],
            "pending": self._count_pending(namespace),
            "events": count("events"),
            "entities": count("entities"),
            "topics": count("topics"),
            "relations": relations,
            "events_by_status": statuses,
            "events_by_tier": tiers,
            "compression": compression_counts([tuple(row) for row in by_trigger]),
            "patterns": patterns,
            "open_questions": open_questions,
        }

    def close(self) -> None:
        with self._lock:
            self._conn.close()
