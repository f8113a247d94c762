"""Events: nodes keyed by uid, with their day links and both forms of their embedding."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from neo4j import ManagedTransaction
from pydantic import ValidationError

from simplemem_graph.errors import InputError
from simplemem_graph.models import Event, Link, LinkKind
from simplemem_graph.stores.neo4j.connection import _link_from_row
from simplemem_graph.stores.neo4j.log import TurnLog
from simplemem_graph.stores.neo4j_records import event_from_props, event_row, recall_filters, uid_of


class Events(TurnLog):
    """Writing and reading events."""

    def _upsert_events(self, events: Sequence[Event]) -> None:
        self._write_rows("upsert_events", self._event_rows(events))

    def _event_rows(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        for event in events:
            if event.embedding is not None:
                self._check_vector(event.embedding, f"event {event.id}'s embedding")
        return [event_row(e) for e in events]

    def _get_events(self, namespace: str, ids: Sequence[str]) -> list[Event]:
        if not ids:
            return []
        rows = self._execute("get_events", read=True, uids=[uid_of(namespace, i) for i in ids])
        found = {r["event"]["id"]: event_from_props(r["event"]) for r in rows}
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def _events_and_links(
        self, namespace: str, ids: Sequence[str], kinds: Sequence[LinkKind]
    ) -> tuple[list[Event], list[Link]]:
        if not ids:
            return [], []
        rows = self._execute(
            "events_and_links",
            read=True,
            uids=[uid_of(namespace, i) for i in ids],
            kinds=[LinkKind(k).value for k in kinds],
        )
        found = {r["event"]["id"]: event_from_props(r["event"]) for r in rows}
        links = [_link_from_row(namespace, r["event"]["id"], link) for r in rows for link in r["links"]]
        events = [found[i] for i in dict.fromkeys(ids) if i in found]
        return events, sorted(links, key=lambda link: (link.kind.value, link.source, link.target))

    def _list_events(
        self,
        namespace: str,
        *,
        statuses: Sequence[str] | None = None,
        time_from: date | None = None,
        time_to: date | None = None,
        embeddings: bool = True,
    ) -> list[Event]:
        rows = self._execute(
            "list_events", read=True, namespace=namespace, **recall_filters(statuses, time_from, time_to)
        )
        if not embeddings:
            return [event_from_props({**r["event"], "embedding_f32": None}) for r in rows]
        return [event_from_props(r["event"]) for r in rows]

    def _patch_events(
        self, tx: ManagedTransaction, namespace: str, ids: Sequence[str], fields: dict[str, Any]
    ) -> None:
        """Read, change and rewrite events inside the caller's transaction."""
        uids = [uid_of(namespace, i) for i in ids]
        events = [event_from_props(r["event"]) for r in self._run(tx, "get_events", uids=uids)]
        try:
            updated = [Event.model_validate({**e.model_dump(), **fields}) for e in events]
        except ValidationError as e:
            raise InputError(f"neo4j store: update_events cannot set {sorted(fields)}: {e}") from e
        self._run_batches(tx, "upsert_events", self._event_rows(updated))

    def _session_events(
        self, namespace: str, sessions: Sequence[str], *, since: date | None = None, limit: int = 200
    ) -> list[Event]:
        if not sessions or limit <= 0:
            return []
        # A day of slack for time zones, then the exact test on the event's own date.
        floor = (
            datetime(since.year, since.month, since.day, tzinfo=UTC) - timedelta(days=1) if since else None
        )
        rows = self._execute(
            "session_events",
            read=True,
            namespace=namespace,
            sessions=list(dict.fromkeys(sessions)),
            since=floor,
            limit=limit,
        )
        events = [event_from_props(r["event"]) for r in rows]
        events = [e for e in events if since is None or e.time.date() >= since]
        return sorted(events, key=lambda e: (e.time, e.id))

    def _open_question_events(self, namespace: str, *, limit: int | None = None) -> list[Event]:
        rows = self._execute(
            "open_question_events", read=True, namespace=namespace, limit=2**31 if limit is None else limit
        )
        return [event_from_props(r["event"]) for r in rows]
