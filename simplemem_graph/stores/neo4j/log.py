"""The raw log: turns as they were said, their pending / failed / forgotten states."""

from __future__ import annotations

from collections.abc import Sequence

from neo4j import ManagedTransaction

from simplemem_graph.models import Turn, TurnState
from simplemem_graph.stores.base import chunk_key
from simplemem_graph.stores.neo4j.connection import _BATCH
from simplemem_graph.stores.neo4j.fulltext import Fulltext
from simplemem_graph.stores.neo4j_records import model_fields, namespace_token, uid_of
from simplemem_graph.text import search_terms


class TurnLog(Fulltext):
    """Turns: logged once, consolidated in chunks, set aside on failure, erased on request."""

    def add_turns(self, turns: Sequence[Turn], *, pending: bool = True) -> list[Turn]:
        state = (TurnState.PENDING if pending else TurnState.DONE).value
        chunk = chunk_key(turns)
        rows = [
            {
                "index": i,
                "uid": uid_of(t.namespace, t.id),
                "props": {
                    **t.model_dump(),
                    "uid": uid_of(t.namespace, t.id),
                    "state": state,
                    "chunk": chunk,
                    "search_ns": namespace_token(t.namespace),
                },
                # The turn fulltext index reads pre-tokenised text, the words FTS5 sees.
                "search_text": " ".join(search_terms(t.text)),
            }
            for i, t in enumerate(turns)
        ]

        def work(tx: ManagedTransaction) -> list[int]:
            added: list[int] = []
            for start in range(0, len(rows), _BATCH):
                batch = rows[start : start + _BATCH]
                added += [r["index"] for r in self._run(tx, "add_turns", rows=batch) if r["added"]]
            return added

        added = self._transaction(work) if rows else []
        return [turns[i] for i in sorted(added)]

    def _get_turns(self, namespace: str, ids: Sequence[str] | None = None) -> list[Turn]:
        if ids is None:
            rows = self._execute("list_turns", read=True, namespace=namespace)
        else:
            rows = self._execute("get_turns", read=True, uids=[uid_of(namespace, i) for i in ids])
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def _pending_turns(
        self, namespace: str, limit: int | None = None, *, ids: Sequence[str] | None = None
    ) -> list[Turn]:
        if ids is not None and not ids:
            return []
        rows = self._execute(
            "pending_turns",
            read=True,
            namespace=namespace,
            limit=limit if limit is not None else 2**62,
            uids=None if ids is None else [uid_of(namespace, i) for i in ids],
        )
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def _count_pending(self, namespace: str | None) -> int:
        return self._execute("count_pending", read=True, namespace=namespace)[0]["pending"]

    def _pending_chunk(self, namespace: str) -> list[Turn]:
        rows = self._execute("pending_chunk", read=True, namespace=namespace)
        return [Turn.model_validate(model_fields(r["turn"])) for r in rows]

    def _session_speakers(self, namespace: str, sessions: Sequence[str]) -> dict[str, list[str]]:
        if not sessions:
            return {}
        rows = self._execute("session_speakers", read=True, namespace=namespace, sessions=list(sessions))
        speakers: dict[str, list[str]] = {}
        for row in rows:
            speakers.setdefault(row["session"], []).append(row["speaker"])
        return speakers

    def _set_aside_turns(self, namespace: str, failures: dict[str, str]) -> None:
        rows = [{"uid": uid_of(namespace, turn_id), "error": error} for turn_id, error in failures.items()]
        self._write_rows("set_aside_turns", rows)

    def _failed_turns(self, namespace: str | None) -> list[tuple[str, str, str]]:
        rows = self._execute("failed_turns", read=True, namespace=namespace)
        return [(r["namespace"], r["id"], r["error"]) for r in rows]

    def _retry_turns(self, namespace: str) -> int:
        return self._execute("retry_turns", namespace=namespace)[0]["retried"]

    def _forget_turns(self, namespace: str, ids: Sequence[str]) -> int:
        uids = [uid_of(namespace, i) for i in dict.fromkeys(ids)]
        return self._execute("forget_turns", uids=uids)[0]["forgotten"] if uids else 0

    def scrub(self) -> None:
        """Nothing a client can do: the server drops deleted nodes' store records and merges
        the index segments that held their terms on its own schedule."""
