"""Default implementations of contract reads that compose other contract calls (several round
trips where a store can do one): a store overrides them with one query when it can."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

import numpy as np

from simplemem_graph.models import DEFAULT_STATUSES, RECORD_SESSION_PREFIX, Event, LinkKind
from simplemem_graph.stores.helpers import in_date_range, storyline_rank, turn_memory
from simplemem_graph.vectors import cosine, unit

if TYPE_CHECKING:
    from simplemem_graph.stores.parts import StoreParts


def turn_recall(
    store: StoreParts,
    namespace: str,
    query: str,
    k: int,
    *,
    statuses: Sequence[str] | None = DEFAULT_STATUSES,
    time_from: date | None = None,
    time_to: date | None = None,
    bare_turns: bool = False,
) -> list[Event]:
    """See `StoreParts._turn_recall`."""
    rank = {hit.id: i for i, hit in enumerate(store._turn_search(namespace, query, k))}
    if not rank:
        return []
    made_from: dict[str, int] = {}  # event id -> rank of its best turn
    linked: set[str] = set()
    for link in store._links(namespace, kinds=[LinkKind.FROM], node_ids=list(rank)):
        if link.target in rank:
            linked.add(link.target)
            made_from[link.source] = min(rank[link.target], made_from.get(link.source, len(rank)))
    allowed = None if statuses is None else {str(s) for s in statuses}
    kept = [
        e
        for e in store._get_events(namespace, list(made_from))
        if (allowed is None or str(e.status) in allowed) and in_date_range(e, time_from, time_to)
    ]
    bare = [t for t in rank if t not in linked] if bare_turns else []
    for turn in store._get_turns(namespace, bare) if bare else []:
        if (turn.session or "").startswith(RECORD_SESSION_PREFIX):
            continue  # an adapter's bookkeeping (keys and values as JSON), not something said
        memory = turn_memory(turn)
        if in_date_range(memory, time_from, time_to):
            made_from[memory.id] = rank[turn.id]
            kept.append(memory)
    return sorted(kept, key=lambda event: (made_from[event.id], event.id))


def entity_recall(
    store: StoreParts,
    namespace: str,
    groups: Sequence[Sequence[str]],
    vector: Sequence[float] | np.ndarray,
    *,
    limit: int,
    statuses: Sequence[str] | None = DEFAULT_STATUSES,
    time_from: date | None = None,
    time_to: date | None = None,
) -> list[tuple[Event, list[int]]]:
    """See `StoreParts._entity_recall`."""
    events: dict[str, Event] = {}
    named_by: dict[str, list[int]] = {}
    for group, entity_ids in enumerate(groups):
        storyline = store._entity_events(
            namespace, entity_ids, statuses=statuses, time_from=time_from, time_to=time_to
        )
        for event in storyline:
            events[event.id] = event
            named_by.setdefault(event.id, []).append(group)
    query = unit(vector)
    ranked = storyline_rank(
        [(e.id, e.time, len(named_by[e.id]), cosine(query, e.embedding)) for e in events.values()]
    )
    return [(events[event_id], named_by[event_id]) for event_id in ranked[:limit]]


def session_chains(
    store: StoreParts, namespace: str, event_ids: Sequence[str], *, forward: bool, steps: int = 8
) -> dict[str, list[Event]]:
    """See `StoreParts._session_chains`."""
    chains: dict[str, list[Event]] = {}
    for start in dict.fromkeys(event_ids):
        chain: list[Event] = []
        current = start
        for _ in range(steps):
            following = None
            for link in store._links(namespace, kinds=[LinkKind.NEXT], node_ids=[current]):
                if str(link.props.get("scope", "")).startswith("session:"):
                    if forward and link.source == current:
                        following = link.target
                    elif not forward and link.target == current:
                        following = link.source
                if following:
                    break
            if not following:
                break
            events = store._get_events(namespace, [following])
            if not events:
                break
            chain.append(events[0])
            current = following
        chains[start] = chain
    return chains
