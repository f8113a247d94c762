"""Time links: ON / DUE to Day nodes, and NEXT chains per session and per entity storyline."""

from __future__ import annotations

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
    session_tail: Callable[[str], Event | None],
    entity_tail: Callable[[str], Event | None],
    mentions: dict[str, dict[str, dict[str, str]]],
    storyline_entities: set[str],
) -> list[Link]:
    """NEXT links in time order, appended to the chains already in the store.

    Args:
        events: the new events, in the order stage 1 produced them (ties in time keep that order).
        session_tail: the latest stored event of a session before this batch, or None.
        entity_tail: the latest stored event mentioning an entity before this batch, or None.
        mentions: event id -> {canonical entity id: props}, from entity resolution.
        storyline_entities: entity ids that get a storyline (generic speakers such as "user" do not).

    Returns:
        Links with props.scope "session:<id>" or "entity:<id>". Two events linked by both scopes get
        one link (the store keys links on kind, source and target); the session scope is kept.
    """
    ordered = sorted(enumerate(events), key=lambda pair: (pair[1].time, pair[0]))
    last_in_session: dict[str, Event | None] = {}
    last_of_entity: dict[str, Event | None] = {}
    links: dict[tuple[str, str], Link] = {}
    pending_entity_links = []
    for _, event in ordered:
        if event.session not in last_in_session:
            last_in_session[event.session] = session_tail(event.session)
        previous = last_in_session[event.session]
        if previous is not None and previous.id != event.id:
            links[(previous.id, event.id)] = _next(previous, event, f"session:{event.session}")
        last_in_session[event.session] = event
        for entity in sorted(mentions.get(event.id, {})):
            if entity not in storyline_entities:
                continue
            if entity not in last_of_entity:
                last_of_entity[entity] = entity_tail(entity)
            earlier = last_of_entity[entity]
            if earlier is not None and earlier.id != event.id:
                pending_entity_links.append(_next(earlier, event, f"entity:{entity}"))
            last_of_entity[entity] = event
    for link in pending_entity_links:
        links.setdefault((link.source, link.target), link)
    return list(links.values())


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
