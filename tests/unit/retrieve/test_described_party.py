"""A question that describes its party without naming it ("滨江那家最后是哪天上线的？", "when is the
credit union's gala now?") is about the organisation the best memories for it mention most
(`Memory.described`), when one stands out; nothing is made up when none does. Made-up names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from simplemem_graph import Memory
from simplemem_graph.models import Entity, Event, GraphDelta, Hit, Link, LinkKind, Turn
from simplemem_graph.retrieve.described import described_party
from simplemem_graph.stores.embedded import EmbeddedStore

START = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NS = "described"


def test_a_described_client_is_the_one_its_memories_are_about(embedder):
    client = "Wexcombe Community Credit Union"
    said = [
        ("s1", "user", f"new client {client}, AV for their members' gala at the Hollins ballroom, 14 March"),
        ("s1", "assistant", "Noted: Wexcombe gala AV, 14 March at the Hollins ballroom."),
        ("s1", "user", "Brightfold Printing also wants flyers, 2,000 A5, by Friday"),
        ("s2", "user", "Wexcombe moved the gala to 21 March, the ballroom double-booked"),
        ("s3", "user", "gala date changed again, Wexcombe says 28 March now, final"),
    ]
    memory = Memory(EmbeddedStore(":memory:"), namespace=NS, embedder=embedder)
    memory.add_many(
        [
            Turn(id=f"{s}:{i}", namespace=NS, session=s, speaker=who, text=text, time=at)
            for i, (s, who, text) in enumerate(said)
            for at in [START + timedelta(hours=i)]
        ]
    )
    memory.consolidate(now=START + timedelta(days=1))
    party = memory.described("when is the credit union's gala now? didn't the date change twice?")
    assert party is not None and party.name == client
    assert memory.described("what did the weather do in Lisbon?") is None


def _event(event_id: str) -> Event:
    return Event(id=event_id, namespace=NS, text="t", speaker="user", time=START, source_ids=[event_id])


def _hit(event_id: str) -> Hit:
    return Hit(event=_event(event_id), score=1.0)


def _store_with(mentions: list[tuple[str, str, str]]) -> EmbeddedStore:
    """A store holding two firms and a person, and MENTIONS (event, entity, surface) links."""
    store = EmbeddedStore(":memory:")
    entities = [
        Entity(id="org-a", namespace=NS, name="Alder Vale Dental", type="org"),
        Entity(id="org-b", namespace=NS, name="Birchmoor Fitness", type="org"),
        Entity(id="per-c", namespace=NS, name="Cathal Rooney", type="person"),
    ]
    links = [
        Link(kind=LinkKind.MENTIONS, source=e, target=t, namespace=NS, props={"surface": n})
        for e, t, n in mentions
    ]
    events = [_event(e) for e in sorted({e for e, _t, _s in mentions})]
    store.apply_delta(GraphDelta(namespace=NS, events=events, entities=entities, links=links))
    return store


def test_no_party_stands_out_when_two_firms_are_mentioned_alike():
    store = _store_with([("e1", "org-a", "Alder Vale Dental"), ("e2", "org-b", "Birchmoor Fitness")])
    assert described_party(store, NS, [_hit("e1"), _hit("e2")], ["t"]) is None


def test_a_person_mentioned_most_is_no_party_and_one_mention_is_too_few():
    store = _store_with(
        [
            ("e1", "per-c", "Cathal Rooney"),
            ("e2", "per-c", "Cathal Rooney"),
            ("e3", "per-c", "Cathal Rooney"),
            ("e3", "org-a", "Alder Vale Dental"),
        ]
    )
    assert described_party(store, NS, [_hit("e1"), _hit("e2"), _hit("e3")], ["t"]) is None
    store = _store_with([("e1", "org-a", "Alder Vale Dental"), ("e2", "org-a", "Alder Vale Dental")])
    party = described_party(store, NS, [_hit("e1"), _hit("e2")], ["t"])
    assert party is not None and party.name == "Alder Vale Dental"
    assert described_party(store, NS, [], ["t"]) is None
    assert described_party(store, NS, [_hit("e1"), _hit("e2")], ["lisbon"]) is None  # says none of it
