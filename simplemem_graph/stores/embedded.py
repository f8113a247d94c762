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
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from simplemem_graph.dates import event_days
from simplemem_graph.errors import InputError, StoreUnavailableError
from simplemem_graph.models import (
    DEFAULT_STATUSES,
    ENTITY_LINKS,
    EVENT_LINKS,
    Entity,
    Event,
    EventStatus,
    Feedback,
    GraphDelta,
    JobRun,
    Link,
    LinkKind,
    Neighbor,
    Pattern,
    ScoredId,
    Topic,
    Turn,
    TurnState,
)
from simplemem_graph.stores.base import (
    ENTITY_INDEX_LINKS,
    GraphStore,
    chunk_key,
    compression_counts,
    lease_holder_alive,
    storyline_rank,
)
from simplemem_graph.stores.vector_index import VectorFile, normalise, top_k
from simplemem_graph.text import SEARCH_TERMS_VERSION, query_terms, search_terms
from simplemem_graph.vectors import unit, unit_rows

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    namespace TEXT NOT NULL, id TEXT NOT NULL, session TEXT NOT NULL, speaker TEXT NOT NULL,
    time TEXT NOT NULL, ts REAL NOT NULL, text TEXT NOT NULL,
    agent TEXT, state TEXT NOT NULL DEFAULT 'done',
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
CREATE TABLE IF NOT EXISTS leases (
    namespace TEXT NOT NULL, name TEXT NOT NULL, holder TEXT NOT NULL, expires REAL NOT NULL,
    PRIMARY KEY (namespace, name)
);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, namespace TEXT NOT NULL, kind TEXT NOT NULL, started REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_by_start ON jobs (namespace, started);
CREATE TABLE IF NOT EXISTS event_days (
    namespace TEXT NOT NULL, day TEXT NOT NULL, rid INTEGER NOT NULL,
    PRIMARY KEY (namespace, day, rid)
);
CREATE INDEX IF NOT EXISTS event_days_by_rid ON event_days (rid);
CREATE TABLE IF NOT EXISTS vector_spaces (
    namespace TEXT PRIMARY KEY, dim INTEGER NOT NULL, slots INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS patterns (
    namespace TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE TABLE IF NOT EXISTS feedback (
    namespace TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (namespace, id)
);
CREATE INDEX IF NOT EXISTS feedback_by_time ON feedback (namespace, at, id);
CREATE TABLE IF NOT EXISTS entity_revisions (namespace TEXT PRIMARY KEY, rev INTEGER NOT NULL);
"""
# Every change to what EntityIndex.load reads (entities, ALIAS_OF / WORKS_AT / CANDIDATE_ALIAS
# links), by any writer through any path, moves the namespace's revision on: an index kept in
# memory between batches is known to be current exactly when the revision has not moved.
_INDEX_LINK_KINDS = ", ".join(f"'{kind.value}'" for kind in sorted(ENTITY_INDEX_LINKS))
_INDEX_LINKS_WHEN = "WHEN {row}.kind IN (" + _INDEX_LINK_KINDS + ")"
_REVISION_TRIGGERS = [
    f"""CREATE TRIGGER IF NOT EXISTS {table}_revise_{verb.lower()} AFTER {verb} ON {table}
    {when.format(row=row)}
    BEGIN
        INSERT INTO entity_revisions VALUES ({row}.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET rev = rev + 1;
    END"""
    for table, when in (
        ("entities", ""),
        ("links", _INDEX_LINKS_WHEN),
    )
    for verb, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD"))
]
# Added after the first release: files written before get them on open (see _migrate).
_ADDED_COLUMNS = {
    ("events", "vslot"): "ALTER TABLE events ADD COLUMN vslot INTEGER",
    ("topics", "vslot"): "ALTER TABLE topics ADD COLUMN vslot INTEGER",
    # Turns logged before the pending queue were consolidated when logged: they are done.
    ("turns", "agent"): "ALTER TABLE turns ADD COLUMN agent TEXT",
    ("turns", "state"): "ALTER TABLE turns ADD COLUMN state TEXT NOT NULL DEFAULT 'done'",
    ("turns", "chunk"): "ALTER TABLE turns ADD COLUMN chunk TEXT",
    # Why a turn was set aside (state 'failed'): its consolidation's error.
    ("turns", "failure"): "ALTER TABLE turns ADD COLUMN failure TEXT",
}
_ADDED_INDEXES = """
CREATE INDEX IF NOT EXISTS events_by_slot ON events (namespace, vslot);
CREATE INDEX IF NOT EXISTS turns_pending ON turns (namespace, state, chunk, ts);
CREATE INDEX IF NOT EXISTS topics_by_slot ON topics (namespace, vslot);
CREATE INDEX IF NOT EXISTS events_by_id_ts ON events (namespace, id, ts, rid);
CREATE INDEX IF NOT EXISTS links_by_kind_target ON links (namespace, kind, target, source);
CREATE INDEX IF NOT EXISTS events_by_session ON events (namespace, json_extract(data, '$.session'), ts);
CREATE INDEX IF NOT EXISTS events_open_questions ON events (namespace, ts)
    WHERE json_array_length(data, '$.open_slots') > 0;
CREATE INDEX IF NOT EXISTS events_by_tier
    ON events (namespace, json_extract(data, '$.tier'), status, vslot, id);
"""


# What the fulltext tables hold beyond `text.SEARCH_TERMS_VERSION`; a file written with another
# layout is re-indexed once when opened (`_reindex_search_terms`).
_FULLTEXT_LAYOUT = "namespace-prefixed terms"
_TERM_PIECE = re.compile(r"[^\W_]+")  # what FTS5's unicode61 tokeniser keeps together: letters, digits


def _namespace_key(namespace: str) -> str:
    """16 hex digits naming a namespace inside the fulltext tables (a hash: namespaces are any text)."""
    return hashlib.blake2b(namespace.encode("utf-8"), digest_size=8).hexdigest()


def _namespaced_pieces(key: str, term: str) -> str:
    """A search term as the FTS5 tokens it is stored as: each letter-and-digit piece ("qm-220" is
    "qm", "220", as unicode61 splits it) prefixed with the namespace key."""
    return " ".join(key + piece for piece in _TERM_PIECE.findall(term))


def _indexed_terms(namespace: str, text: str) -> str:
    """The fulltext tokens of a text in a namespace. Every term carries the namespace key, so the
    postings of one term are split by tenant: a query reads only its own namespace's postings
    (and term statistics), however big the other namespaces in the file are."""
    key = _namespace_key(namespace)
    return " ".join(filter(None, (_namespaced_pieces(key, term) for term in search_terms(text))))


def _match_expression(namespace: str, query: str) -> str:
    """The FTS5 MATCH expression of a query in a namespace: any of its terms, each a quoted phrase
    of its namespaced pieces. Pieces are letters and digits only, so user text never becomes query
    syntax. Empty when the query has no terms."""
    key = _namespace_key(namespace)
    phrases = sorted({_namespaced_pieces(key, term) for term in query_terms(query)} - {""})
    return " OR ".join(f'"{phrase}"' for phrase in phrases)


def _topic_space(namespace: str) -> str:
    """The vector space (a `vector_spaces` key) of a namespace's topic centroids."""
    return "\x00topics\x00" + namespace


# Event fields the fulltext, day and vector indexes are built from.
_INDEXED_FIELDS = frozenset({"text", "time", "dates", "deadline", "embedding", "namespace", "id"})
_EXPAND_SLICE = 16  # frontier events per SQL round of a walk
_VECTOR_FETCH = 64  # first over-fetch of the vector channel before the SQL filter; x8 per retry
# A tier of at most this many rows is scored alone (a gather, then a small product); a bigger one
# (a namespace not tiered yet: everything is hot) as the whole matrix, filtered in SQL.
_TIER_ROWS_SCORED_ALONE = 20_000

# A second writer (another process) holds the write lock: wait this long before giving up.
_BUSY_TIMEOUT_MS = 60_000


class EmbeddedStore(GraphStore):
    """The embedded store. `EmbeddedStore(":memory:")` for tests, a file path for real use."""

    kind = "embedded"

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        self._lock = threading.RLock()
        self._vector_files: dict[str, VectorFile] = {}
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(
                self.path, check_same_thread=False, isolation_level=None, timeout=_BUSY_TIMEOUT_MS / 1000
            )
            self._conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            # Freed pages and cells are zeroed, so text that was erased (`forget`), or that sat in
            # a page SQLite or FTS5 merged and freed, leaves no copy in the file.
            self._conn.execute("PRAGMA secure_delete=ON")
            self._create_schema()
            self._reindex_search_terms()
            self._migrate()
        except sqlite3.Error as e:
            raise StoreUnavailableError(f"embedded store: cannot open SQLite file {self.path!r}: {e}") from e

    def _create_schema(self) -> None:
        """Create what is missing (tables, columns added since the first release, indexes) in one
        immediate transaction, so two processes opening a new or old file at once do not race."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            for (table, column), ddl in _ADDED_COLUMNS.items():
                if column not in {r[1] for r in self._conn.execute(f"PRAGMA table_info({table})")}:
                    self._conn.execute(ddl)
            for statement in _ADDED_INDEXES.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            for statement in _REVISION_TRIGGERS:
                self._conn.execute(statement)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _reindex_search_terms(self) -> None:
        """Re-index both fulltext tables of a file written with other search terms (`text.
        search_terms`) or another layout of them (`_FULLTEXT_LAYOUT`), once, in one transaction: a
        crash leaves the old index and the old versions recorded, and the next open starts again.
        A new file only records the versions. (A file older than the turn index has neither.)"""
        if self._fulltext_current():
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            if not self._fulltext_current():  # another process may have re-indexed meanwhile
                self._conn.execute("DELETE FROM events_fts")
                events = self._conn.execute("SELECT rid, namespace, data FROM events")
                self._conn.executemany(
                    "INSERT INTO events_fts (rowid, tokens) VALUES (?, ?)",
                    (
                        (rid, _indexed_terms(namespace, json.loads(data)["text"]))
                        for rid, namespace, data in events
                    ),
                )
                self._conn.execute("DELETE FROM turns_fts")
                turns = self._conn.execute("SELECT namespace, id, text FROM turns")
                self._conn.executemany(
                    "INSERT INTO turns_fts (tokens, namespace, turn_id) VALUES (?, ?, ?)",
                    (
                        (_indexed_terms(namespace, text), namespace, turn_id)
                        for namespace, turn_id, text in turns
                    ),
                )
                # One bulk insert leaves many small segments (2.8x the merged size at 100k rows,
                # and slower queries): merge them into one, as incremental writes are by automerge.
                self._conn.execute("INSERT INTO events_fts (events_fts) VALUES ('optimize')")
                self._conn.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
                self._conn.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    [("search_terms", SEARCH_TERMS_VERSION), ("fulltext_layout", _FULLTEXT_LAYOUT)],
                )
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _fulltext_current(self) -> bool:
        recorded = dict(
            self._conn.execute("SELECT key, value FROM meta WHERE key IN ('search_terms', 'fulltext_layout')")
        )
        return recorded == {"search_terms": SEARCH_TERMS_VERSION, "fulltext_layout": _FULLTEXT_LAYOUT}

    def _migrate(self) -> None:
        """Bring a file written by an earlier version up to date, once: the `event_days` rows and
        the vector files (later opens find them complete and do nothing). Columns: `_create_schema`."""
        topics = self._conn.execute(
            "SELECT namespace, id, data FROM topics WHERE vslot IS NULL AND data LIKE '%\"centroid\":[%'"
        ).fetchall()
        if topics:
            self._conn.execute("BEGIN IMMEDIATE")
            for _namespace, _id, data in topics:
                self._write_topic(self._conn, Topic.model_validate_json(data))
            self._conn.execute("COMMIT")
        if not self._conn.execute("SELECT 1 FROM events LIMIT 1").fetchone():
            return
        if not self._conn.execute("SELECT 1 FROM event_days LIMIT 1").fetchone():
            self._conn.execute("BEGIN IMMEDIATE")
            for rid, data in self._conn.execute("SELECT rid, data FROM events").fetchall():
                self._write_days(self._conn, rid, Event.model_validate_json(data))
            self._conn.execute("COMMIT")
        unslotted = self._conn.execute(
            "SELECT DISTINCT namespace FROM events WHERE vslot IS NULL AND embedding IS NOT NULL"
        ).fetchall()
        for (namespace,) in unslotted:
            self._rebuild_vectors(namespace)

    def rebuild_vectors(self, namespace: str) -> int:
        """Re-create a namespace's vector file from the embeddings SQLite keeps (the source of
        truth): after the file was lost or to drop the holes left by deletes. Returns the rows."""
        with self._lock:
            return self._rebuild_vectors(namespace)

    def _rebuild_vectors(self, namespace: str) -> int:
        rows = self._conn.execute(
            "SELECT rid, embedding FROM events WHERE namespace = ? AND embedding IS NOT NULL ORDER BY rid",
            (namespace,),
        ).fetchall()
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute("UPDATE events SET vslot = NULL WHERE namespace = ?", (namespace,))
            self._conn.execute("DELETE FROM vector_spaces WHERE namespace = ?", (namespace,))
            self._drop_vector_files(namespace)
            for rid, blob in rows:
                slot = self._put_vector(self._conn, namespace, np.frombuffer(blob, dtype=np.float32))
                self._conn.execute("UPDATE events SET vslot = ? WHERE rid = ?", (slot, rid))
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        return len(rows)

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
        """Nothing to rebuild after a delete: holes in the vector file are skipped by SQL."""

    # ---- raw log --------------------------------------------------------------------------------
    def add_turns(self, turns: Sequence[Turn], *, pending: bool = True) -> list[Turn]:
        added: list[Turn] = []
        state = TurnState.PENDING if pending else TurnState.DONE
        chunk = chunk_key(turns)
        with self._transaction() as conn:
            for turn in turns:
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO turns (namespace, id, session, speaker, time, ts, text, agent, "
                    "state, chunk) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        turn.namespace,
                        turn.id,
                        turn.session,
                        turn.speaker,
                        turn.time.isoformat(),
                        turn.time.timestamp(),
                        turn.text,
                        turn.agent,
                        state.value,
                        chunk,
                    ),
                )
                if cursor.rowcount:
                    # Indexed only when first logged: turns are immutable, so re-adding is a no-op.
                    conn.execute(
                        "INSERT INTO turns_fts (tokens, namespace, turn_id) VALUES (?, ?, ?)",
                        (_indexed_terms(turn.namespace, turn.text), turn.namespace, turn.id),
                    )
                    added.append(turn)
        return added

    _TURN_COLUMNS = "id, session, speaker, time, text, agent"

    @staticmethod
    def _turn_from_row(namespace: str, r: tuple) -> Turn:
        return Turn(
            id=r[0],
            namespace=namespace,
            session=r[1],
            speaker=r[2],
            time=datetime.fromisoformat(r[3]),
            text=r[4],
            agent=r[5],
        )

    def get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        sql = f"SELECT {self._TURN_COLUMNS} FROM turns WHERE namespace = ? AND state != 'forgotten'"
        if ids is None:
            rows = self._read(sql + " ORDER BY ts, id", [namespace])
        else:
            rows = []
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                rows += self._read(f"{sql} AND id IN ({self._placeholders(len(chunk))})", [namespace, *chunk])
            rows.sort(key=lambda r: (datetime.fromisoformat(r[3]).timestamp(), r[0]))
        return [self._turn_from_row(namespace, r) for r in rows]

    def pending_turns(
        self, namespace: str, limit: int | None = None, *, ids: Sequence[str] | None = None
    ) -> list[Turn]:
        sql = f"SELECT {self._TURN_COLUMNS} FROM turns WHERE namespace = ? AND state = ?"
        params: list[Any] = [namespace, TurnState.PENDING.value]
        if ids is not None:
            if not ids:
                return []
            sql += f" AND id IN ({self._placeholders(len(ids))})"
            params += list(ids)
        rows = self._read(sql + " ORDER BY ts, id LIMIT ?", [*params, -1 if limit is None else limit])
        return [self._turn_from_row(namespace, r) for r in rows]

    def count_pending(self, namespace: str | None) -> int:
        if namespace is None:
            return self._read("SELECT COUNT(*) FROM turns WHERE state = ?", [TurnState.PENDING.value])[0][0]
        return self._read(
            "SELECT COUNT(*) FROM turns WHERE namespace = ? AND state = ?",
            [namespace, TurnState.PENDING.value],
        )[0][0]

    def pending_chunk(self, namespace: str) -> list[Turn]:
        with self._lock:
            row = self._conn.execute(
                "SELECT chunk FROM turns WHERE namespace = ? AND state = ? ORDER BY chunk LIMIT 1",
                (namespace, TurnState.PENDING.value),
            ).fetchone()
            if row is None:
                return []
            rows = self._conn.execute(
                f"SELECT {self._TURN_COLUMNS} FROM turns WHERE namespace = ? AND state = ? AND chunk IS ? "
                "ORDER BY ts, id",
                (namespace, TurnState.PENDING.value, row[0]),
            ).fetchall()
        return [self._turn_from_row(namespace, r) for r in rows]

    def session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
        if not sessions:
            return {}
        rows = self._read(
            f"SELECT session, speaker, MIN(ts) AS first FROM turns WHERE namespace = ? "
            f"AND state != 'forgotten' AND session IN "
            f"({self._placeholders(len(sessions))}) GROUP BY session, speaker "
            "ORDER BY session, first, speaker",
            [namespace, *sessions],
        )
        speakers: dict[str, list[str]] = {}
        for session, speaker, _ in rows:
            speakers.setdefault(session, []).append(speaker)
        return speakers

    def set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        with self._transaction() as conn:
            conn.executemany(
                "UPDATE turns SET state = ?, failure = ? WHERE namespace = ? AND id = ? AND state = ?",
                [
                    (TurnState.FAILED.value, error, namespace, turn_id, TurnState.PENDING.value)
                    for turn_id, error in failures.items()
                ],
            )

    def failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        sql = "SELECT namespace, id, coalesce(failure, '') FROM turns WHERE state = ?"
        params: list[Any] = [TurnState.FAILED.value]
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [*params, namespace]
        return [tuple(r) for r in self._read(sql + " ORDER BY namespace, ts, id", params)]

    def retry_turns(self, namespace: str) -> int:
        with self._transaction() as conn:
            return conn.execute(
                "UPDATE turns SET state = ?, failure = NULL WHERE namespace = ? AND state = ?",
                (TurnState.PENDING.value, namespace, TurnState.FAILED.value),
            ).rowcount

    def forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
        forgotten = 0
        with self._transaction() as conn:
            for start in range(0, len(ids), 400):
                chunk = list(ids[start : start + 400])
                marks = self._placeholders(len(chunk))
                conn.execute(
                    f"DELETE FROM turns_fts WHERE namespace = ? AND turn_id IN ({marks})", [namespace, *chunk]
                )
                # The row stays as a tombstone (id, session, time), so re-ingesting the same file
                # does not log the turn again and `rebuild` skips it; what was said is gone.
                forgotten += conn.execute(
                    f"UPDATE turns SET text = '', speaker = '', agent = NULL, failure = NULL, state = ? "
                    f"WHERE namespace = ? AND state != ? AND id IN ({marks})",
                    [TurnState.FORGOTTEN.value, namespace, TurnState.FORGOTTEN.value, *chunk],
                ).rowcount
        return forgotten

    def delete_patterns(self, namespace: str, ids: Sequence[str]) -> None:
        with self._transaction() as conn:
            self._delete_nodes(conn, namespace, "patterns", list(ids))

    def scrub(self) -> None:
        """After an erasure: merge the fulltext indexes (FTS5 keeps deleted terms in its segments
        until they are merged) and checkpoint the WAL into the file, truncating it, so no copy of
        the erased text is left in the WAL; freed pages were zeroed (secure_delete)."""
        with self._lock:
            self._conn.execute("INSERT INTO events_fts (events_fts) VALUES ('optimize')")
            self._conn.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # ---- events ---------------------------------------------------------------------------------
    def upsert_events(self, events: Sequence[Event]) -> None:
        if not events:
            return
        self._check_dimensions(events)
        with self._transaction() as conn:
            for event in events:
                self._write_event(conn, event)

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
            "SELECT rid, embedding, vslot FROM events WHERE namespace = ? AND id = ?",
            (event.namespace, event.id),
        ).fetchone()
        # An unchanged embedding keeps its row of the vector file; a new one gets the next slot
        # (rows are never overwritten, see vector_index.py).
        if row and row[1] == blob:
            slot = row[2]
        else:
            slot = None if blob is None else self._put_vector(conn, event.namespace, event.embedding)
        if row:
            conn.execute(
                "UPDATE events SET ts = ?, status = ?, data = ?, embedding = ?, vslot = ? WHERE rid = ?",
                (event.time.timestamp(), event.status, data, blob, slot, row[0]),
            )
            conn.execute("DELETE FROM events_fts WHERE rowid = ?", (row[0],))
            conn.execute("DELETE FROM event_days WHERE rid = ?", (row[0],))
            rid = row[0]
        else:
            rid = conn.execute(
                "INSERT INTO events (namespace, id, ts, status, data, embedding, vslot) "
                "VALUES (?,?,?,?,?,?,?)",
                (event.namespace, event.id, event.time.timestamp(), event.status, data, blob, slot),
            ).lastrowid
        conn.execute(
            "INSERT INTO events_fts (rowid, tokens) VALUES (?, ?)",
            (rid, _indexed_terms(event.namespace, event.text)),
        )
        self._write_days(conn, rid, event)

    @staticmethod
    def _write_days(conn: sqlite3.Connection, rid: int, event: Event) -> None:
        conn.executemany(
            "INSERT OR IGNORE INTO event_days VALUES (?,?,?)",
            [(event.namespace, d.isoformat(), rid) for d in event_days(event)],
        )

    def _drop_vector_files(self, namespace: str) -> None:
        vectors = self._vector_files.pop(namespace, None)
        if vectors is not None:
            vectors.remove()
        if self.path != ":memory:":
            VectorFile.remove_files(self.path, namespace)

    def _vector_file(self, namespace: str, dim: int) -> VectorFile:
        vectors = self._vector_files.get(namespace)
        if vectors is None or vectors.dim != dim:
            path = None if self.path == ":memory:" else VectorFile.file_for(self.path, namespace, dim)
            vectors = VectorFile(path, dim)
            self._vector_files[namespace] = vectors
        return vectors

    def _put_vector(self, conn: sqlite3.Connection, namespace: str, vector) -> int:
        """Append one normalised vector; its slot is allocated in the caller's transaction."""
        values = normalise(vector)
        space = conn.execute(
            "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
        ).fetchone()
        if space is None:
            space = (values.shape[0], 0)
            conn.execute("INSERT INTO vector_spaces VALUES (?, ?, 0)", (namespace, values.shape[0]))
        dim, slot = space
        if dim != values.shape[0]:
            # Only reachable when the one event that held the old size is re-embedded with another
            # model (_check_dimensions refuses mixing): the namespace starts a new vector file.
            dim, slot = values.shape[0], 0
            conn.execute("UPDATE vector_spaces SET dim = ?, slots = 0 WHERE namespace = ?", (dim, namespace))
        conn.execute("UPDATE vector_spaces SET slots = slots + 1 WHERE namespace = ?", (namespace,))
        self._vector_file(namespace, dim).write(slot, values)
        return slot

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
        embeddings: bool = True,
    ) -> list[Event]:
        blob = "embedding" if embeddings else "NULL"
        if time_from is None and time_to is None:
            where, params = self._event_filter(namespace, statuses, None, None)
            rows = self._read(f"SELECT data, {blob} FROM events e WHERE {where} ORDER BY ts, id", params)
            return [self._event_from_row(d, b) for d, b in rows]
        # A date range is read from the day index first: SQLite would otherwise walk every event of
        # the namespace in time order, testing each against the range's rows (O(namespace)).
        day_sql = "SELECT DISTINCT rid FROM event_days WHERE namespace = ?"
        day_params: list[Any] = [namespace]
        if time_from is not None:
            day_sql, day_params = day_sql + " AND day >= ?", [*day_params, time_from.isoformat()]
        if time_to is not None:
            day_sql, day_params = day_sql + " AND day <= ?", [*day_params, time_to.isoformat()]
        rids = [r[0] for r in self._read(day_sql, day_params)]
        where, params = self._event_filter(namespace, statuses, None, None)
        found = []
        for start in range(0, len(rids), 500):
            chunk = rids[start : start + 500]
            found += self._read(
                f"SELECT data, {blob}, ts, id FROM events e WHERE {where} "
                f"AND e.rid IN ({self._placeholders(len(chunk))})",
                [*params, *chunk],
            )
        found.sort(key=lambda row: (row[2], row[3]))
        return [self._event_from_row(d, b) for d, b, _, _ in found]

    def event_vectors(
        self, namespace: str, *, statuses: Sequence[str] | None = None
    ) -> tuple[list[str], np.ndarray]:
        # The rows of the vector file (already unit length), gathered by slot: no blob is parsed.
        where, params = self._event_filter(namespace, statuses, None, None)
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
            ).fetchone()
            rows = self._conn.execute(
                f"SELECT e.id, e.vslot FROM events e WHERE {where} AND e.vslot IS NOT NULL ORDER BY ts, id",
                params,
            ).fetchall()
            if space is None or not rows:
                return [], np.zeros((0, 0), dtype=np.float32)
            slots = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
            matrix = np.array(self._vector_file(namespace, space[0]).matrix(space[1])[slots])
        return [r[0] for r in rows], matrix

    def _event_filter(
        self,
        namespace: str,
        statuses: Sequence[str] | None,
        time_from: date | None,
        time_to: date | None,
        alias: str = "e",
    ) -> tuple[str, list[Any]]:
        """The SQL condition (on events aliased `alias`) for namespace, statuses and a date range.

        The range goes through the `event_days` index: only the events of those days are read.
        """
        sql = f"{alias}.namespace = ?"
        params: list[Any] = [namespace]
        if statuses is not None:
            sql += f" AND {alias}.status IN ({self._placeholders(len(statuses))})"
            params += [str(s) for s in statuses]
        if time_from is not None or time_to is not None:
            sql += f" AND {alias}.rid IN (SELECT d.rid FROM event_days d WHERE d.namespace = ?"
            params.append(namespace)
            if time_from is not None:
                sql += " AND d.day >= ?"
                params.append(time_from.isoformat())
            if time_to is not None:
                sql += " AND d.day <= ?"
                params.append(time_to.isoformat())
            sql += ")"
        return sql, params

    def update_events(self, namespace: str, ids: Sequence[str], fields: dict[str, Any]) -> None:
        with self._transaction() as conn:
            self._patch_events(conn, namespace, ids, fields)

    def _patch_events(
        self, conn: sqlite3.Connection, namespace: str, ids: Sequence[str], fields: dict[str, Any]
    ) -> list[Event]:
        """Read, change and rewrite events inside the caller's transaction.

        Status, tier, importance...: only the stored fields change, not the text, dates or vector,
        so the fulltext, day and vector indexes are left as they are (the global pass moves whole
        tiers at once) and the returned events carry no embedding; a change of an indexed field
        rewrites the event with its indexes."""
        updated = []
        reindex = bool(set(fields) & _INDEXED_FIELDS)
        vector_column = "embedding" if reindex else "NULL"  # only `data` is rewritten: no vector read
        for start in range(0, len(ids), 500):
            chunk = list(ids[start : start + 500])
            marks = self._placeholders(len(chunk))
            rows = conn.execute(
                f"SELECT data, {vector_column} FROM events WHERE namespace = ? AND id IN ({marks})",
                [namespace, *chunk],
            ).fetchall()
            for data, blob in rows:
                event = self._event_from_row(data, blob)
                try:
                    changed = Event.model_validate({**event.model_dump(), **fields})
                except ValueError as e:
                    raise InputError(f"embedded store: cannot set {sorted(fields)} on events: {e}") from e
                updated.append(changed)
        if reindex:
            for event in updated:
                self._write_event(conn, event)
        else:
            conn.executemany(
                "UPDATE events SET status = ?, data = ? WHERE namespace = ? AND id = ?",
                [(e.status, e.model_dump_json(exclude={"embedding"}), namespace, e.id) for e in updated],
            )
        return updated

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

    def list_entities(self, namespace: str) -> list[Entity]:
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

    def find_entities(self, namespace: str, name: str) -> list[Entity]:
        rows = self._read(
            "SELECT entity_id FROM entity_names WHERE namespace = ? AND name = ?",
            [namespace, name.casefold()],
        )
        return self._entities_by_id(namespace, sorted({r[0] for r in rows}))

    def upsert_topics(self, topics: Sequence[Topic]) -> None:
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

    def list_topics(self, namespace: str, *, centroids: bool = True) -> list[Topic]:
        data = "data" if centroids else "json_remove(data, '$.centroid')"  # not parsed, not kept
        rows = self._read(f"SELECT {data} FROM topics WHERE namespace = ? ORDER BY id", [namespace])
        return [Topic.model_validate_json(r[0]) for r in rows]

    # ---- links ----------------------------------------------------------------------------------
    def add_links(self, links: Sequence[Link]) -> None:
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

    def remove_links(self, links: Sequence[Link]) -> None:
        if not links:
            return
        with self._transaction() as conn:
            self._delete_links(conn, links)

    @staticmethod
    def _delete_links(conn: sqlite3.Connection, links: Sequence[Link]) -> None:
        conn.executemany(
            "DELETE FROM links WHERE namespace = ? AND kind = ? AND source = ? AND target = ?",
            [(lk.namespace, lk.kind.value, lk.source, lk.target) for lk in links],
        )

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
    def vector_search(
        self,
        namespace: str,
        vector: Sequence[float],
        k: int,
        *,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
        tier: str | None = None,
    ) -> list[ScoredId]:
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (namespace,)
            ).fetchone()
            if space is None or k <= 0:
                return []
            dim, slots = space
            query = np.asarray(vector, dtype=np.float32)
            if query.shape[0] != dim:
                raise ValueError(
                    f"vector_search: query has {query.shape[0]} dimensions, "
                    f"namespace {namespace!r} holds {dim}"
                )
            query = normalise(query)
            matrix = self._vector_file(namespace, dim).matrix(slots)
            where, params = self._event_filter(namespace, statuses, time_from, time_to)
            dated = time_from is not None or time_to is not None
            if tier is not None:
                where += " AND json_extract(e.data, '$.tier') = ?"  # the events_by_tier index
                params.append(tier)
            if dated or (tier is not None and self._tier_is_small(namespace, tier)):
                # A date range is usually narrow, the hot tier a few thousand rows: score only the
                # rows SQL finds in them.
                rows = self._conn.execute(
                    f"SELECT e.vslot, e.id FROM events e WHERE {where} AND e.vslot IS NOT NULL", params
                ).fetchall()
                if not rows:
                    return []
                slots_in = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
                scores = matrix[slots_in] @ query
                best = top_k(scores, min(k, len(rows)))
                return [ScoredId(id=rows[i][1], score=float(scores[i])) for i in best]
            scores = matrix @ query
            return self._best_admitted(scores, k, where, params)

    def _tier_is_small(self, namespace: str, tier: str) -> bool:
        """Whether a tier is small enough to score its rows alone (counted in the index, up to the
        bound): a namespace no global pass has tiered yet is hot from end to end, and is better
        scored as one matrix product, filtered in SQL."""
        counted = self._conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM events WHERE namespace = ? "
            "AND json_extract(data, '$.tier') = ? LIMIT ?)",
            (namespace, tier, _TIER_ROWS_SCORED_ALONE + 1),
        ).fetchone()[0]
        return counted <= _TIER_ROWS_SCORED_ALONE

    def _best_admitted(self, scores: np.ndarray, k: int, where: str, params: list[Any]) -> list[ScoredId]:
        """The k best slots whose event passes the SQL filter: over-fetch the best scores, keep
        those SQL admits (holes and filtered statuses drop out), widen until k or nothing is left."""
        hits: dict[int, str] = {}
        fetch, checked = max(_VECTOR_FETCH, 4 * k), 0
        order = top_k(scores, min(fetch, scores.shape[0]))
        while True:
            batch = [int(i) for i in order[checked:]]
            for start in range(0, len(batch), 900):
                chunk = batch[start : start + 900]
                rows = self._conn.execute(
                    f"SELECT e.vslot, e.id FROM events e WHERE {where} "
                    f"AND e.vslot IN ({self._placeholders(len(chunk))})",
                    [*params, *chunk],
                ).fetchall()
                hits.update(rows)
            checked = len(order)
            if len(hits) >= k or checked >= scores.shape[0]:
                break
            fetch *= 8
            order = top_k(scores, min(fetch, scores.shape[0]))
        best = sorted(hits, key=lambda slot: (-scores[slot], slot))[:k]
        return [ScoredId(id=hits[slot], score=float(scores[slot])) for slot in best]

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
        match = _match_expression(namespace, query)
        if not match or k <= 0:
            return []
        where, params = self._event_filter(namespace, statuses, time_from, time_to)
        rows = self._read(
            "SELECT e.id, bm25(events_fts) AS rank FROM events_fts "
            f"JOIN events e ON e.rid = events_fts.rowid WHERE events_fts MATCH ? AND {where} "
            "ORDER BY rank LIMIT ?",
            [match, *params, k],
        )
        return [ScoredId(id=event_id, score=-float(rank)) for event_id, rank in rows]

    def turn_search(self, namespace: str, query: str, k: int) -> list[ScoredId]:
        match = _match_expression(namespace, query)
        if not match or k <= 0:
            return []
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
        where = self._event_filter(namespace, statuses, time_from, time_to)
        rows = self._storyline_rows(namespace, entity_ids, "e.data, e.embedding, e.ts, e.id", where)
        return [self._event_from_row(r[0], r[1]) for r in sorted(rows, key=lambda r: (r[2], r[3]))]

    def _storyline_rows(
        self, namespace: str, entity_ids: Sequence[str], columns: str, where: tuple[str, list[Any]]
    ) -> list[tuple]:
        """`columns` of the events that MENTION the entities or their aliases and pass `where`
        (an `_event_filter`), each once."""
        entities = sorted(self._alias_closure(namespace, entity_ids))
        # CROSS JOIN keeps SQLite's join order: from the entity's MENTIONS links to its events,
        # never a scan of the namespace's events testing each against the links.
        return self._read(
            f"SELECT DISTINCT {columns} FROM links l CROSS JOIN events e "
            "ON e.namespace = l.namespace AND e.id = l.source "
            f"WHERE l.namespace = ? AND l.kind = ? AND l.target IN ({self._placeholders(len(entities))}) "
            f"AND {where[0]}",
            [namespace, LinkKind.MENTIONS.value, *entities, *where[1]],
        )

    def entity_recall(
        self,
        namespace: str,
        groups: Sequence[Sequence[str]],
        vector: Sequence[float] | np.ndarray,
        *,
        limit: int,
        statuses: Sequence[str] | None = DEFAULT_STATUSES,
        time_from: date | None = None,
        time_to: date | None = None,
    ) -> list[tuple[Event, list[int]]]:
        # Ranks on ids, times and raw vectors; only the kept `limit` events are parsed.
        where = self._event_filter(namespace, statuses, time_from, time_to)
        named_by: dict[str, list[int]] = {}
        found: dict[str, tuple[float, bytes | None]] = {}
        for group, entity_ids in enumerate(groups):
            if not entity_ids:
                continue
            for event_id, ts, blob in self._storyline_rows(
                namespace, entity_ids, "e.id, e.ts, e.embedding", where
            ):
                found[event_id] = (ts, blob)
                named_by.setdefault(event_id, []).append(group)
        ids = list(found)
        similarity = np.zeros(len(ids), dtype=np.float32)
        query = unit(vector)
        with_vector = [i for i, event_id in enumerate(ids) if found[event_id][1] is not None]
        if query is not None and with_vector:
            rows = np.frombuffer(b"".join(found[ids[i]][1] for i in with_vector), dtype=np.float32)
            similarity[with_vector] = unit_rows(rows.reshape(len(with_vector), -1)) @ query
        ranked = storyline_rank(
            (event_id, found[event_id][0], len(named_by[event_id]), float(similarity[i]))
            for i, event_id in enumerate(ids)
        )[:limit]
        events = {e.id: e for e in self.get_events(namespace, ranked)}
        return [(events[event_id], named_by[event_id]) for event_id in ranked if event_id in events]

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
        wanted = [k.value for k in EVENT_LINKS if k.value in {LinkKind(x).value for x in kinds}]
        via_entities = LinkKind.MENTIONS in {LinkKind(x) for x in kinds}
        allowed = None if statuses is None else {str(s) for s in statuses}
        seeds = list(dict.fromkeys(seed_ids))
        reached: list[Neighbor] = []
        visited = set(seeds)
        # Breadth first, one round of indexed SQL per hop, seeds in the caller's rank order: the
        # walk meets the nearest events first and stops at `limit` (a speaker mentioned everywhere
        # would reach the whole log).
        frontier = [(s, s, list[str]()) for s in seeds]
        for distance in range(1, hops + 1):
            next_frontier = []
            # The frontier is read in slices, in walk order, so the walk stops reading once it has
            # `limit` events: a hop through a speaker's 50k mentions reads a few dozen of them.
            for start in range(0, len(frontier), _EXPAND_SLICE):
                part = frontier[start : start + _EXPAND_SLICE]
                cap = 2 * (limit - len(reached)) + len(visited)
                steps = self._steps(namespace, [f[0] for f in part], wanted, via_entities, cap)
                statuses_of = self._statuses_of(namespace, {t for ss in steps.values() for _, _, t in ss})
                for node, seed, path in part:
                    for _key, step, target in steps.get(node, ()):
                        if target in visited:
                            continue
                        visited.add(target)
                        hop = Neighbor(id=target, seed=seed, distance=distance, path=[*path, step])
                        next_frontier.append((target, seed, hop.path))
                        status = statuses_of.get(target)
                        # archived events are walked through, never returned; nor are links to nothing
                        if status is not None and (allowed is None or status in allowed):
                            reached.append(hop)
                            if len(reached) == limit:
                                return reached
            frontier = next_frontier
        return reached

    def _steps(
        self, namespace: str, nodes: list[str], kinds: list[str], via_entities: bool, cap: int
    ) -> dict[str, list[tuple[str, str, str]]]:
        """One hop from each node: (neighbour key, step label, event reached), in walk order.

        Event links count in either direction; through an entity, only the `cap` first
        co-mentioning events (by id) per entity are read, so a hub costs no more than the walk
        can use.
        """
        steps: dict[str, list[tuple[str, str, str]]] = {}
        for start in range(0, len(nodes), 400):
            chunk = nodes[start : start + 400]
            marks = self._placeholders(len(chunk))
            if kinds:
                kind_marks = self._placeholders(len(kinds))
                rows = self._read(
                    f"SELECT source, target, kind FROM links WHERE namespace = ? AND kind IN ({kind_marks}) "
                    f"AND source IN ({marks}) UNION ALL "
                    f"SELECT target, source, kind FROM links WHERE namespace = ? AND kind IN ({kind_marks}) "
                    f"AND target IN ({marks})",
                    [namespace, *kinds, *chunk, namespace, *kinds, *chunk],
                )
                for node, other, kind in rows:
                    steps.setdefault(node, []).append((other, kind, other))
            if via_entities:
                mentions = self._read(
                    "SELECT source, target FROM links WHERE namespace = ? AND kind = ? "
                    f"AND source IN ({marks})",
                    [namespace, LinkKind.MENTIONS.value, *chunk],
                )
                entities = sorted({target for _, target in mentions})
                names = {e.id: e.name for e in self._entities_by_id(namespace, entities)}
                # Per entity, its first co-mentioning events by id: an index range scan of
                # links_by_kind_target that stops after `cap + slice` rows, however big the hub.
                others = {
                    entity: [
                        r[0]
                        for r in self._read(
                            "SELECT source FROM links WHERE namespace = ? AND kind = ? AND target = ? "
                            "ORDER BY source LIMIT ?",
                            [namespace, LinkKind.MENTIONS.value, entity, cap + len(chunk)],
                        )
                    ]
                    for entity in entities
                }
                for node, entity in mentions:
                    label = f"MENTIONS {names.get(entity, entity)}"
                    steps.setdefault(node, []).extend(
                        (entity, label, other) for other in others[entity] if other != node
                    )
        for node_steps in steps.values():
            node_steps.sort(key=lambda s: (s[0], s[2]))
        return steps

    def _statuses_of(self, namespace: str, ids: set[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        ordered = sorted(ids)
        for start in range(0, len(ordered), 900):
            chunk = ordered[start : start + 900]
            marks = self._placeholders(len(chunk))
            sql = f"SELECT id, status FROM events WHERE namespace = ? AND id IN ({marks})"
            found.update(self._read(sql, [namespace, *chunk]))
        return found

    # ---- batched reads ----------------------------------------------------------------------------
    def find_entities_many(self, namespace: str, names: Sequence[str]) -> dict[str, list[Entity]]:
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

    def entities_named_from(self, namespace: str, firsts: Sequence[str]) -> list[Entity]:
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

    def session_events(
        self, namespace: str, sessions: Sequence[str], *, since: date | None = None, limit: int = 200
    ) -> list[Event]:
        # ts is UTC: a day of slack, then the exact test on the event's own date.
        floor = (
            datetime(since.year, since.month, since.day, tzinfo=UTC).timestamp() - 86400 if since else None
        )
        events: list[Event] = []
        for session in dict.fromkeys(sessions):
            sql = (
                "SELECT data, embedding FROM events WHERE namespace = ? "
                "AND json_extract(data, '$.session') = ?"
            )
            params: list[Any] = [namespace, session]
            if floor is not None:
                sql += " AND ts >= ?"
                params.append(floor)
            rows = self._read(sql + " ORDER BY ts DESC, id DESC LIMIT ?", [*params, limit])
            events += [self._event_from_row(d, b) for d, b in rows]
        events = [e for e in events if since is None or e.time.date() >= since]
        return sorted(events, key=lambda e: (e.time, e.id))

    def recent_entity_events(
        self, namespace: str, entity_ids: Sequence[str], *, limit: int = 200
    ) -> dict[str, list[Event]]:
        found: dict[str, list[Event]] = {}
        for entity in dict.fromkeys(entity_ids):
            targets = sorted(self._alias_closure(namespace, [entity]))
            marks = self._placeholders(len(targets))
            # The newest first through a covering index (no event row is read before the cut), so
            # the tail of a speaker mentioned by every event costs its index entries, not its rows.
            rows = self._read(
                "SELECT DISTINCT e.rid, e.ts, e.id FROM links l "
                "CROSS JOIN events e INDEXED BY events_by_id_ts "
                "ON e.namespace = l.namespace AND e.id = l.source "
                f"WHERE l.namespace = ? AND l.kind = ? AND l.target IN ({marks}) "
                "ORDER BY e.ts DESC, e.id DESC LIMIT ?",
                [namespace, LinkKind.MENTIONS.value, *targets, limit],
            )
            rids = [r[0] for r in reversed(rows)]
            data: dict[int, tuple[str, bytes | None]] = {}
            if rids:
                sql = (
                    f"SELECT rid, data, embedding FROM events WHERE rid IN ({self._placeholders(len(rids))})"
                )
                data = {r[0]: (r[1], r[2]) for r in self._read(sql, rids)}
            found[entity] = [self._event_from_row(*data[rid]) for rid in rids]
        return found

    def session_chains(
        self, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
    ) -> dict[str, list[Event]]:
        near, far = ("source", "target") if forward else ("target", "source")
        chains: dict[str, list[str]] = {}
        for start in dict.fromkeys(event_ids):
            rows = self._read(
                f"WITH RECURSIVE chain(id, depth) AS (SELECT ?, 0 UNION ALL SELECT l.{far}, c.depth + 1 "
                f"FROM chain c JOIN links l ON l.namespace = ? AND l.kind = ? AND l.{near} = c.id "
                "AND json_extract(l.props, '$.scope') LIKE 'session:%' WHERE c.depth < ?) "
                "SELECT id FROM chain WHERE depth > 0 ORDER BY depth LIMIT ?",
                [start, namespace, LinkKind.NEXT.value, steps, steps],
            )
            chains[start] = [r[0] for r in rows]
        events = {
            e.id: e for e in self.get_events(namespace, sorted({i for c in chains.values() for i in c}))
        }
        result: dict[str, list[Event]] = {}
        for start, ids in chains.items():
            chain = []
            for event_id in ids:  # a missing event ends the chain, as walking link by link would
                if event_id not in events:
                    break
                chain.append(events[event_id])
            result[start] = chain
        return result

    def nearest_topics(self, namespace: str, vectors: Sequence[Sequence[float]], k: int) -> list[Topic]:
        space_key = _topic_space(namespace)
        with self._lock:
            space = self._conn.execute(
                "SELECT dim, slots FROM vector_spaces WHERE namespace = ?", (space_key,)
            ).fetchone()
            if space is None or not len(vectors) or k <= 0:
                return []
            queries = np.stack([normalise(v) for v in vectors])
            if queries.shape[1] != space[0]:
                return []
            scores = queries @ self._vector_file(space_key, space[0]).matrix(space[1]).T
        # Over-fetch: slots of deleted topics are holes that the SQL below drops.
        fetch = min(2 * k + 4, scores.shape[1])
        ranked = [[int(j) for j in top_k(row, fetch)] for row in scores]
        slots = sorted({j for row in ranked for j in row})
        marks = self._placeholders(len(slots))
        rows = self._read(
            f"SELECT vslot, data FROM topics WHERE namespace = ? AND vslot IN ({marks})", [namespace, *slots]
        )
        live = {slot: Topic.model_validate_json(data) for slot, data in rows}
        keep = {j for row in ranked for j in [j for j in row if j in live][:k]}
        return [live[j] for j in sorted(keep)]

    # ---- memory above the event (issue 14) ------------------------------------------------------
    def open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        # The condition repeats the partial index's own, so SQLite reads only events with open slots.
        rows = self._read(
            "SELECT data, embedding FROM events WHERE namespace = ? AND status = ? "
            "AND json_array_length(data, '$.open_slots') > 0 ORDER BY ts DESC, id LIMIT ?",
            [namespace, EventStatus.ACTIVE.value, -1 if limit is None else limit],
        )
        return [self._event_from_row(d, b) for d, b in rows]

    def upsert_patterns(self, patterns: Sequence[Pattern]) -> None:
        if patterns:
            with self._transaction() as conn:
                self._write_patterns(conn, patterns)

    @staticmethod
    def _write_patterns(conn: sqlite3.Connection, patterns: Sequence[Pattern]) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO patterns (namespace, id, status, data) VALUES (?,?,?,?)",
            [(p.namespace, p.id, p.status, p.model_dump_json()) for p in patterns],
        )

    def list_patterns(self, namespace: str, *, statuses: Sequence[str] | None = None) -> list[Pattern]:
        sql, params = "SELECT data FROM patterns WHERE namespace = ?", [namespace]
        if statuses is not None:
            sql += f" AND status IN ({self._placeholders(len(statuses))})"
            params += [str(s) for s in statuses]
        return [Pattern.model_validate_json(r[0]) for r in self._read(sql + " ORDER BY id", params)]

    # ---- atomic writes, leases, job log -----------------------------------------------------------
    def entity_revision(self, namespace: str) -> int | None:
        return self._entity_revision(self._conn, namespace)

    @staticmethod
    def _entity_revision(conn: sqlite3.Connection, namespace: str) -> int:
        row = conn.execute("SELECT rev FROM entity_revisions WHERE namespace = ?", (namespace,)).fetchone()
        return row[0] if row else 0

    def apply_delta(self, delta: GraphDelta) -> int | None:
        self._check_dimensions(delta.events)
        namespace = delta.namespace
        with self._transaction() as conn:
            # Under the write lock: did anyone change the entities since the delta was computed?
            unchanged = delta.entity_revision == self._entity_revision(conn, namespace)
            self._delete_links(conn, delta.removed_links)
            for event in delta.events:
                self._write_event(conn, event)
            self._write_entities(conn, delta.entities)
            for topic in delta.topics:
                self._write_topic(conn, topic)
            self._write_links(conn, delta.links)
            for patch in delta.event_patches:
                self._patch_events(conn, namespace, patch.ids, patch.fields)
            self._write_patterns(conn, delta.patterns)
            for start in range(0, len(delta.turns_done), 500):
                chunk = delta.turns_done[start : start + 500]
                marks = self._placeholders(len(chunk))
                conn.execute(
                    f"UPDATE turns SET state = ? WHERE namespace = ? AND id IN ({marks})",
                    [TurnState.DONE.value, namespace, *chunk],
                )
            return self._entity_revision(conn, namespace) if unchanged else None

    def acquire_lease(self, namespace: str, name: str, holder: str, ttl_s: float) -> bool:
        now = datetime.now().timestamp()
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT holder, expires FROM leases WHERE namespace = ? AND name = ?", (namespace, name)
            ).fetchone()
            if row and row[0] != holder and row[1] > now and lease_holder_alive(row[0]):
                return False
            conn.execute(
                "INSERT OR REPLACE INTO leases VALUES (?,?,?,?)", (namespace, name, holder, now + ttl_s)
            )
            return True

    def release_lease(self, namespace: str, name: str, holder: str) -> None:
        with self._transaction() as conn:
            conn.execute(
                "DELETE FROM leases WHERE namespace = ? AND name = ? AND holder = ?",
                (namespace, name, holder),
            )

    def record_job(self, run: JobRun) -> None:
        with self._transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO jobs VALUES (?,?,?,?,?)",
                (run.id, run.namespace, run.kind, run.started.timestamp(), run.model_dump_json()),
            )

    def list_jobs(
        self, namespace: str | None = None, *, kind: str | None = None, limit: int = 50
    ) -> list[JobRun]:
        sql, params = "SELECT data FROM jobs WHERE 1 = 1", []
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [*params, namespace]
        if kind is not None:
            sql, params = sql + " AND kind = ?", [*params, kind]
        rows = self._read(sql + " ORDER BY started DESC, id DESC LIMIT ?", [*params, limit])
        return [JobRun.model_validate_json(r[0]) for r in rows]

    # ---- maintenance ------------------------------------------------------------------------------
    def delete_events(self, namespace: str, ids: Sequence[str]) -> int:
        present = [e.id for e in self.get_events(namespace, ids)]
        if not present:
            return 0
        marks = self._placeholders(len(present))
        with self._transaction() as conn:
            rows = conn.execute(
                f"SELECT rid, vslot, length(embedding) FROM events WHERE namespace = ? AND id IN ({marks})",
                [namespace, *present],
            ).fetchall()
            rids = [r[0] for r in rows]
            conn.executemany("DELETE FROM events_fts WHERE rowid = ?", [(r,) for r in rids])
            conn.executemany("DELETE FROM event_days WHERE rid = ?", [(r,) for r in rids])
            conn.execute(f"DELETE FROM events WHERE namespace = ? AND id IN ({marks})", [namespace, *present])
            conn.execute(
                f"DELETE FROM links WHERE namespace = ? AND (source IN ({marks}) OR target IN ({marks}))",
                [namespace, *present, *present],
            )
            self._delete_orphans(conn, namespace)
        # A deleted event's row of the vector file is a hole searches skip; once the delete is
        # committed, zero it too, so a forgotten memory leaves no vector behind.
        for _, slot, size in rows:
            if slot is not None and size:
                self._vector_file(namespace, size // 4).write(slot, np.zeros(size // 4, np.float32))
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
            tables = ("turns", "events", "event_days", "entities", "entity_names", "topics", "links")
            tables += ("patterns", "feedback")
            for table in (*tables, "vector_spaces", "leases", "jobs"):
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
            "pending": self.count_pending(namespace),
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

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # ---- labelled searches and per-namespace reranker weights (issue 10) ----------------------------
    def add_feedback(self, feedback: Feedback) -> None:
        ids = list(dict.fromkeys([*feedback.helpful, *(feedback.shown or [])]))
        with self._transaction() as conn:
            known = {
                row[0]
                for start in range(0, len(ids), 500)
                for row in conn.execute(
                    f"SELECT id FROM events WHERE namespace = ? AND id IN "
                    f"({self._placeholders(len(ids[start : start + 500]))})",
                    [feedback.namespace, *ids[start : start + 500]],
                )
            }
            missing = [i for i in ids if i not in known]
            if missing:
                # Raised inside the transaction: it rolls back, nothing of this feedback is kept.
                raise InputError(
                    f"feedback: unknown event ids in namespace {feedback.namespace!r}: {missing}"
                )
            conn.execute(
                "INSERT OR REPLACE INTO feedback VALUES (?,?,?,?)",
                (feedback.namespace, feedback.id, feedback.at.timestamp(), feedback.model_dump_json()),
            )

    def list_feedback(self, namespace: str) -> list[Feedback]:
        rows = self._read("SELECT data FROM feedback WHERE namespace = ? ORDER BY at, id", (namespace,))
        return [Feedback.model_validate_json(r[0]) for r in rows]

    def delete_meta(self, key: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (key,))
