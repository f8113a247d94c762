"""The entity revision (issue 11): consolidation keeps its entity index between batches only while
the store says no entity, alias, employer or candidate link changed. A store either keeps no
revision (None: the index is read for every batch) or moves it on for every such change, by any path."""

from __future__ import annotations

from simplemem_graph.models import GraphDelta, LinkKind
from simplemem_graph.stores.queries import EntityQuery
from tests.contract.contract_data import link, make_entity, make_event
from tests.store_writes import write


def _moves_on(store, ns, write) -> bool:
    before = store.entity_revision(ns)
    write()
    return store.entity_revision(ns) != before


def test_every_change_to_what_the_entity_index_reads_moves_the_revision_on(store, ns, other_ns):
    if store.entity_revision(ns) is None:  # a store without revisions: nothing is ever kept
        assert store.apply_delta(GraphDelta(namespace=ns, entity_revision=None)) is None
        return
    a, b = make_entity(ns, "en-a", "Orsk Holdings"), make_entity(ns, "en-b", "Tomas Brenner", type="person")
    assert _moves_on(store, ns, lambda: write(store, entities=[a, b]))
    assert _moves_on(
        store, ns, lambda: write(store, entities=[make_entity(ns, "en-a", "Orsk Holdings", "Orsk")])
    )
    for kind in (LinkKind.ALIAS_OF, LinkKind.WORKS_AT, LinkKind.CANDIDATE_ALIAS):
        assert _moves_on(store, ns, lambda kind=kind: write(store, links=[link(ns, kind, "en-b", "en-a")]))
        assert _moves_on(
            store, ns, lambda kind=kind: write(store, removed_links=[link(ns, kind, "en-b", "en-a")])
        )
    assert _moves_on(
        store, ns, lambda: store.apply_delta(GraphDelta(namespace=ns, deleted_entities=["en-b"]))
    )
    # What the index does not read leaves it alone, and so does another namespace.
    write(store, entities=[a])  # (deleting en-b deleted en-a too: no event mentioned it)
    write(store, events=[make_event(ns, "ev-1", "Orsk Holdings signed")])
    assert not _moves_on(store, ns, lambda: write(store, links=[link(ns, LinkKind.MENTIONS, "ev-1", "en-a")]))
    assert not _moves_on(store, ns, lambda: write(store, entities=[make_entity(other_ns, "en-c", "Vell")]))
    # Forgetting the only event that mentions an entity deletes the entity too.
    assert _moves_on(store, ns, lambda: store.apply_delta(GraphDelta(namespace=ns, deleted_events=["ev-1"])))
    assert store.entities(ns, EntityQuery()) == []
    write(store, entities=[make_entity(ns, "en-d", "Kade Rivers", type="person")])
    kept_at = store.entity_revision(ns)
    store.delete_namespace(ns)
    assert store.entity_revision(ns) != kept_at
    write(store, entities=[make_entity(ns, "en-d", "Kade Rivers", type="person")])
    assert store.entity_revision(ns) != kept_at  # a deleted and rewritten namespace never repeats one


def test_apply_delta_returns_the_revision_only_when_nobody_changed_the_entities_meanwhile(store, ns):
    computed_at = store.entity_revision(ns)
    if computed_at is None:
        return  # covered above: such a store keeps nothing
    delta = GraphDelta(namespace=ns, entities=[make_entity(ns, "en-a", "Orsk")], entity_revision=computed_at)
    after = store.apply_delta(delta)
    assert after is not None and after == store.entity_revision(ns) and after != computed_at

    stale = GraphDelta(namespace=ns, entities=[make_entity(ns, "en-b", "Vell")], entity_revision=after)
    write(store, entities=[make_entity(ns, "en-c", "Kade Rivers", type="person")])  # another writer
    assert store.apply_delta(stale) is None
    assert {e.id for e in store.entities(ns, EntityQuery())} == {
        "en-a",
        "en-b",
        "en-c",
    }  # the write itself lands
