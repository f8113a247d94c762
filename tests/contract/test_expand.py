"""Association-chain completion: shortest distances, paths, kinds, statuses and limit."""

from __future__ import annotations

from simplemem_graph.models import (
    DEFAULT_STATUSES,
    EVENT_LINKS,
    EventPatch,
    EventStatus,
    GraphDelta,
    LinkKind,
    Walk,
)
from simplemem_graph.stores.queries import Walks
from tests.contract.contract_data import link, make_entity, make_event
from tests.store_writes import write


def _chain(store, ns):
    """e1 -NEXT-> e2 -CAUSES-> e3 -NEXT-> e4;  e1 and e5 both mention Acme;  e6 is isolated."""
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(1, 7)])
    write(store, entities=[make_entity(ns, "acme", "Acme Corp")])
    write(
        store,
        links=[
            link(ns, LinkKind.NEXT, "e1", "e2"),
            link(ns, LinkKind.CAUSES, "e2", "e3"),
            link(ns, LinkKind.NEXT, "e3", "e4"),
            link(ns, LinkKind.MENTIONS, "e1", "acme"),
            link(ns, LinkKind.MENTIONS, "e5", "acme"),
        ],
    )


def _walk(neighbors):
    return [(n.id, n.seed, n.distance, n.path) for n in neighbors]


def test_expand_returns_each_event_once_at_its_shortest_distance(store, ns):
    _chain(store, ns)
    got = _walk(
        store.walk(
            ns,
            Walks(
                ["e1"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
    )
    assert [n[2] for n in got] == sorted(n[2] for n in got)  # nearest first
    assert sorted(got) == [
        ("e2", "e1", 1, ["NEXT"]),
        ("e3", "e1", 2, ["NEXT", "CAUSES"]),
        ("e5", "e1", 1, ["MENTIONS Acme Corp"]),
    ]
    assert ("e4", "e1", 3, ["NEXT", "CAUSES", "NEXT"]) in _walk(
        store.walk(
            ns,
            Walks(
                ["e1"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
    )


def test_expand_walks_links_in_either_direction(store, ns):
    _chain(store, ns)
    assert sorted(
        _walk(
            store.walk(
                ns,
                Walks(
                    ["e3"],
                    [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=1, statuses=list(DEFAULT_STATUSES))],
                ),
            )[0]
        )
    ) == [
        ("e2", "e3", 1, ["CAUSES"]),
        ("e4", "e3", 1, ["NEXT"]),
    ]
    assert sorted(
        _walk(
            store.walk(
                ns,
                Walks(
                    ["e5"],
                    [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=list(DEFAULT_STATUSES))],
                ),
            )[0]
        )
    ) == [
        ("e1", "e5", 1, ["MENTIONS Acme Corp"]),
        ("e2", "e5", 2, ["MENTIONS Acme Corp", "NEXT"]),
    ]


def test_expand_never_returns_seeds_and_credits_the_nearest_seed(store, ns):
    _chain(store, ns)
    got = {
        n.id: (n.seed, n.distance)
        for n in store.walk(
            ns,
            Walks(
                ["e1", "e4"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
    }
    assert set(got) == {"e2", "e3", "e5"}
    assert got["e3"] == ("e4", 1)
    assert got["e2"][1] == 1


def test_expand_follows_only_the_kinds_asked(store, ns):
    _chain(store, ns)
    assert _walk(
        store.walk(ns, Walks(["e1"], [Walk(kinds=[LinkKind.NEXT], hops=3, statuses=list(DEFAULT_STATUSES))]))[
            0
        ]
    ) == [("e2", "e1", 1, ["NEXT"])]
    assert _walk(
        store.walk(
            ns, Walks(["e1"], [Walk(kinds=[LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES))])
        )[0]
    ) == [("e5", "e1", 1, ["MENTIONS Acme Corp"])]
    assert (
        store.walk(
            ns,
            Walks(
                ["e6"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
        == []
    )
    assert (
        store.walk(
            ns,
            Walks(
                ["unknown"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
        == []
    )


def test_expand_walks_through_filtered_events_but_does_not_return_them(store, ns):
    _chain(store, ns)
    store.apply_delta(
        GraphDelta(
            namespace=ns, event_patches=[EventPatch(ids=["e2"], fields={"status": EventStatus.ARCHIVED})]
        )
    )
    ids = {
        n.id: n.distance
        for n in store.walk(
            ns,
            Walks(
                ["e1"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
    }
    assert ids == {"e3": 2, "e5": 1}
    assert {
        n.id
        for n in store.walk(
            ns, Walks(["e1"], [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=2, statuses=None)])
        )[0]
    } == {"e2", "e3", "e5"}


def test_expand_limit_keeps_the_nearest(store, ns):
    _chain(store, ns)
    got = store.walk(
        ns,
        Walks(
            ["e1"],
            [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=3, statuses=list(DEFAULT_STATUSES), limit=2)],
        ),
    )[0]
    assert len(got) == 2
    assert {n.distance for n in got} == {1}
    assert (
        store.walk(
            ns,
            Walks(
                ["e1"],
                [Walk(kinds=[*EVENT_LINKS, LinkKind.MENTIONS], hops=0, statuses=list(DEFAULT_STATUSES))],
            ),
        )[0]
        == []
    )


def test_expand_walks_runs_several_walks_each_as_expand_would(store, ns):
    from simplemem_graph.models import Walk

    _chain(store, ns)
    store.apply_delta(
        GraphDelta(
            namespace=ns, event_patches=[EventPatch(ids=["e3"], fields={"status": EventStatus.SUPERSEDED})]
        )
    )
    walks = [
        Walk(kinds=[LinkKind.NEXT, LinkKind.CAUSES], hops=1, statuses=["active"], limit=5),
        Walk(kinds=[LinkKind.CAUSES, LinkKind.MENTIONS], hops=2, statuses=None, limit=5),
        Walk(kinds=[LinkKind.NEXT], hops=3, statuses=["active"], limit=1),
    ]
    got = store.walk(ns, Walks(["e2", "e1"], walks))
    assert len(got) == 3
    for walk, neighbours in zip(walks, got, strict=True):
        alone = store.walk(
            ns,
            Walks(
                ["e2", "e1"],
                [Walk(kinds=walk.kinds, hops=walk.hops, statuses=walk.statuses, limit=walk.limit)],
            ),
        )[0]
        assert _walk(neighbours) == _walk(alone)
    assert sorted(_walk(got[1])) == [("e3", "e2", 1, ["CAUSES"]), ("e5", "e1", 1, ["MENTIONS Acme Corp"])]
    assert _walk(got[0]) == []  # e3 is superseded, e1 and e2 are seeds
    assert store.walk(ns, Walks([], walks)) == [[], [], []]
