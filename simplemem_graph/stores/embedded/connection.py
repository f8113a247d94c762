"""The shared SQLite connection under every part of the embedded store: one lock, one write
transaction at a time, and the event row and filter every reading part uses."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

import numpy as np

from simplemem_graph.models import Event
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.vector_index import VectorFile


class SQLiteConnection(GraphStore):
    """The connection, its lock and the plumbing the store's parts share."""

    path: str
    _lock: threading.RLock
    _conn: sqlite3.Connection
    _vector_files: dict[str, VectorFile]

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

    @staticmethod
    def _event_from_row(data: str, blob: bytes | None) -> Event:
        event = Event.model_validate_json(data)
        if blob is not None:
            event.embedding = np.frombuffer(blob, dtype=np.float32).tolist()
        return event

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
