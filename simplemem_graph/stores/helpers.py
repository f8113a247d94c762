"""Helpers every store shares: the verbatim memory of a turn, chunk keys, the date filter for
events reached through links, the storyline ranking rule, lease holders, and the compression part
of `stats`. Kept apart from the contract (base.py) so the contract reads as the list of methods."""

from __future__ import annotations

import os
import socket
import threading
import uuid
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from simplemem_graph.dates import event_days
from simplemem_graph.models import Event, Turn, stable_id


def turn_memory(turn: Turn) -> Event:
    """A turn stage 1 made no event from, as a verbatim memory with its source id: a keep-rule
    mistake can cost rank, never the fact."""
    from simplemem_graph.text import detect_lang

    return Event(
        id=stable_id("turn", turn.namespace, turn.id),
        namespace=turn.namespace,
        text=turn.text,
        source_ids=[turn.id],
        session=turn.session,
        speaker=turn.speaker,
        agent=turn.agent,
        time=turn.time,
        verbatim=True,
        lang=detect_lang(turn.text),
    )


def chunk_key(turns: Sequence[Turn]) -> str:
    """The key of the chunk one `add_turns` call logs: earliest time, then the first turn's id, so
    chunks sort in time order and the same call always makes the same key."""
    if not turns:
        return ""
    first = min(t.time.timestamp() for t in turns)
    return f"{first:020.6f}|{turns[0].id}"


def in_date_range(event: Event, time_from: date | None, time_to: date | None) -> bool:
    """Whether one of the event's days (`event_days`) falls in the closed range: the stores' date
    filter, for events reached through links rather than a search."""
    if time_from is None and time_to is None:
        return True
    return any(
        (time_from is None or d >= time_from) and (time_to is None or d <= time_to) for d in event_days(event)
    )


def storyline_rank(rows: Iterable[tuple[str, Any, int, float]]) -> list[str]:
    """Event ids of (id, time, groups naming it, cosine to the query) rows in recall order: named
    by more of the question's entities first, then closer to the query, then oldest, then by id.
    Every store ranks `RankedStorylines` by this one rule."""
    return [row[0] for row in sorted(rows, key=lambda row: (-row[2], -row[3], row[1], row[0]))]


def new_lease_holder() -> str:
    """A holder id naming this host, process and thread, so a dead holder can be recognised."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}:{uuid.uuid4().hex[:8]}"


def lease_holder_alive(holder: str) -> bool:
    """False only when the holder is known dead: a process of this host that no longer exists.
    A holder on another host is assumed alive until its lease times out."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def compression_counts(rows: Sequence[tuple[str, int, int, int]]) -> dict[str, Any]:
    """The `compression` part of `stats` from (trigger, events, distinct source turns, events made
    from several turns) rows: how many turns each path of the dual trigger took (compress/trigger.py).
    Turns that made no event (chit-chat) are `turns - turns_alone - turns_accumulated`."""
    by_trigger = {trigger: (events, turns, windows) for trigger, events, turns, windows in rows}
    alone = by_trigger.get("information", (0, 0, 0))
    accumulated = by_trigger.get("accumulated", (0, 0, 0))
    return {
        "turns_alone": alone[1],
        "turns_accumulated": accumulated[1],
        "windows": accumulated[2],
        "events_by_trigger": {trigger: counts[0] for trigger, counts in sorted(by_trigger.items())},
    }
