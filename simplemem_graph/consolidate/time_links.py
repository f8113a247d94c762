"""Time links: ON / DUE to Day nodes, and NEXT chains per session and per entity storyline."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence

from simplemem_graph.models import Event, Link, LinkKind


def link_sources(events: Sequence[Event]) -> list[Link]:
    """FROM each event to the raw turns it was made from: provenance, and the way from a turn back
    to its events."""
    return [
        Link(kind=LinkKind.FROM, source=event.id, target=turn_id, namespace=event.namespace)
        for event in events
        for turn_id in dict.fromkeys(event.source_ids)
    ]


def link_days(events: Sequence[Event]) -> list[Link]:
    """ON to the Day of each event's time (its own local date), DUE to the Day of its deadline."""
    links = []
    for event in events:
        links.append(
            Link(
                kind=LinkKind.ON,
                source=event.id,
                target=event.time.date().isoformat(),
                namespace=event.namespace,
            )
        )
        if event.deadline:
            links.append(
                Link(
                    kind=LinkKind.DUE,
                    source=event.id,
                    target=event.deadline.isoformat(),
                    namespace=event.namespace,
                )
            )
    return links


def link_next(
    events: Sequence[Event],
    *,
    session_chain: Callable[[str], Sequence[Event]],
    entity_chain: Callable[[str], Sequence[Event]],
    mentions: dict[str, dict[str, dict[str, str]]],
    storyline_entities: set[str],
) -> tuple[list[Link], list[Link]]:
    """NEXT links in time order, inserted into the chains already in the store.

    A new event takes its place by time in its session's chain and in each of its entities'
    storylines, wherever that is: appended at the end (the usual case), or between two stored
    events when it arrives late (another agent wrote it, an import of an older log). The link
    between those two is then removed, so the chains are the same whatever order batches
    arrived in.

    Args:
        events: the new events, in the order stage 1 produced them (ties in time keep that order).
        session_chain: stored events of a session around this batch, oldest first.
        entity_chain: stored events mentioning an entity (its storyline), oldest first.
        mentions: event id -> {canonical entity id: props}, from entity resolution.
        storyline_entities: entity ids that get a storyline (generic speakers such as "user" do not).

    Returns:
        (links to add, links to remove). Added links have props.scope "session:<id>" or
        "entity:<id>"; two events linked by both scopes get one link (the store keys links on
        kind, source and target), the session scope is kept.
    """
    position = {e.id: i for i, e in enumerate(events)}
    order = chain_order

    scopes: dict[str, list[Event]] = defaultdict(list)
    stored_of: dict[str, Callable[[], Sequence[Event]]] = {}
    for event in events:
        scope = f"session:{event.session}"
        scopes[scope].append(event)
        stored_of[scope] = lambda session=event.session: session_chain(session)
        for entity in sorted(mentions.get(event.id, {})):
            if entity in storyline_entities:
                scope = f"entity:{entity}"
                scopes[scope].append(event)
                stored_of[scope] = lambda entity=entity: entity_chain(entity)

    links: dict[tuple[str, str], Link] = {}
    adjacent: set[tuple[str, str]] = set()
    broken: set[tuple[str, str]] = set()  # stored neighbours a new event now stands between
    ordered_scopes = sorted(scopes, key=lambda scope: (not scope.startswith("session:"), scope))
    for scope in ordered_scopes:
        stored = sorted((e for e in stored_of[scope]() if e.id not in position), key=order)
        merged = sorted([*stored, *dict((e.id, e) for e in scopes[scope]).values()], key=order)
        for earlier, later in itertools.pairwise(merged):
            adjacent.add((earlier.id, later.id))
            if earlier.id in position or later.id in position:
                links.setdefault((earlier.id, later.id), _next(earlier, later, scope))
        for earlier, later in itertools.pairwise(stored):
            if (earlier.id, later.id) not in adjacent:
                broken.add((earlier.id, later.id))
    removed = [
        Link(kind=LinkKind.NEXT, source=a, target=b, namespace=events[0].namespace)
        for a, b in sorted(broken - adjacent)
    ]
    return list(links.values()), removed


def chain_order(event: Event) -> tuple:
    """Where an event stands in a NEXT chain: its time, then its turn (ties between turns), then
    its place among the turn's events. A total order that does not depend on arrival."""
    return (event.time, event.source_ids[0] if event.source_ids else "", event.clause, event.id)


def next_link(earlier: Event, later: Event, scope: str) -> Link:
    """The NEXT link of a chain (props.scope "session:<id>" or "entity:<id>")."""
    return _next(earlier, later, scope)


def latest_before(candidates: Sequence[Event], first_new: Event) -> Event | None:
    """The latest of `candidates` not later than `first_new` (candidates sorted oldest first)."""
    earlier = [e for e in candidates if e.time <= first_new.time and e.id != first_new.id]
    return earlier[-1] if earlier else None


def group_by_session(events: Sequence[Event]) -> dict[str, list[Event]]:
    grouped: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        grouped[event.session].append(event)
    return grouped


def _next(earlier: Event, later: Event, scope: str) -> Link:
    return Link(
        kind=LinkKind.NEXT,
        source=earlier.id,
        target=later.id,
        namespace=later.namespace,
        props={"scope": scope},
    )
