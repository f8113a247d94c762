"""`EmbeddedStore`: the default store, with no server. One SQLite file holds everything.

- SQLite (WAL) keeps turns, events, entities, topics and links; each batch is one transaction.
- FTS5 does lexical search. Chinese is pre-tokenised with jieba (`text.tokenize`) into the indexed
  column, and queries go through the same tokeniser, so both sides agree on word boundaries.
- Vectors live in a numpy matrix per namespace, loaded once and patched on writes; exact cosine
  search is fast enough to ~100k events.
- networkx holds the event/entity graph per namespace for association-chain walks.

The connection is shared across threads behind one lock, so the HTTP API can serve concurrent
requests from one store.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from simplemem_graph.errors import InputError, StoreUnavailableError
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    ENTITY_LINKS,
    EVENT_LINKS,
    Entity,
    Event,
    Link,
    LinkKind,
    Neighbor,
    ScoredId,
    Topic,
    Turn,
)
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.text import tokenize

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    namespace TEXT NOT NULL, id TEXT NOT NULL, session TEXT NOT NULL, speaker TEXT NOT NULL,
    time TEXT NOT NULL, ts REAL NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE INDEX IF NOT EXISTS turns_by_time ON turns (namespace, ts);
CREATE TABLE IF NOT EXISTS events (
    rid INTEGER PRIMARY KEY, namespace TEXT NOT NULL, id TEXT NOT NULL,
    ts REAL NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL, embedding BLOB,
    UNIQUE (namespace, id)
);
CREATE INDEX IF NOT EXISTS events_by_time ON events (namespace, ts);
CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5 (tokens, tokenize = 'unicode61');
CREATE VIRTUAL TABLE IF NOT EXISTS turns_fts USING fts5 (
    tokens, namespace UNINDEXED, turn_id UNINDEXED, tokenize = 'unicode61'
);
CREATE TABLE IF NOT EXISTS entities (
    namespace TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE IF NOT EXISTS entity_names (
    namespace TEXT NOT NULL, name TEXT NOT NULL, entity_id TEXT NOT NULL,
    PRIMARY KEY (namespace, name, entity_id)
);
CREATE TABLE IF NOT EXISTS topics (
    namespace TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE IF NOT EXISTS links (
    namespace TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
    props TEXT NOT NULL,
    PRIMARY KEY (namespace, kind, source, target)
);
CREATE INDEX IF NOT EXISTS links_by_target ON links (namespace, target);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS links_by_source ON links (namespace, source);
"""


def _event_days(event: Event) -> tuple[date, ...]:
    """Every date an event is about: when it happened, its deadline, and any date it names."""
    days = {event.time.date(), *event.dates}
    if event.deadline:
        days.add(event.deadline)
    return tuple(sorted(days))


def _in_range(days: Iterable[date], time_from: date | None, time_to: date | None) -> bool:
    if time_from is None and time_to is None:
        return True
    return any((time_from is None or d >= time_from) and (time_to is None or d <= time_to) for d in days)


@dataclass
class _VectorIndex:
    """The namespace's embeddings as one matrix, with the metadata recall filters on."""

    ids: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    matrix: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    statuses: list[str] = field(default_factory=list)
    days: list[tuple[date, ...]] = field(default_factory=list)

    def put(self, event: Event) -> None:
        vector = np.asarray(event.embedding if event.embedding is not None else [], dtype=np.float32)
        if self.matrix.shape[0] == 0 and vector.size:
            self.matrix = np.zeros((0, vector.size), dtype=np.float32)
        if vector.size and vector.size != self.matrix.shape[1]:
            raise ValueError(
                f"embedded store: event {event.id} has a {vector.size}-d embedding, the namespace "
                f"holds {self.matrix.shape[1]}-d ones; one namespace needs one embedding model"
            )
        row = np.zeros((1, self.matrix.shape[1]), dtype=np.float32)
        if vector.size:
            norm = float(np.linalg.norm(vector))
            row[0] = vector / norm if norm else vector
        if event.id in self.rows:
            i = self.rows[event.id]
            self.matrix[i] = row[0]
            self.statuses[i] = event.status
            self.days[i] = _event_days(event)
            return
        self.rows[event.id] = len(self.ids)
        self.ids.append(event.id)
        self.matrix = np.vstack([self.matrix, row]) if self.matrix.size else row
        self.statuses.append(event.status)
        self.days.append(_event_days(event))


