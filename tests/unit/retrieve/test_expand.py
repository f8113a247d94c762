"""Association-chain completion: paths name the recall channel, then each hop."""

from simplemem_graph.models import DEFAULT_STATUSES, EventPatch, GraphDelta, Link, LinkKind
from simplemem_graph.retrieve.expand import ExpandStep, attach_context, expand_candidates, neighbouring_turn
from simplemem_graph.retrieve.recall import Candidate
from simplemem_graph.stores.queries import EventQuery
from tests.store_writes import write

from .conftest import NS

CHAIN = (LinkKind.NEXT, LinkKind.CAUSES, LinkKind.SUPERSEDES)


def test_causes_and_next_hops_extend_the_seed_path(store):
    seeds = [Candidate("kickoff", ranks={"vector": 0}, path=["vector"], fused=0.03)]
    found = expand_candidates(
        store, NS, seeds, [ExpandStep(CHAIN, hops=1)], seeds=1, statuses=DEFAULT_STATUSES
    )
    assert [c.event_id for c in found] == ["cto"]
    assert found[0].path[0] == "vector" and found[0].path[1] in {"NEXT", "CAUSES"}
    assert found[0].distance == 1
    assert found[0].fused < seeds[0].fused


def test_mentions_hop_names_the_shared_entity(store):
    seeds = [Candidate("cto", path=["entity Acme Corp"], fused=0.02)]
    steps = [ExpandStep((LinkKind.MENTIONS,), hops=2, limit=10)]
    found = {
        c.event_id: c for c in expand_candidates(store, NS, seeds, steps, seeds=1, statuses=DEFAULT_STATUSES)
    }
    assert found["kickoff"].path == ["entity Acme Corp", "MENTIONS Acme Corp"]
    # Two hops: cto -Acme-> kickoff -Ana-> lunch.
    assert found["lunch"].path == ["entity Acme Corp", "MENTIONS Acme Corp", "MENTIONS Ana"]
    assert found["lunch"].distance == 2


def test_recalled_events_are_not_returned_again_and_statuses_filter(store):
    seeds = [
        Candidate("price_new", path=["vector"], fused=0.02),
        Candidate("invoice", path=["fulltext"], fused=0.01),
    ]
    steps = [ExpandStep(CHAIN, hops=1)]
    assert expand_candidates(store, NS, seeds, steps, seeds=2, statuses=DEFAULT_STATUSES) == []
    archived_too = expand_candidates(store, NS, seeds, steps, seeds=2, statuses=None)
    assert [(c.event_id, c.path) for c in archived_too] == [("price_old", ["vector", "SUPERSEDES"])]


def test_only_the_top_seeds_are_walked(store):
    seeds = [
        Candidate("lunch", path=["vector"], fused=0.03),
        Candidate("kickoff", path=["vector"], fused=0.02),
    ]
    found = expand_candidates(store, NS, seeds, [ExpandStep(CHAIN)], seeds=1, statuses=DEFAULT_STATUSES)
    assert found == []


def test_neighbouring_turn_follows_session_links_only(store):
    write(
        store,
        links=[
            Link(kind=LinkKind.NEXT, source="cto", target="lunch", namespace=NS, props={"scope": "entity:x"})
        ],
    )
    kickoff, cto = store.events(NS, EventQuery(ids=["kickoff", "cto"]))
    assert [e.id for e in neighbouring_turn(store, NS, kickoff, forward=True, statuses=DEFAULT_STATUSES)] == [
        "cto"
    ]
    assert [e.id for e in neighbouring_turn(store, NS, cto, forward=False, statuses=DEFAULT_STATUSES)] == [
        "kickoff"
    ]
    assert neighbouring_turn(store, NS, cto, forward=True, statuses=DEFAULT_STATUSES) == []


def test_neighbouring_turn_takes_the_rest_of_the_turn_and_the_whole_next_turn(store, embedder):
    # One turn compressed into two events (a, b), the next turn into two (c, d), then turn e.
    base = store.events(NS, EventQuery(ids=["lunch"]))[0]
    parts = {"a": "t1", "b": "t1", "c": "t2", "d": "t2", "e": "t3"}
    write(store, events=[base.model_copy(update={"id": i, "source_ids": [t]}) for i, t in parts.items()])
    write(
        store,
        links=[
            Link(kind=LinkKind.NEXT, source=x, target=y, namespace=NS, props={"scope": "session:s9"})
            for x, y in ["ab", "bc", "cd", "de"]
        ],
    )
    a, d = store.events(NS, EventQuery(ids=["a", "d"]))
    forward = neighbouring_turn(store, NS, a, forward=True, statuses=DEFAULT_STATUSES)
    assert [e.id for e in forward] == ["b", "c", "d"]
    backward = neighbouring_turn(store, NS, d, forward=False, statuses=DEFAULT_STATUSES)
    assert [e.id for e in backward] == ["a", "b", "c"]
    store.apply_delta(
        GraphDelta(namespace=NS, event_patches=[EventPatch(ids=["c"], fields={"status": "archived"})])
    )
    assert [e.id for e in neighbouring_turn(store, NS, a, forward=True, statuses=DEFAULT_STATUSES)] == [
        "b",
        "d",
    ]


def test_attach_context_keeps_id_and_lists_every_source(store):
    kickoff, cto, lunch = store.events(NS, EventQuery(ids=["kickoff", "cto", "lunch"]))
    widened = attach_context(cto, [kickoff], [lunch])
    assert widened.id == "cto"
    assert widened.source_ids == ["s3:kickoff", "s3:cto", "s1:lunch"]
    assert widened.text == f"{kickoff.text} / {cto.text} / {lunch.text}"
    assert attach_context(cto, [], []) is cto
