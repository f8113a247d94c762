"""The graph around events: entities (with a name index), topics, links and patterns."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from simplemem_graph.models import Entity, Link, LinkKind, Pattern, Topic
from simplemem_graph.stores.embedded.events import Events
from simplemem_graph.stores.embedded.vectors import _topic_space
from simplemem_graph.stores.vector_index import normalise


class Nodes(Events):
    """Entities, topics, links and patterns."""

    def _upsert_entities(self, entities: Sequence[Entity]) -> None:
        with self._transaction() as conn:
            self._write_entities(conn, entities)

    @staticmethod
    def _write_entities(conn: sqlite3.Connection, entities: Sequence[Entity]) -> None:
        for entity in entities:
            conn.execute(
                "INSERT OR REPLACE INTO entities VALUES (?,?,?)",
                (entity.namespace, entity.id, entity.model_dump_json()),
            )
            conn.execute(
                "DELETE FROM entity_names WHERE namespace = ? AND entity_id = ?",
                (entity.namespace, entity.id),
            )
            for name in {entity.name.casefold(), *(a.casefold() for a in entity.aliases)}:
                conn.execute(
                    "INSERT OR IGNORE INTO entity_names VALUES (?,?,?)",
                    (entity.namespace, name, entity.id),
                )

    def _list_entities(self, namespace: str) -> list[Entity]:
        rows = self._read("SELECT data FROM entities WHERE namespace = ? ORDER BY id", [namespace])
        return [Entity.model_validate_json(r[0]) for r in rows]

    def _entities_by_id(self, namespace: str, ids: Sequence[str]) -> list[Entity]:
        found: list[Entity] = []
        for start in range(0, len(ids), 900):  # below SQLite's bound-parameter limit
            chunk = ids[start : start + 900]
            rows = self._read(
                f"SELECT data FROM entities WHERE namespace = ? AND id IN ({self._placeholders(len(chunk))})",
                [namespace, *chunk],
            )
            found += [Entity.model_validate_json(r[0]) for r in rows]
        return found

    def _find_entities(self, namespace: str, name: str) -> list[Entity]:
        rows = self._read(
            "SELECT entity_id FROM entity_names WHERE namespace = ? AND name = ?",
            [namespace, name.casefold()],
        )
        return self._entities_by_id(namespace, sorted({r[0] for r in rows}))

    def _find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
        keys: dict[str, list[str]] = {}
        for name in dict.fromkeys(names):
            keys.setdefault(name.casefold(), []).append(name)
        owners: dict[str, set[str]] = {}
        folded = list(keys)
        for start in range(0, len(folded), 900):
            chunk = folded[start : start + 900]
            rows = self._read(
                "SELECT name, entity_id FROM entity_names WHERE namespace = ? "
                f"AND name IN ({self._placeholders(len(chunk))})",
                [namespace, *chunk],
            )
            for key, entity in rows:
                owners.setdefault(key, set()).add(entity)
        ids = sorted({e for found in owners.values() for e in found})
        by_id = {e.id: e for e in self._entities_by_id(namespace, ids)}
        return {
            name: [by_id[i] for i in sorted(found) if i in by_id]
            for key, found in owners.items()
            for name in keys[key]
        }

    def _entities_named_from(self, namespace: str, firsts: Sequence[str]) -> list[Entity]:
        # Range scans of the (namespace, name) key: SQLite compares text bytewise, and UTF-8 byte
        # order is code point order, so [c, next code point) holds exactly the names starting with c.
        chars = sorted({c.casefold() for c in firsts if c})
        ids: set[str] = set()
        for start in range(0, len(chars), 400):
            chunk = chars[start : start + 400]
            where = " OR ".join("(name >= ? AND name < ?)" for _ in chunk)
            params = [bound for c in chunk for bound in (c, chr(ord(c) + 1))]
            rows = self._read(
                f"SELECT DISTINCT entity_id FROM entity_names WHERE namespace = ? AND ({where})",
                [namespace, *params],
            )
            ids.update(r[0] for r in rows)
        return self._entities_by_id(namespace, sorted(ids))

    def _upsert_topics(self, topics: Sequence[Topic]) -> None:
        with self._transaction() as conn:
            for topic in topics:
                self._write_topic(conn, topic)

    def _write_topic(self, conn: sqlite3.Connection, topic: Topic) -> None:
        """A topic and its centroid's row in the topic vector space (nearest topics by index).

        Unlike event rows, a topic's row is rewritten in place: centroids move with every member,
        and a stale row (a rolled-back batch) only nudges a later nearest-topic pick; the JSON
        keeps the exact centroid.
        """
        row = conn.execute(
            "SELECT vslot FROM topics WHERE namespace = ? AND id = ?", (topic.namespace, topic.id)
        ).fetchone()
        slot = row[0] if row else None
        if topic.centroid is not None:
            space_key = _topic_space(topic.namespace)
            values = normalise(topic.centroid)
            space = conn.execute("SELECT dim FROM vector_spaces WHERE namespace = ?", (space_key,)).fetchone()
            if slot is not None and space is not None and space[0] == values.shape[0]:
                self._vector_file(space_key, space[0]).write(slot, values)
            else:
                slot = self._put_vector(conn, space_key, values)
        conn.execute(
            "INSERT OR REPLACE INTO topics (namespace, id, data, vslot) VALUES (?,?,?,?)",
            (topic.namespace, topic.id, topic.model_dump_json(), slot),
        )

    def _list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        data = "data" if centroids else "json_remove(data, '$.centroid')"  # not parsed, not kept
        rows = self._read(f"SELECT {data} FROM topics WHERE namespace = ? ORDER BY id", [namespace])
        return [Topic.model_validate_json(r[0]) for r in rows]

    def _add_links(self, links: Sequence[Link]) -> None:
        if not links:
            return
        with self._transaction() as conn:
            self._write_links(conn, links)

    @staticmethod
    def _write_links(conn: sqlite3.Connection, links: Sequence[Link]) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO links VALUES (?,?,?,?,?)",
            [
                (
                    lk.namespace,
                    lk.kind.value,
                    lk.source,
                    lk.target,
                    json.dumps(lk.props, ensure_ascii=False),
                )
                for lk in links
            ],
        )

    @staticmethod
    def _delete_links(conn: sqlite3.Connection, links: Sequence[Link]) -> None:
        conn.executemany(
            "DELETE FROM links WHERE namespace = ? AND kind = ? AND source = ? AND target = ?",
            [(lk.namespace, lk.kind.value, lk.source, lk.target) for lk in links],
        )

    def _links(
        self,
        namespace: str,
        *,
        kinds: Sequence[LinkKind] | None = None,
        node_ids: Sequence[str] | None = None,
    ) -> list[Link]:
        sql = "SELECT kind, source, target, props FROM links WHERE namespace = ?"
        params: list[Any] = [namespace]
        if kinds is not None:
            sql += f" AND kind IN ({self._placeholders(len(kinds))})"
            params += [LinkKind(k).value for k in kinds]
        rows: list[tuple] = []
        if node_ids is None:
            rows = self._read(sql + " ORDER BY kind, source, target", params)
        else:
            for start in range(0, len(node_ids), 400):
                chunk = list(node_ids[start : start + 400])
                marks = self._placeholders(len(chunk))
                rows += self._read(
                    f"{sql} AND (source IN ({marks}) OR target IN ({marks}))", [*params, *chunk, *chunk]
                )
            rows = sorted(set(rows), key=lambda r: (r[0], r[1], r[2]))
        return [
            Link(kind=LinkKind(k), source=s, target=t, namespace=namespace, props=json.loads(p))
            for k, s, t, p in rows
        ]

    def _upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
        if patterns:
            with self._transaction() as conn:
                self._write_patterns(conn, patterns)

    @staticmethod
    def _write_patterns(conn: sqlite3.Connection, patterns: Sequence[Pattern]) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO patterns (namespace, id, status, data) VALUES (?,?,?,?)",
            [(p.namespace, p.id, p.status, p.model_dump_json()) for p in patterns],
        )

    def _patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        sql, params = "SELECT data FROM patterns WHERE namespace = ?", [namespace]
        if statuses is not None:
            sql += f" AND status IN ({self._placeholders(len(statuses))})"
            params += [str(s) for s in statuses]
        return [Pattern.model_validate_json(r[0]) for r in self._read(sql + " ORDER BY id", params)]
