"""Recall channels: vector order and filters, fulltext (Chinese, query syntax in user text),
entity storylines through aliases."""

from __future__ import annotations

import pytest

from simplemem_graph.models import EventPatch, EventStatus, GraphDelta, LinkKind
from simplemem_graph.stores.queries import EventQuery, RankedStorylines, RecallFilter, TextQuery
from tests.contract.contract_data import (
    DIM,
    as_list,
    day,
    link,
    make_entity,
    make_event,
    make_turn,
    unit_vector,
    vector_at_cosine,
)
from tests.store_writes import write

QUERY = unit_vector(100)


def _vector_events(ns, cosines, **fields):
    return [
        make_event(
            ns,
            f"v{i}",
            f"vector event {i}",
            minutes=i,
            embedding=vector_at_cosine(QUERY, c, seed=i),
            **fields,
        )
        for i, c in enumerate(cosines)
    ]


def test_vector_search_ranks_by_cosine(store, ns):
    cosines = [0.2, 0.9, -0.4, 0.6, 0.75]
    write(store, events=_vector_events(ns, cosines))
    hits = store.vector_search(ns, as_list(QUERY), 3)
    assert [h.id for h in hits] == ["v1", "v4", "v3"]
    assert [h.score for h in hits] == pytest.approx([0.9, 0.75, 0.6], abs=1e-3)
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 10)] == ["v1", "v4", "v3", "v0", "v2"]


def test_vector_search_stays_in_its_namespace(store, ns, other_ns):
    write(store, events=_vector_events(ns, [0.3, 0.5]))
    # Many closer events elsewhere: the shared Neo4j index must over-fetch past them.
    write(
        store,
        events=[
            make_event(other_ns, f"o{i}", "other", embedding=vector_at_cosine(QUERY, 0.95, seed=1000 + i))
            for i in range(300)
        ],
    )
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 5)] == ["v1", "v0"]


def test_vector_search_filters_status_and_dates(store, ns):
    events = _vector_events(ns, [0.9, 0.8, 0.7, 0.6])
    events[0] = events[0].model_copy(update={"status": EventStatus.ARCHIVED})
    events[1] = events[1].model_copy(update={"status": EventStatus.SUPERSEDED})
    events[2] = events[2].model_copy(update={"deadline": day(9)})
    write(store, events=events)
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 5)] == ["v2", "v3"]
    assert [h.id for h in store.vector_search(ns, as_list(QUERY), 5, filter=RecallFilter(None))] == [
        "v0",
        "v1",
        "v2",
        "v3",
    ]
    assert [
        h.id for h in store.vector_search(ns, as_list(QUERY), 5, filter=RecallFilter(statuses=["archived"]))
    ] == ["v0"]
    assert [
        h.id for h in store.vector_search(ns, as_list(QUERY), 5, filter=RecallFilter(time_from=day(5)))
    ] == ["v2"]
    assert [
        h.id for h in store.vector_search(ns, as_list(QUERY), 5, filter=RecallFilter(time_to=day(-1)))
    ] == []


def test_vector_search_refuses_a_vector_of_the_wrong_size(store, ns):
    write(store, events=_vector_events(ns, [0.5]))
    with pytest.raises(ValueError, match="dimension"):
        store.vector_search(ns, [1.0] * (DIM - 1), 3)


def _text_events(ns):
    return [
        make_event(ns, "en1", "Acme confirmed the contract renewal for March", minutes=0),
        make_event(ns, "en2", "The contract with Globex was cancelled", minutes=1),
        make_event(ns, "en3", "Lunch with the design team", minutes=2),
        make_event(ns, "zh1", "下周二之前把报告发给市场部的李经理", minutes=3, lang="zh"),
        make_event(ns, "zh2", "市场部下个月搬到新办公室", minutes=4, lang="zh"),
        make_event(ns, "sym", "foo and bar: the a:b* ratio went (up)", minutes=5),
    ]


