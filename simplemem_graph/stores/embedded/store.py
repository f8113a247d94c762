"""`EmbeddedStore`: opening the file, migrating it, and the parts stacked into one store."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from simplemem_graph.errors import StoreUnavailableError
from simplemem_graph.models import Event, Topic
from simplemem_graph.stores.embedded import schema
from simplemem_graph.stores.embedded.coordination import Coordination
from simplemem_graph.stores.vector_index import VectorFile

# A second writer (another process) holds the write lock: wait this long before giving up.
_BUSY_TIMEOUT_MS = 60_000


class EmbeddedStore(Coordination):
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
            schema.migrate(self._conn)
            self._reindex_search_terms()
            self._backfill()
        except sqlite3.Error as e:
            raise StoreUnavailableError(f"embedded store: cannot open SQLite file {self.path!r}: {e}") from e

    def _backfill(self) -> None:
        """Fill in what a file written by an earlier version lacks, once: topic and event vector
        slots and the `event_days` rows (later opens find them complete and do nothing). The
        tables, columns and indexes are `schema.migrate`'s."""
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
