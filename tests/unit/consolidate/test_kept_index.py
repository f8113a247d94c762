"""The entity index kept between batches (issue 11): the next batch reuses it while the store's
entity revision has not moved, reads the store again when another writer changed an entity, and
either way resolves exactly as a freshly loaded index would."""

from __future__ import annotations

import random

from simplemem_graph.consolidate import _consolidate, consolidate
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.ingest import consolidate_batch, kept_entity_index
from simplemem_graph.models import Entity, Link, LinkKind
from tests.store_writes import write

from .conftest import NS, entity_named

_SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu"]


def _name(rng: random.Random) -> str:
    return " ".join("".join(rng.choice(_SYLLABLES) for _ in range(2)).capitalize() for _ in range(2))


def test_the_next_batch_reuses_the_index_and_resolves_as_a_fresh_one(store, make_event, embedder):
    rng = random.Random(7)
    person, firm = _name(rng), f"{_name(rng)} Holdings"
    first = make_event(
        "e1", f"{person} of {firm} sent the quote", "2026-03-02T10:00:00", people=(person,), orgs=(firm,)
    )
    consolidate_batch([first], store, embedder=embedder)
    kept = kept_entity_index(store, NS)
    assert kept.revision == store.entity_revision(NS)

    second = make_event("e2", f"{person.split()[0]} confirmed the date", "2026-03-02T11:00:00")
    # The same batch resolved against a fresh load of the store gives the same delta.
    fresh = EntityIndex.load(store, NS)
    assert sorted(fresh.entities) == sorted(kept.entities)
    expected = _consolidate([second], store, fresh, embedder)
    got = _consolidate([second], store, kept, embedder)
    assert {(x.kind, x.source, x.target) for x in got.links} == {
        (x.kind, x.source, x.target) for x in expected.links
    }
    assert sorted(e.id for e in got.entities) == sorted(e.id for e in expected.entities)


def test_a_second_writers_entity_change_is_read_before_the_next_batch(store, make_event, embedder):
    rng = random.Random(11)
    person = _name(rng)
    consolidate_batch(
        [make_event("e1", f"{person} called", "2026-03-02T10:00:00", people=(person,))],
        store,
        embedder=embedder,
    )
    # Another writer (here: straight through the store) records a nickname the text never stated.
    nickname = _name(rng).split()[0]
    alias = Entity(id=entity_id(NS, nickname), namespace=NS, name=nickname, type="person")
    canonical = entity_named(store, person).model_copy(update={"aliases": [nickname]})
    write(store, entities=[alias, canonical])
    write(store, links=[Link(kind=LinkKind.ALIAS_OF, source=alias.id, target=canonical.id, namespace=NS)])

    index = kept_entity_index(store, NS)
    assert index.lookup(nickname) == [canonical.id]
    later = make_event("e2", f"{nickname} paid the deposit", "2026-03-02T11:00:00")
    consolidate_batch([later], store, embedder=embedder)
    mentions = {x.target for x in store.links(NS, kinds=[LinkKind.MENTIONS], node_ids=["e2"])}
    assert canonical.id in mentions


def test_a_batch_that_is_not_written_does_not_leave_its_names_behind(store, make_event, embedder):
    rng = random.Random(13)
    person = _name(rng)
    consolidate_batch(
        [make_event("e1", "the order shipped", "2026-03-02T10:00:00")], store, embedder=embedder
    )
    # Planned with the kept index but never written: the index is not given back.
    consolidate(
        [make_event("e2", f"{person} called", "2026-03-02T11:00:00", people=(person,))],
        store,
        index=kept_entity_index(store, NS),
        embedder=embedder,
    )
    assert kept_entity_index(store, NS).lookup(person) == []