def test_fulltext_search_ranks_matching_words(store, ns):
    write(store, events=_text_events(ns))
    hits = store.text_search(ns, TextQuery("contract renewal", 5))
    assert [h.id for h in hits] == ["en1", "en2"]
    assert hits[0].score > hits[1].score > 0
    assert store.text_search(ns, TextQuery("CONTRACT", 1))[0].id in {"en1", "en2"}
    assert store.text_search(ns, TextQuery("nothing matches this", 5)) == []


def test_fulltext_search_segments_chinese(store, ns):
    write(store, events=_text_events(ns))
    assert {h.id for h in store.text_search(ns, TextQuery("市场部", 5))} == {"zh1", "zh2"}
    assert [h.id for h in store.text_search(ns, TextQuery("报告", 5))] == ["zh1"]
    assert [h.id for h in store.text_search(ns, TextQuery("李经理的报告", 5))] == ["zh1"]


def test_a_joined_query_word_meets_its_parts(store, ns):
    # "transgender-specific" in a question, "a transgender poetry reading" in the memory: a joined
    # word would match only as the phrase of its parts, which the memory does not hold.
    write(store, events=[make_event(ns, "poetry", "It was a transgender poetry reading last night")])
    store.add_turns([make_turn(ns, "t-poetry", "It was a transgender poetry reading last night")])
    assert [h.id for h in store.text_search(ns, TextQuery("transgender-specific", 5))] == ["poetry"]
    assert [
        h.id for h in store.text_search(ns, TextQuery("transgender-specific events", 5, target="turns"))
    ] == ["t-poetry"]
    assert store.text_search(ns, TextQuery("cisgender-specific", 5)) == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('"foo AND (bar', {"sym"}),
        ("a:b*", {"sym"}),
        ("ratio~2 OR NOT lunch^3", {"sym", "en3"}),
        ("(*:)", set()),
        ('\\"] { } / || &&', set()),
        ("the and of", set()),  # stopwords only
    ],
)
def test_fulltext_search_treats_query_syntax_as_plain_words(store, ns, query, expected):
    write(store, events=_text_events(ns))
    assert {h.id for h in store.text_search(ns, TextQuery(query, 10))} == expected


def test_fulltext_search_filters_namespace_status_and_dates(store, ns, other_ns):
    write(store, events=_text_events(ns))
    write(store, events=[make_event(other_ns, "x", "contract renewal elsewhere")])
    store.apply_delta(
        GraphDelta(
            namespace=ns, event_patches=[EventPatch(ids=["en2"], fields={"status": EventStatus.ARCHIVED})]
        )
    )
    store.apply_delta(
        GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["en1"], fields={"dates": [day(30)]})])
    )
    assert [h.id for h in store.text_search(ns, TextQuery("contract", 5))] == ["en1"]
    assert {h.id for h in store.text_search(ns, TextQuery("contract", 5, filter=RecallFilter(None)))} == {
        "en1",
        "en2",
    }
    assert [
        h.id
        for h in store.text_search(
            ns, TextQuery("contract", 5, filter=RecallFilter(statuses=None, time_from=day(29)))
        )
    ] == ["en1"]
    assert [
        h.id for h in store.text_search(ns, TextQuery("contract", 5, filter=RecallFilter(time_to=day(-1))))
    ] == []


def test_fulltext_search_stays_in_its_namespace_past_many_better_matches(store, ns, other_ns):
    # Hundreds of better matches in another namespace: Neo4j's Lucene query must skip them itself
    # (it returns only its top rows), not filter them out afterwards.
    write(store, events=[make_event(ns, "mine", "the quarterly invoice arrived")])
    write(
        store, events=[make_event(other_ns, f"o{i}", "invoice invoice quarterly invoice") for i in range(300)]
    )
    assert [h.id for h in store.text_search(ns, TextQuery("quarterly invoice", 5))] == ["mine"]
    store.add_turns([make_turn(ns, "t1", "the quarterly invoice arrived")])
    store.add_turns([make_turn(other_ns, f"o{i}", "invoice invoice quarterly") for i in range(300)])
    assert [h.id for h in store.text_search(ns, TextQuery("quarterly invoice", 5, target="turns"))] == ["t1"]


