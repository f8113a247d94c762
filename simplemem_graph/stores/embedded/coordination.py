"""Coordination: atomic deltas, the entity revision, leases, the job log, meta keys and feedback."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from simplemem_graph.errors import InputError
from simplemem_graph.models import Feedback, GraphDelta, JobRun, TurnState
from simplemem_graph.stores.base import lease_holder_alive
from simplemem_graph.stores.embedded.maintenance import Maintenance


class Coordination(Maintenance):
    """What keeps writers and workers in step."""

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
            for key, value in delta.meta.items():
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
            for key in delta.deleted_meta:
                conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            if delta.touched:
                self._touch_in(conn, namespace, delta.touched, delta.touched_at)
            for feedback in delta.feedback:
                self._write_feedback(conn, feedback)
            holes = self._delete_in(conn, namespace, delta)
            revision = self._entity_revision(conn, namespace) if unchanged else None
        self._zero_vectors(namespace, holes)
        if delta.deleted_entities or delta.deleted_events:
            self._forget_caches(namespace)
        return revision

    def _delete_in(
        self, conn: sqlite3.Connection, namespace: str, delta: GraphDelta
    ) -> list[tuple[int | None, int | None]]:
        """The delta's deletes, last in its transaction; the vector rows left to zero after it."""
        self._delete_nodes(conn, namespace, "entities", list(dict.fromkeys(delta.deleted_entities)))
        holes = self._delete_events_in(conn, namespace, delta.deleted_events)
        if holes or delta.deleted_entities:
            self._delete_orphans(conn, namespace)
        self._delete_nodes(conn, namespace, "topics", list(dict.fromkeys(delta.deleted_topics)))
        self._delete_nodes(conn, namespace, "patterns", list(dict.fromkeys(delta.deleted_patterns)))
        return holes

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
        sql, params = "SELECT data FROM jobs WHERE 1 = 1", list[Any]()
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [*params, namespace]
        if kind is not None:
            sql, params = sql + " AND kind = ?", [*params, kind]
        rows = self._read(sql + " ORDER BY started DESC, id DESC LIMIT ?", [*params, limit])
        return [JobRun.model_validate_json(r[0]) for r in rows]

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _write_feedback(self, conn: sqlite3.Connection, feedback: Feedback) -> None:
        """Record a labelled search inside the caller's transaction, after checking that every
        event it names is an event of its namespace (else InputError, and the transaction rolls
        back: an event deleted meanwhile cannot slip in)."""
        ids = list(dict.fromkeys([*feedback.helpful, *(feedback.shown or [])]))
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
            raise InputError(f"feedback: unknown event ids in namespace {feedback.namespace!r}: {missing}")
        conn.execute(
            "INSERT OR REPLACE INTO feedback VALUES (?,?,?,?)",
            (feedback.namespace, feedback.id, feedback.at.timestamp(), feedback.model_dump_json()),
        )

    def _feedback(self, namespace: str) -> list[Feedback]:
        rows = self._read("SELECT data FROM feedback WHERE namespace = ? ORDER BY at, id", (namespace,))
        return [Feedback.model_validate_json(r[0]) for r in rows]