class EmbeddedStore(GraphStore):
    """The embedded store. `EmbeddedStore(":memory:")` for tests, a file path for real use."""

    kind = "embedded"

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(_SCHEMA)
            self._index_logged_turns()
        except sqlite3.Error as e:
            raise StoreUnavailableError(f"embedded store: cannot open SQLite file {self.path!r}: {e}") from e
        self._lock = threading.RLock()
        self._vectors: dict[str, _VectorIndex] = {}
        self._graphs: dict[str, nx.MultiGraph] = {}

    def _index_logged_turns(self) -> None:
        """Fill the turn fulltext index of a file written before it existed (turns are immutable,
        so an index that is not empty is complete)."""
        if self._conn.execute("SELECT 1 FROM turns_fts LIMIT 1").fetchone():
            return
        rows = self._conn.execute("SELECT namespace, id, text FROM turns").fetchall()
        if rows:
            self._conn.executemany(
                "INSERT INTO turns_fts (tokens, namespace, turn_id) VALUES (?, ?, ?)",
                [(" ".join(tokenize(text)), namespace, turn_id) for namespace, turn_id, text in rows],
            )

    # ---- plumbing -------------------------------------------------------------------------------
    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of a batch lands, or none of it."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    @staticmethod
    def _placeholders(n: int) -> str:
        return ",".join("?" * n)

    def _forget_caches(self, namespace: str) -> None:
        self._vectors.pop(namespace, None)
        self._graphs.pop(namespace, None)

    # ---- raw log --------------------------------------------------------------------------------
    def add_turns(self, turns: Sequence[Turn]) -> list[Turn]:
        added: list[Turn] = []
        with self._transaction() as conn:
            for turn in turns:
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO turns VALUES (?,?,?,?,?,?,?)",
                    (
                        turn.namespace,
                        turn.id,
                        turn.session,
                        turn.speaker,
                        turn.time.isoformat(),
                        turn.time.timestamp(),
                        turn.text,
                    ),
                )
                if cursor.rowcount:
                    # Indexed only when first logged: turns are immutable, so re-adding is a no-op.
                    conn.execute(
                        "INSERT INTO turns_fts (tokens, namespace, turn_id) VALUES (?, ?, ?)",
                        (" ".join(tokenize(turn.text)), turn.namespace, turn.id),
                    )
                    added.append(turn)
        return added

    def get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        sql = "SELECT id, session, speaker, time, text FROM turns WHERE namespace = ?"
        params: list[Any] = [namespace]
        if ids is not None:
            if not ids:
                return []
            sql += f" AND id IN ({self._placeholders(len(ids))})"
            params += list(ids)
        rows = self._read(sql + " ORDER BY ts, id", params)
        return [
            Turn(
                id=r[0],
                namespace=namespace,
                session=r[1],
                speaker=r[2],
                time=datetime.fromisoformat(r[3]),
                text=r[4],
            )
            for r in rows
        ]

    # ---- events ---------------------------------------------------------------------------------
    def upsert_events(self, events: Sequence[Event]) -> None:
        if not events:
            return
        self._check_dimensions(events)
        with self._transaction() as conn:
            for event in events:
                self._write_event(conn, event)
        for event in events:
            index = self._vectors.get(event.namespace)
            if index is not None:
                index.put(event)

    def _check_dimensions(self, events: Sequence[Event]) -> None:
        """One namespace holds one embedding size: refuse a batch that would mix sizes, before any
        write (a wrong-size vector would otherwise break every later vector search)."""
        sizes: dict[str, int] = {}
        for event in events:
            if event.embedding is None:
                continue
            namespace = event.namespace
            if namespace not in sizes:
                row = self._read(
                    "SELECT length(embedding) FROM events WHERE namespace = ? AND embedding IS NOT NULL "
                    "AND id != ? LIMIT 1",
                    [namespace, event.id],
                )
                sizes[namespace] = row[0][0] // 4 if row else len(event.embedding)
            if len(event.embedding) != sizes[namespace]:
                raise InputError(
                    f"embedded store: event {event.id} has a {len(event.embedding)}-d embedding; namespace "
                    f"{namespace!r} holds {sizes[namespace]}-d embeddings (one namespace, one model)"
                )

    def _write_event(self, conn: sqlite3.Connection, event: Event) -> None:
        data = event.model_dump_json(exclude={"embedding"})
        blob = (
            np.asarray(event.embedding, dtype=np.float32).tobytes() if event.embedding is not None else None
        )
        row = conn.execute(
            "SELECT rid FROM events WHERE namespace = ? AND id = ?", (event.namespace, event.id)
        ).fetchone()
        if row:
            conn.execute(
                "UPDATE events SET ts = ?, status = ?, data = ?, embedding = ? WHERE rid = ?",
                (event.time.timestamp(), event.status, data, blob, row[0]),
            )
            conn.execute("DELETE FROM events_fts WHERE rowid = ?", (row[0],))
            rid = row[0]
        else:
            rid = conn.execute(
                "INSERT INTO events (namespace, id, ts, status, data, embedding) VALUES (?,?,?,?,?,?)",
                (event.namespace, event.id, event.time.timestamp(), event.status, data, blob),
            ).lastrowid
        conn.execute(
            "INSERT INTO events_fts (rowid, tokens) VALUES (?, ?)", (rid, " ".join(tokenize(event.text)))
        )

    @staticmethod
    def _event_from_row(data: str, blob: bytes | None) -> Event:
        event = Event.model_validate_json(data)
        if blob is not None:
            event.embedding = np.frombuffer(blob, dtype=np.float32).tolist()
        return event

    def get_events(self, namespace: str, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        found: dict[str, Event] = {}
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = self._placeholders(len(chunk))
            sql = f"SELECT id, data, embedding FROM events WHERE namespace = ? AND id IN ({marks})"
            rows = self._read(sql, [namespace, *chunk])
            found.update({r[0]: self._event_from_row(r[1], r[2]) for r in rows})
        return [found[i] for i in ids if i in found]

    def list_events(
        self,
        namespace: str,
        *,
        statuses: Sequence[str] | None = None,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[Event]:
        sql = "SELECT data, embedding FROM events WHERE namespace = ?"
        params: list[Any] = [namespace]
        if statuses is not None:
            sql += f" AND status IN ({self._placeholders(len(statuses))})"
            params += [str(s) for s in statuses]
        events = [self._event_from_row(d, b) for d, b in self._read(sql + " ORDER BY ts, id", params)]
        return [e for e in events if _in_range(_event_days(e), time_from, time_to)]

    def update_events(self, namespace: str, ids: Sequence[str], fields: dict[str, Any]) -> None:
        events = self.get_events(namespace, ids)
        updated = [Event.model_validate({**e.model_dump(), **fields}) for e in events]
        self.upsert_events(updated)

    def touch_events(self, namespace: str, ids: Sequence[str], at: datetime) -> None:
        events = self.get_events(namespace, ids)
        with self._transaction() as conn:
            for e in events:
                e.access_count += 1
                e.last_accessed = at
                conn.execute(
                    "UPDATE events SET data = ? WHERE namespace = ? AND id = ?",
                    (e.model_dump_json(exclude={"embedding"}), namespace, e.id),
                )

    # ---- entities and topics --------------------------------------------------------------------
    def upsert_entities(self, entities: Sequence[Entity]) -> None:
        with self._transaction() as conn:
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
        for namespace in {e.namespace for e in entities}:
            self._graphs.pop(namespace, None)

    def list_entities(self, namespace: str) -> list[Entity]:
        rows = self._read("SELECT data FROM entities WHERE namespace = ? ORDER BY id", [namespace])
        return [Entity.model_validate_json(r[0]) for r in rows]

    def _entities_by_id(self, namespace: str, ids: Sequence[str]) -> list[Entity]:
        if not ids:
            return []
        rows = self._read(
            f"SELECT data FROM entities WHERE namespace = ? AND id IN ({self._placeholders(len(ids))})",
            [namespace, *ids],
        )
        return [Entity.model_validate_json(r[0]) for r in rows]

    def find_entities(self, namespace: str, name: str) -> list[Entity]:
        rows = self._read(
            "SELECT entity_id FROM entity_names WHERE namespace = ? AND name = ?",
            [namespace, name.casefold()],
        )
        return self._entities_by_id(namespace, sorted({r[0] for r in rows}))

    def upsert_topics(self, topics: Sequence[Topic]) -> None:
        with self._transaction() as conn:
            for topic in topics:
                conn.execute(
                    "INSERT OR REPLACE INTO topics VALUES (?,?,?)",
                    (topic.namespace, topic.id, topic.model_dump_json()),
                )

    def list_topics(self, namespace: str) -> list[Topic]:
        rows = self._read("SELECT data FROM topics WHERE namespace = ? ORDER BY id", [namespace])
        return [Topic.model_validate_json(r[0]) for r in rows]

    # ---- links ----------------------------------------------------------------------------------
    def add_links(self, links: Sequence[Link]) -> None:
        if not links:
            return
        with self._transaction() as conn:
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
        for namespace in {lk.namespace for lk in links}:
            self._graphs.pop(namespace, None)

    def remove_links(self, links: Sequence[Link]) -> None:
        if not links:
            return
        with self._transaction() as conn:
            conn.executemany(
                "DELETE FROM links WHERE namespace = ? AND kind = ? AND source = ? AND target = ?",
                [(lk.namespace, lk.kind.value, lk.source, lk.target) for lk in links],
            )
        for namespace in {lk.namespace for lk in links}:
            self._graphs.pop(namespace, None)

    def list_links(
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

    # ---- recall channels --------------------------------------------------------------------------
    def _vector_index(self, namespace: str) -> _VectorIndex:
        with self._lock:
            index = self._vectors.get(namespace)
            if index is None:
                index = _VectorIndex()
                rows = self._conn.execute(
                    "SELECT data, embedding FROM events WHERE namespace = ? ORDER BY rid", (namespace,)
                ).fetchall()
                for data, blob in rows:
                    index.put(self._event_from_row(data, blob))
                self._vectors[namespace] = index
            return index

    def vector_search(
        self,
        namespace: str,
        vector: Sequence[float],
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[ScoredId]:
        index = self._vector_index(namespace)
        if not index.ids or index.matrix.shape[1] == 0 or k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if query.shape[0] != index.matrix.shape[1]:
            raise ValueError(
                f"vector_search: query has {query.shape[0]} dimensions, namespace {namespace!r} holds "
                f"{index.matrix.shape[1]}"
            )
        scores = index.matrix @ (query / norm if norm else query)
        allowed = None if statuses is None else {str(s) for s in statuses}
        keep = np.fromiter(
            (
                (allowed is None or status in allowed) and _in_range(days, time_from, time_to)
                for status, days in zip(index.statuses, index.days, strict=True)
            ),
            dtype=bool,
            count=len(index.ids),
        )
        scores = np.where(keep, scores, -np.inf)
        top = np.argsort(-scores, kind="stable")[: min(k, int(keep.sum()))]
        return [ScoredId(id=index.ids[i], score=float(scores[i])) for i in top]

    def fulltext_search(
        self,
        namespace: str,
        query: str,
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[ScoredId]:
        terms = sorted(set(tokenize(query)))
        if not terms or k <= 0:
            return []
        # Every term is quoted as an FTS5 string, so user text can never become query syntax.
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        sql = (
            "SELECT e.id, e.data, bm25(events_fts) AS rank FROM events_fts "
            "JOIN events e ON e.rid = events_fts.rowid "
            "WHERE events_fts MATCH ? AND e.namespace = ?"
        )
        params: list[Any] = [match, namespace]
        if statuses is not None:
            sql += f" AND e.status IN ({self._placeholders(len(statuses))})"
            params += [str(s) for s in statuses]
        filtered = time_from is not None or time_to is not None
        limit = k * 20 if filtered else k
        rows = self._read(sql + " ORDER BY rank LIMIT ?", [*params, limit])
        hits: list[ScoredId] = []
        for event_id, data, rank in rows:
            if filtered and not _in_range(_event_days(Event.model_validate_json(data)), time_from, time_to):
                continue
            hits.append(ScoredId(id=event_id, score=-float(rank)))
            if len(hits) == k:
                break
        return hits

    def turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        terms = sorted(set(tokenize(query)))
        if not terms or k <= 0:
            return []
        # Every term is quoted as an FTS5 string, so user text can never become query syntax.
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        rows = self._read(
            "SELECT turn_id, bm25(turns_fts) AS rank FROM turns_fts "
            "WHERE turns_fts MATCH ? AND namespace = ? ORDER BY rank, turn_id LIMIT ?",
            [match, namespace, k],
        )
        return [ScoredId(id=turn_id, score=-float(rank)) for turn_id, rank in rows]

    def _alias_closure(self, namespace: str, entity_ids: Sequence[str]) -> set[str]:
        seen = set(entity_ids)
        frontier = list(entity_ids)
        while frontier:
            links = self.list_links(namespace, kinds=[LinkKind.ALIAS_OF], node_ids=frontier)
            frontier = [n for lk in links for n in (lk.source, lk.target) if n not in seen]
            seen.update(frontier)
        return seen

    def entity_events(
        self,
        namespace: str,
        entity_ids: Sequence[str],
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[Event]:
        if not entity_ids:
            return []
        entities = self._alias_closure(namespace, entity_ids)
        rows = self._read(
            f"SELECT DISTINCT source FROM links WHERE namespace = ? AND kind = ? "
            f"AND target IN ({self._placeholders(len(entities))})",
            [namespace, LinkKind.MENTIONS.value, *entities],
        )
        events = self.get_events(namespace, [r[0] for r in rows])
        allowed = None if statuses is None else {str(s) for s in statuses}
        kept = [
            e
            for e in events
            if (allowed is None or e.status in allowed) and _in_range(_event_days(e), time_from, time_to)
        ]
        return sorted(kept, key=lambda e: (e.time, e.id))

    def _graph(self, namespace: str) -> nx.MultiGraph:
        with self._lock:
            graph = self._graphs.get(namespace)
            if graph is None:
                graph = nx.MultiGraph()
                names = {e.id: e.name for e in self.list_entities(namespace)}
                for link in self.list_links(namespace, kinds=[*EVENT_LINKS, LinkKind.MENTIONS]):
                    if link.kind is LinkKind.MENTIONS:
                        graph.add_node(link.target, entity=names.get(link.target, link.target))
                    graph.add_edge(link.source, link.target, kind=link.kind.value)
                self._graphs[namespace] = graph
            return graph

    def expand(
        self,
        namespace: str,
        seed_ids: Sequence[str],
        *,
        hops: int = 2,
        kinds: Sequence[LinkKind] = (*EVENT_LINKS, LinkKind.MENTIONS),
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        limit: int = 50,
    ) -> list[Neighbor]:
        graph = self._graph(namespace)
        wanted = {LinkKind(k).value for k in kinds}
        via_entities = LinkKind.MENTIONS.value in wanted
        index = self._vector_index(namespace)
        allowed = None if statuses is None else {str(s) for s in statuses}

        def returnable(event_id: str) -> bool:
            row = index.rows.get(event_id)
            return row is not None and (allowed is None or index.statuses[row] in allowed)

        seeds = [s for s in dict.fromkeys(seed_ids) if s in graph]
        reached: list[Neighbor] = []
        # Breadth first, seeds in the caller's rank order: the walk meets the nearest events
        # first and stops at `limit` (a speaker mentioned everywhere would reach the whole log).
        queue: deque[tuple[str, str, int, list[str]]] = deque((s, s, 0, []) for s in seeds)
        visited = set(seeds)
        while queue and len(reached) < limit:
            node, seed, distance, path = queue.popleft()
            if distance >= hops:
                continue
            for step, neighbour in self._event_steps(graph, node, wanted, via_entities):
                if neighbour in visited:
                    continue
                visited.add(neighbour)
                hop = Neighbor(id=neighbour, seed=seed, distance=distance + 1, path=[*path, step])
                queue.append((neighbour, seed, distance + 1, hop.path))
                if returnable(neighbour):  # archived events are walked through, never returned
                    reached.append(hop)
                    if len(reached) == limit:
                        break
        return reached

    @staticmethod
    def _event_steps(graph: nx.MultiGraph, node: str, wanted: set[str], via_entities: bool):
        """One hop from an event: along an event link, or through an entity both events mention."""
        for neighbour, edges in sorted(graph.adj[node].items()):
            for data in edges.values():
                kind = data["kind"]
                if kind == LinkKind.MENTIONS.value:
                    if not via_entities:
                        continue
                    label = f"MENTIONS {graph.nodes[neighbour].get('entity', neighbour)}"
                    for other, other_edges in sorted(graph.adj[neighbour].items()):
                        if other != node and any(d["kind"] == kind for d in other_edges.values()):
                            yield label, other
                elif kind in wanted:
                    yield kind, neighbour

    # ---- maintenance ------------------------------------------------------------------------------
    def delete_events(self, namespace: str, ids: Sequence[str]) -> int:
        present = [e.id for e in self.get_events(namespace, ids)]
        if not present:
            return 0
        marks = self._placeholders(len(present))
        with self._transaction() as conn:
            rids = [
                r[0]
                for r in conn.execute(
                    f"SELECT rid FROM events WHERE namespace = ? AND id IN ({marks})", [namespace, *present]
                )
            ]
            conn.executemany("DELETE FROM events_fts WHERE rowid = ?", [(r,) for r in rids])
            conn.execute(f"DELETE FROM events WHERE namespace = ? AND id IN ({marks})", [namespace, *present])
            conn.execute(
                f"DELETE FROM links WHERE namespace = ? AND (source IN ({marks}) OR target IN ({marks}))",
                [namespace, *present, *present],
            )
            self._delete_orphans(conn, namespace)
        self._forget_caches(namespace)
        return len(present)

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

    def delete_topics(self, namespace: str, ids: Sequence[str]) -> None:
        with self._transaction() as conn:
            self._delete_nodes(conn, namespace, "topics", list(ids))

    def delete_entity(self, namespace: str, entity_id: str) -> int:
        mentions = self.list_links(namespace, kinds=[LinkKind.MENTIONS])
        by_event: dict[str, set[str]] = {}
        for link in mentions:
            by_event.setdefault(link.source, set()).add(link.target)
        only_this = [event for event, targets in by_event.items() if targets == {entity_id}]
        deleted = self.delete_events(namespace, only_this)
        with self._transaction() as conn:
            conn.execute("DELETE FROM entities WHERE namespace = ? AND id = ?", (namespace, entity_id))
            conn.execute(
                "DELETE FROM entity_names WHERE namespace = ? AND entity_id = ?", (namespace, entity_id)
            )
            conn.execute(
                "DELETE FROM links WHERE namespace = ? AND (source = ? OR target = ?)",
                (namespace, entity_id, entity_id),
            )
            self._delete_orphans(conn, namespace)
        self._forget_caches(namespace)
        return deleted

    def delete_namespace(self, namespace: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "DELETE FROM events_fts WHERE rowid IN (SELECT rid FROM events WHERE namespace = ?)",
                (namespace,),
            )
            conn.execute("DELETE FROM turns_fts WHERE namespace = ?", (namespace,))
            for table in ("turns", "events", "entities", "entity_names", "topics", "links"):
                conn.execute(f"DELETE FROM {table} WHERE namespace = ?", (namespace,))
        self._forget_caches(namespace)

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
        return {
            "store": self.kind,
            "path": self.path,
            "namespace": namespace,
            "namespaces": len(self.namespaces()) if namespace is None else 1,
            "turns": count("turns"),
            "events": count("events"),
            "entities": count("entities"),
            "topics": count("topics"),
            "relations": relations,
            "events_by_status": statuses,
        }

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