def test_fulltext_search_reads_past_many_filtered_better_matches(store, ns):
    # The best-scoring matches are all archived: the active ones further down must still be found.
    archived = [
        make_event(ns, f"a{i:03d}", "invoice invoice invoice", status=EventStatus.ARCHIVED)
        for i in range(120)
    ]
    active = [
        make_event(ns, "late", "an invoice among many other words here"),
        make_event(ns, "later", "invoice sent"),
    ]
    write(store, events=archived + active)
    assert {h.id for h in store.text_search(ns, TextQuery("invoice", 5))} == {"late", "later"}
    assert len(store.text_search(ns, TextQuery("invoice", 200, filter=RecallFilter(None)))) == 122


def test_fulltext_search_sees_updated_text(store, ns):
    write(store, events=[make_event(ns, "e1", "the invoice is late")])
    write(store, events=[make_event(ns, "e1", "the shipment is late")])
    assert store.text_search(ns, TextQuery("invoice", 5)) == []
    assert [h.id for h in store.text_search(ns, TextQuery("shipment", 5))] == ["e1"]


def test_entity_events_follow_aliases_both_ways(store, ns):
    write(
        store,
        entities=[
            make_entity(ns, "acme", "Acme Corp"),
            make_entity(ns, "acme-short", "Acme"),
            make_entity(ns, "acme-cn", "艾克米"),
            make_entity(ns, "globex", "Globex"),
        ],
    )
    write(
        store,
        events=[
            make_event(ns, "e3", "acme short", minutes=3),
            make_event(ns, "e1", "acme canonical", minutes=1),
            make_event(ns, "e2", "acme in chinese", minutes=2, status=EventStatus.ARCHIVED),
            make_event(ns, "e4", "globex only", minutes=4),
            make_event(ns, "e0", "both", minutes=0, deadline=day(3)),
        ],
    )
    write(
        store,
        links=[
            link(ns, LinkKind.ALIAS_OF, "acme-short", "acme"),
            link(ns, LinkKind.ALIAS_OF, "acme-cn", "acme"),
            link(ns, LinkKind.MENTIONS, "e1", "acme"),
            link(ns, LinkKind.MENTIONS, "e3", "acme-short"),
            link(ns, LinkKind.MENTIONS, "e2", "acme-cn"),
            link(ns, LinkKind.MENTIONS, "e4", "globex"),
            link(ns, LinkKind.MENTIONS, "e0", "globex"),
            link(ns, LinkKind.MENTIONS, "e0", "acme"),
        ],
    )
    assert [e.id for e in store.events(ns, EventQuery(entity_ids=["acme-short"], filter=RecallFilter()))] == [
        "e0",
        "e1",
        "e3",
    ]
    assert [
        e.id for e in store.events(ns, EventQuery(entity_ids=["acme-cn"], filter=RecallFilter(None)))
    ] == ["e0", "e1", "e2", "e3"]
    assert [e.id for e in store.events(ns, EventQuery(entity_ids=["globex"], filter=RecallFilter()))] == [
        "e0",
        "e4",
    ]
    assert [
        e.id for e in store.events(ns, EventQuery(entity_ids=["acme"], filter=RecallFilter(time_from=day(2))))
    ] == ["e0"]
    assert store.events(ns, EventQuery(entity_ids=[], filter=RecallFilter())) == []
    assert store.events(ns, EventQuery(entity_ids=["nobody"], filter=RecallFilter())) == []


