"""The embedded store's schema: numbered migrations, applied in order and recorded in SQLite's
`PRAGMA user_version`, so a file says which of them it has and an open applies only the rest.

A file written before the version was recorded (user_version 0, tables present) may be in any shape
the earlier code left it, since that code added columns when it found them missing: its `AddColumn`
steps skip a column that is there already. Every other statement is idempotent (IF NOT EXISTS).
To change the schema, append a migration; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from simplemem_graph.stores.base import ENTITY_INDEX_LINKS


@dataclass(frozen=True)
class AddColumn:
    """`ALTER TABLE table ADD COLUMN column definition`."""

    table: str
    column: str
    definition: str

    def sql(self) -> str:
        return f"ALTER TABLE {self.table} ADD COLUMN {self.column} {self.definition}"


@dataclass(frozen=True)
class Migration:
    version: int
    purpose: str
    steps: tuple[str | AddColumn, ...]


def _statements(script: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in script.split(";") if s.strip())


_TABLES = """
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


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "the tables of the first release", _statements(_TABLES)),
    Migration(
        2,
        "vector slots and the pending queue",
        (
            AddColumn("events", "vslot", "INTEGER"),
            AddColumn("topics", "vslot", "INTEGER"),
            # Turns logged before the pending queue were consolidated when logged: they are done.
            AddColumn("turns", "agent", "TEXT"),
            AddColumn("turns", "state", "TEXT NOT NULL DEFAULT 'done'"),
            AddColumn("turns", "chunk", "TEXT"),
            # Why a turn was set aside (state 'failed'): its consolidation's error.
            AddColumn("turns", "failure", "TEXT"),
        ),
    ),
    Migration(
        3,
        "the indexes of vector slots, the pending queue, walks, sessions, open questions and tiers",
        _statements(
            """
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
        ),
    ),
    Migration(4, "the entity revision, moved on by triggers", tuple(_REVISION_TRIGGERS)),
)
LATEST = MIGRATIONS[-1].version


def user_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection) -> None:
    """Apply the migrations a file lacks, all in one immediate transaction (a crash leaves the file
    as it was; two processes opening the same old file at once do not race). A current file costs
    one PRAGMA read. A file from a newer version is left alone."""
    if user_version(conn) >= LATEST:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = user_version(conn)  # another process may have migrated meanwhile
        unversioned = current == 0 and _has_tables(conn)
        for migration in MIGRATIONS:
            if migration.version <= current:
                continue
            for step in migration.steps:
                if isinstance(step, AddColumn):
                    if unversioned and step.column in _columns(conn, step.table):
                        continue
                    conn.execute(step.sql())
                else:
                    conn.execute(step)
        conn.execute(f"PRAGMA user_version = {max(current, LATEST)}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _has_tables(conn: sqlite3.Connection) -> bool:
    return (
        conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone()
        is not None
    )


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
