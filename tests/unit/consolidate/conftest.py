"""Consolidation tests: hand-built events, a real EmbeddedStore(":memory:"), the real default embedder.

`make_event` builds an Event the way stage 1 would hand it over (embedded, one namespace); the test
files never run stage 1.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Event, Link, LinkKind, Participant, Quantity, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EntityQuery

NS = "t"
CST = timezone(timedelta(hours=8))


@pytest.fixture
def store():
    store = EmbeddedStore(":memory:")
    yield store
    store.close()


@pytest.fixture
def make_event(embedder):
    def make(
        event_id: str,
        text: str,
        when: str,
        *,
        session: str = "s1",
        speaker: str = "user",
        turn: str | None = None,
        people: tuple[str, ...] = (),
        orgs: tuple[str, ...] = (),
        money: tuple[float, ...] = (),
        dates: tuple[str, ...] = (),
        deadline: str | None = None,
        **fields,
    ) -> Event:
        participants = [Participant(name=n, type="person") for n in people]
        participants += [Participant(name=n, type="org") for n in orgs]
        quantities = [Quantity(value=v, unit="CNY", surface=f"{v}元", kind="money") for v in money]
        return Event(
            id=event_id,
            namespace=NS,
            text=text,
            source_ids=[turn or f"{session}:{event_id}"],
            session=session,
            speaker=speaker,
            time=datetime.fromisoformat(when).replace(tzinfo=CST),
            participants=participants,
            quantities=quantities,
            dates=[date.fromisoformat(d) for d in dates],
            deadline=date.fromisoformat(deadline) if deadline else None,
            embedding=embedder.encode([text])[0].tolist(),
            **fields,
        )

    return make


def links_of(store, kind: LinkKind) -> set[tuple[str, str]]:
    """(source, target) of every stored link of one kind."""
    return {(link.source, link.target) for link in store.links(NS, kinds=[kind])}


def link_props(store, kind: LinkKind) -> dict[tuple[str, str], dict]:
    return {(link.source, link.target): link.props for link in store.links(NS, kinds=[kind])}


def entity_named(store, name: str):
    """The canonical entity called `name` (by name or alias); fails when there is not exactly one."""
    alias_sources = {link.source for link in store.links(NS, kinds=[LinkKind.ALIAS_OF])}
    matches = [e for e in store.entities(NS, EntityQuery(name=name)) if e.id not in alias_sources]
    assert len(matches) == 1, f"expected one canonical entity for {name!r}, got {[m.name for m in matches]}"
    return matches[0]


def mentioned(store, event_id: str) -> set[str]:
    """Names of the canonical entities an event MENTIONS."""
    targets = {
        link.target
        for link in store.links(NS, kinds=[LinkKind.MENTIONS], node_ids=[event_id])
        if link.source == event_id
    }
    return {e.name for e in store.entities(NS, EntityQuery()) if e.id in targets}


def run_session(store, make_event, embedder, *turns: tuple[str, dict]) -> set[tuple[str, str]]:
    """One session, a turn per (text, make_event kwargs), two minutes apart (a text opening with
    "Noted" is the assistant's), consolidated as one batch: the WORKS_AT names it ends with."""
    from simplemem_graph.ingest import consolidate_batch

    logged, events = [], []
    for i, (text, kwargs) in enumerate(turns, start=1):
        when = f"2026-03-02T09:{i * 2:02d}:00"
        speaker = "assistant" if text.startswith("Noted") else "user"
        logged.append((f"s1:{i}", when, text))
        events.append(make_event(f"e{i}", text, when, turn=f"s1:{i}", speaker=speaker, **kwargs))
    log_turns(store, *logged, assistant_opening="Noted")
    consolidate_batch(events, store, embedder=embedder)
    return works_at_names(store)


__all__ = ["CST", "NS", "Link", "entity_named", "link_props", "links_of", "mentioned"]


def log_turns(store, *turns: tuple[str, str, str], assistant_opening: str | None = None) -> None:
    """Log raw turns (id "session:n", time, text), the user's; or the assistant's when the text
    opens with `assistant_opening` ("Noted")."""
    store.add_turns(
        [
            Turn(
                id=turn_id,
                namespace=NS,
                session=turn_id.split(":")[0],
                speaker="assistant" if assistant_opening and text.startswith(assistant_opening) else "user",
                time=datetime.fromisoformat(when).replace(tzinfo=CST),
                text=text,
            )
            for turn_id, when, text in turns
        ]
    )


def works_at_names(store) -> set[tuple[str, str]]:
    """(person or supplier, organisation) names of every WORKS_AT link."""
    names = {e.id: e.name for e in store.entities(NS, EntityQuery())}
    return {(names[s], names[t]) for s, t in link_props(store, LinkKind.WORKS_AT)}


def ingest_turns(store, make_event, embedder, turns, orgs_of=None) -> None:
    """Log the turns (id "session:n", time, text) and consolidate one event per turn, its
    organisations where `orgs_of` (turn id -> names) says: a stage 1 that found no other name."""
    orgs_of = orgs_of or {}
    log_turns(store, *turns)
    events = [
        make_event(f"e{i}", text, when, session=tid.split(":")[0], turn=tid, orgs=tuple(orgs_of.get(tid, ())))
        for i, (tid, when, text) in enumerate(turns, start=1)
    ]
    consolidate_batch(events, store, embedder=embedder)


def memory_of(embedder, turns: list[tuple[str, str, str, datetime]]):
    """A `Memory` on a fresh in-memory store (namespace "t") that ingested the (session, speaker,
    text, time) turns through the whole pipeline, stage 1 included; turn ids are "session:n"."""
    from simplemem_graph import Memory

    memory = Memory(EmbeddedStore(":memory:"), namespace=NS, embedder=embedder)
    memory.add_many(
        [
            Turn(id=f"{s}:{i}", namespace=NS, session=s, speaker=who, text=text, time=when)
            for i, (s, who, text, when) in enumerate(turns)
        ]
    )
    return memory


def consolidated_memory(embedder, start: datetime, *turns: tuple[str, str, str]):
    """`memory_of` for (session, speaker, text) turns ten minutes apart from `start`, consolidated
    once a day later."""
    memory = memory_of(
        embedder,
        [(s, who, text, start + timedelta(minutes=10 * i)) for i, (s, who, text) in enumerate(turns)],
    )
    memory.consolidate(now=start + timedelta(days=1))
    return memory


def story_turns(memory, name: str) -> set[str]:
    """The source turns of `timeline name` (archived events included)."""
    return {s for h in memory.timeline(name, include_archived=True) for s in h.event.source_ids}
