"""The raw log: turns as they were said, their pending / failed / forgotten states."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from simplemem_graph.models import Turn, TurnState
from simplemem_graph.stores.base import chunk_key
from simplemem_graph.stores.embedded.fulltext import Fulltext, _indexed_terms


class TurnLog(Fulltext):
    """Turns: logged once, consolidated in chunks, set aside on failure, erased on request."""

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

    def _get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
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

    def _pending_turns(
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

    def _count_pending(self, namespace: str | None) -> int:
        if namespace is None:
            return self._read("SELECT COUNT(*) FROM turns WHERE state = ?", [TurnState.PENDING.value])[0][0]
        return self._read(
            "SELECT COUNT(*) FROM turns WHERE namespace = ? AND state = ?",
            [namespace, TurnState.PENDING.value],
        )[0][0]

    def _pending_chunk(self, namespace: str) -> list[Turn]:
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

    def _session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
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

    def _set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        with self._transaction() as conn:
            conn.executemany(
                "UPDATE turns SET state = ?, failure = ? WHERE namespace = ? AND id = ? AND state = ?",
                [
                    (TurnState.FAILED.value, error, namespace, turn_id, TurnState.PENDING.value)
                    for turn_id, error in failures.items()
                ],
            )

    def _failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        sql = "SELECT namespace, id, coalesce(failure, '') FROM turns WHERE state = ?"
        params: list[Any] = [TurnState.FAILED.value]
        if namespace is not None:
            sql, params = sql + " AND namespace = ?", [*params, namespace]
        return [tuple(r) for r in self._read(sql + " ORDER BY namespace, ts, id", params)]

    def _retry_turns(self, namespace: str) -> int:
        with self._transaction() as conn:
            return conn.execute(
                "UPDATE turns SET state = ?, failure = NULL WHERE namespace = ? AND state = ?",
                (TurnState.PENDING.value, namespace, TurnState.FAILED.value),
            ).rowcount

    def _forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
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

    def scrub(self) -> None:
        """After an erasure: merge the fulltext indexes (FTS5 keeps deleted terms in its segments
        until they are merged) and checkpoint the WAL into the file, truncating it, so no copy of
        the erased text is left in the WAL; freed pages were zeroed (secure_delete)."""
        with self._lock:
            self._conn.execute("INSERT INTO events_fts (events_fts) VALUES ('optimize')")
            self._conn.execute("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')")
            if self.path != ":memory:":
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