def test_entity_recall_ranks_storylines_of_several_entities_in_one_call(store, ns):
    # Acme (with its alias "Acme" short) and Globex; cosines to QUERY chosen so that the order is
    # decided by: named by both first, then cosine, then time for equal cosines.
    write(
        store,
        entities=[
            make_entity(ns, "acme", "Acme Corp"),
            make_entity(ns, "acme-s", "Acme"),
            make_entity(ns, "globex", "Globex"),
        ],
    )
    cosines = {"a1": 0.1, "a2": 0.8, "a3": 0.5, "g1": 0.9, "both": -0.5, "old": 0.3, "new": 0.3, "gone": 0.99}
    write(
        store,
        events=[
            make_event(
                ns,
                event_id,
                f"event {event_id}",
                minutes=i,
                embedding=vector_at_cosine(QUERY, c, seed=1 if c == 0.3 else i + 10),  # equal ties
                status=EventStatus.ARCHIVED if event_id == "gone" else "active",
            )
            for i, (event_id, c) in enumerate(cosines.items())
        ]
        + [make_event(ns, "bare", "no vector", minutes=20, embedding=None)],
    )
    mentions = {"a1": "acme", "a2": "acme-s", "a3": "acme", "g1": "globex", "old": "acme", "new": "acme"}
    write(
        store,
        links=[link(ns, LinkKind.ALIAS_OF, "acme-s", "acme")]
        + [link(ns, LinkKind.MENTIONS, e, entity) for e, entity in mentions.items()]
        + [link(ns, LinkKind.MENTIONS, "both", "acme-s"), link(ns, LinkKind.MENTIONS, "both", "globex")]
        + [link(ns, LinkKind.MENTIONS, "gone", "globex"), link(ns, LinkKind.MENTIONS, "bare", "acme")],
    )
    got = store.events(ns, RankedStorylines([["acme"], ["globex"]], QUERY, limit=20))
    assert [(e.id, named_by) for e, named_by in got] == [
        ("both", [0, 1]),  # named by both groups beats any cosine
        ("g1", [1]),
        ("a2", [0]),  # through the alias
        ("a3", [0]),
        ("old", [0]),  # equal cosines: oldest first
        ("new", [0]),
        ("a1", [0]),
        ("bare", [0]),  # no vector: cosine 0
    ]
    assert got[0][0].text == "event both" and got[0][0].embedding is not None
    assert [e.id for e, _ in store.events(ns, RankedStorylines([["acme"], ["globex"]], QUERY, limit=3))] == [
        "both",
        "g1",
        "a2",
    ]
    with_archived = store.events(
        ns, RankedStorylines([["globex"]], QUERY, limit=2, filter=RecallFilter(None))
    )
    assert [e.id for e, _ in with_archived] == ["gone", "g1"]
    assert [
        e.id
        for e, _ in store.events(
            ns, RankedStorylines([["acme-s"]], QUERY, limit=2, filter=RecallFilter(time_from=day(1)))
        )
    ] == []
    assert store.events(ns, RankedStorylines([["nobody"]], QUERY, limit=5)) == []
    assert store.events(ns, RankedStorylines([], QUERY, limit=5)) == []


def test_entity_recall_agrees_with_the_storylines_it_ranks(store, ns):
    # The store's ranking equals the contract's reading of it: entity_events per group, then the
    # one rule (GraphStore.entity_recall's default).
    from simplemem_graph.stores.base import GraphStore

    write(store, entities=[make_entity(ns, f"p{j}", f"Person {j}") for j in range(3)])
    write(
        store,
        events=[
            make_event(
                ns,
                f"e{i}",
                f"event {i}",
                minutes=i,
                embedding=vector_at_cosine(QUERY, (i % 7) / 7 - 0.4, seed=i % 7),
            )
            for i in range(40)
        ],
    )
    write(
        store,
        links=[
            link(ns, LinkKind.MENTIONS, f"e{i}", f"p{j}")
            for i in range(40)
            for j in range(3)
            if i % (j + 2) == 0
        ],
    )
    groups = [["p0"], ["p1"], ["p2"]]
    expected = GraphStore._entity_recall(store, ns, groups, QUERY, limit=12)
    got = store.events(ns, RankedStorylines(groups, QUERY, limit=12))
    assert [(e.id, g) for e, g in got] == [(e.id, g) for e, g in expected]
    assert len(got) == 12
