"""Events: one row each (JSON data, embedding blob, vector slot), with their fulltext and day rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import numpy as np

from simplemem_graph.dates import event_days
from simplemem_graph.errors import InputError
from simplemem_graph.models import Event, EventStatus
from simplemem_graph.stores.embedded.fulltext import _indexed_terms
from simplemem_graph.stores.embedded.log import TurnLog

# Event fields the fulltext, day and vector indexes are built from.
_INDEXED_FIELDS = frozenset({"text", "time", "dates", "deadline", "embedding", "namespace", "id"})


class Events(TurnLog):
    """Writing and reading events."""

    def _upsert_events(self, events: Sequence[Event]) -> None:
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

    def _get_events(self, namespace: str, ids: Sequence[str]) -> list[Event]:
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

    def _list_events(
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

    def _touch_in(
        self, conn: sqlite3.Connection, namespace: str, ids: Sequence[str], at: datetime | None
    ) -> None:
        """Record a retrieval inside the caller's transaction: access_count += 1, last_accessed."""
        for start in range(0, len(ids), 500):
            chunk = list(dict.fromkeys(ids[start : start + 500]))
            rows = conn.execute(
                f"SELECT data FROM events WHERE namespace = ? AND id IN ({self._placeholders(len(chunk))})",
                [namespace, *chunk],
            ).fetchall()
            for (data,) in rows:
                event = Event.model_validate_json(data)
                event.access_count += 1
                event.last_accessed = at
                conn.execute(
                    "UPDATE events SET data = ? WHERE namespace = ? AND id = ?",
                    (event.model_dump_json(exclude={"embedding"}), namespace, event.id),
                )

    def _session_events(
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

    def _open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        # The condition repeats the partial index's own, so SQLite reads only events with open slots.
        rows = self._read(
            "SELECT data, embedding FROM events WHERE namespace = ? AND status = ? "
            "AND json_array_length(data, '$.open_slots') > 0 ORDER BY ts DESC, id LIMIT ?",
            [namespace, EventStatus.ACTIVE.value, -1 if limit is None else limit],
        )
        return [self._event_from_row(d, b) for d, b in rows]
