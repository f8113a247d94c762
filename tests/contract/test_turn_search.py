"""The turn fulltext channel: the raw log searched by words, whatever stage 1 kept of it."""

from __future__ import annotations

import pytest

from simplemem_graph.models import GraphDelta
from simplemem_graph.stores.queries import EventQuery, RecallFilter, TextQuery, TurnRecall
from tests.contract.contract_data import make_turn
from tests.store_writes import write


def _turns(ns):
    return [
        make_turn(ns, "t1", "Acme confirmed the contract renewal for March", minutes=0),
        make_turn(ns, "t2", "The contract with Globex was cancelled", minutes=1),
        make_turn(ns, "t3", "Lunch with the design team", minutes=2),
        make_turn(ns, "t4", "下周二之前把报告发给市场部的李经理", minutes=3),
        make_turn(ns, "t5", "市场部下个月搬到新办公室", minutes=4),
        make_turn(ns, "t6", "foo and bar: the a:b* ratio went (up)", minutes=5),
    ]


def test_turn_search_ranks_matching_turns(store, ns):
    store.add_turns(_turns(ns))
    hits = store.text_search(ns, TextQuery("contract renewal", 5, target="turns"))
    assert [h.id for h in hits] == ["t1", "t2"]
    assert hits[0].score > hits[1].score > 0
    assert [h.id for h in store.text_search(ns, TextQuery("contract renewal", 1, target="turns"))] == ["t1"]
    assert store.text_search(ns, TextQuery("nothing matches this", 5, target="turns")) == []
    assert store.text_search(ns, TextQuery("contract", 0, target="turns")) == []


def test_turn_search_segments_chinese(store, ns):
    store.add_turns(_turns(ns))
    assert {h.id for h in store.text_search(ns, TextQuery("市场部", 5, target="turns"))} == {"t4", "t5"}
    assert [h.id for h in store.text_search(ns, TextQuery("李经理的报告", 5, target="turns"))] == ["t4"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('"foo AND (bar', {"t6"}),
        ("a:b*", {"t6"}),
        ("ratio~2 OR NOT lunch^3", {"t6", "t3"}),
        ("(*:)", set()),
        ('\\"] { } / || &&', set()),
        ("the and of", set()),  # stopwords only
    ],
)
def test_turn_search_treats_query_syntax_as_plain_words(store, ns, query, expected):
    store.add_turns(_turns(ns))
    assert {h.id for h in store.text_search(ns, TextQuery(query, 10, target="turns"))} == expected


def test_turn_search_stays_in_its_namespace_and_is_idempotent(store, ns, other_ns):
    store.add_turns(_turns(ns))
    store.add_turns(_turns(ns))  # already logged: must not be indexed twice
    store.add_turns([make_turn(other_ns, "x1", "contract renewal elsewhere")])
    assert [h.id for h in store.text_search(ns, TextQuery("renewal", 5, target="turns"))] == ["t1"]
    assert [h.id for h in store.text_search(other_ns, TextQuery("renewal", 5, target="turns"))] == ["x1"]


def test_turn_search_forgets_a_deleted_namespace(store, ns):
    store.add_turns(_turns(ns))
    store.delete_namespace(ns)
    assert store.text_search(ns, TextQuery("contract", 5, target="turns")) == []
    store.add_turns([make_turn(ns, "t9", "a new contract")])
    assert [h.id for h in store.text_search(ns, TextQuery("contract", 5, target="turns"))] == ["t9"]


def test_chinese_names_cut_another_way_by_jieba_still_match(store, ns):
    """jieba cuts a rare name one way in a memory and another in a question (湘黛 / 湘 黛), and a
    hurried question shortens it (乐光鞋 for 乐光跑鞋): the character pairs of `search_terms` meet."""
    from tests.contract.contract_data import make_event

    store.add_turns([make_turn(ns, "t1", "今天在鸣锦咖啡馆买了个乐光跑鞋，花了278块。")])
    write(store, events=[make_event(ns, "e1", "约了7月16号去湘黛，别让我忘了。")])
    assert [h.id for h in store.text_search(ns, TextQuery("乐光鞋多少钱买的", 5, target="turns"))] == ["t1"]
    assert [h.id for h in store.text_search(ns, TextQuery("湘黛现在定在哪天", 5))] == ["e1"]


def test_a_lone_chinese_function_character_of_the_question_meets_no_turn(store, ns):
    """ "哪儿不舒服" asks for 舒服 and the pair 不舒, not for 不 alone, which every negation has
    ("不知道该怎么开始"); a turn that says 不舒服 is still found."""
    store.add_turns(
        [
            make_turn(ns, "t1", "我不知道该怎么开始，也不确定这个任务应该怎么做", minutes=0),
            make_turn(ns, "t2", "公公最近腰疼，躺床上很不舒服", minutes=1),
            make_turn(ns, "t3", "都在群里说了，和老板也讲了", minutes=2),
        ]
    )
    assert [h.id for h in store.text_search(ns, TextQuery("老公他爸哪儿不舒服", 5, target="turns"))] == ["t2"]
    assert store.text_search(ns, TextQuery("都和不", 5, target="turns")) == []


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def reopenable(request, tmp_path):
    """(open, wipe): open a store on one database again and again; wipe its fulltext terms, as a
    store written by a version with other terms would have them."""
    if request.param == "embedded":
        from simplemem_graph.stores.embedded import EmbeddedStore

        path = tmp_path / "memory.db"

        def wipe(store):
            store._conn.execute("DELETE FROM events_fts")
            store._conn.execute("DELETE FROM turns_fts")

        return (lambda: EmbeddedStore(path)), wipe
    from simplemem_graph.stores.neo4j import Neo4jStore
    from tests import neo4j_server

    uri = request.getfixturevalue("neo4j_uri")

    def wipe(store):
        store._driver.execute_query("MATCH (n) WHERE n:Event OR n:Turn SET n.search_text = ''")

    return (lambda: Neo4jStore.connect(uri, auth=neo4j_server.configured_auth(), dimension=384)), wipe


def test_a_store_written_with_other_search_terms_is_reindexed_when_opened(reopenable):
    from uuid import uuid4

    from simplemem_graph.text import SEARCH_TERMS_VERSION
    from tests.contract.contract_data import make_event

    open_store, wipe = reopenable
    ns = f"t-{uuid4().hex[:12]}"
    store = open_store()
    try:
        store.add_turns([make_turn(ns, "t1", "市场部下个月搬到新办公室")])
        write(store, events=[make_event(ns, "e1", "下周二之前把报告发给市场部的李经理")])
        wipe(store)
        store.apply_delta(GraphDelta(meta={"search_terms": "words"}))
        assert (
            store.text_search(ns, TextQuery("市场部", 5, target="turns")) == []
        )  # the wiped index finds nothing
    finally:
        store.close()
    store = open_store()
    try:
        assert store.get_meta("search_terms") == SEARCH_TERMS_VERSION
        assert [h.id for h in store.text_search(ns, TextQuery("市场部", 5, target="turns"))] == ["t1"]
        assert [h.id for h in store.text_search(ns, TextQuery("李经理", 5))] == ["e1"]
    finally:
        store.delete_namespace(ns)
        store.close()


@pytest.mark.neo4j
def test_a_neo4j_store_without_namespace_tokens_gets_them_when_opened(neo4j_uri):
    """A database written before the fulltext indexes held the namespace token (search_ns), with
    the text-only indexes of then: opening it drops those and gives every node its token."""
    from uuid import uuid4

    from simplemem_graph.stores.neo4j import Neo4jStore
    from tests import neo4j_server
    from tests.contract.contract_data import make_event

    def connect():
        return Neo4jStore.connect(neo4j_uri, auth=neo4j_server.configured_auth(), dimension=384)

    ns = f"t-{uuid4().hex[:12]}"
    store = connect()
    try:
        store.add_turns([make_turn(ns, "t1", "the quarterly invoice arrived")])
        write(store, events=[make_event(ns, "e1", "the quarterly invoice arrived")])
        store._driver.execute_query("MATCH (n) WHERE n:Event OR n:Turn REMOVE n.search_ns")
        store._driver.execute_query(
            "CREATE FULLTEXT INDEX event_text IF NOT EXISTS FOR (n:Event) ON EACH [n.search_text]"
        )
        store.apply_delta(GraphDelta(meta={"search_fields": "text-only"}))
        assert store.text_search(ns, TextQuery("invoice", 5)) == []  # no token: the namespace clause misses
    finally:
        store.close()
    store = connect()
    try:
        assert [h.id for h in store.text_search(ns, TextQuery("invoice", 5))] == ["e1"]
        assert [h.id for h in store.text_search(ns, TextQuery("invoice", 5, target="turns"))] == ["t1"]
        indexes = store._driver.execute_query("SHOW FULLTEXT INDEXES YIELD name RETURN name").records
        assert "event_text" not in {r["name"] for r in indexes}
    finally:
        store.delete_namespace(ns)
        store.close()


def test_turn_recall_returns_the_events_of_the_best_turns_in_one_call(store, ns):
    from simplemem_graph.models import EventStatus, LinkKind
    from simplemem_graph.stores.base import GraphStore
    from tests.contract.contract_data import day, link, make_event

    store.add_turns(_turns(ns))
    events = {
        "b2": ("t1", {}),
        "a1": ("t1", {}),
        "c1": ("t2", {}),
        "old": ("t2", {"status": EventStatus.ARCHIVED}),
        "due": ("t2", {"deadline": day(5)}),
        "lunch": ("t3", {}),
    }
    write(
        store,
        events=[
            make_event(ns, e, f"event {e}", minutes=i, **f) for i, (e, (_, f)) in enumerate(events.items())
        ],
    )
    write(store, links=[link(ns, LinkKind.FROM, e, turn) for e, (turn, _) in events.items()])
    # the best turn's events first (t1 ranks above t2), then by id; archived ones filtered out
    assert [e.id for e in store.text_search(ns, TurnRecall("contract renewal", 5))] == [
        "a1",
        "b2",
        "c1",
        "due",
    ]
    assert [
        e.id for e in store.text_search(ns, TurnRecall("contract renewal", 5, filter=RecallFilter(None)))
    ] == [
        "a1",
        "b2",
        "c1",
        "due",
        "old",
    ]
    assert [e.id for e in store.text_search(ns, TurnRecall("contract renewal", 1))] == ["a1", "b2"]
    assert [
        e.id for e in store.text_search(ns, TurnRecall("contract", 5, filter=RecallFilter(time_from=day(4))))
    ] == ["due"]
    assert store.text_search(ns, TurnRecall("nothing matches this", 5)) == []
    assert store.text_search(ns, TurnRecall("contract", 0)) == []
    got = store.text_search(ns, TurnRecall("contract renewal lunch", 5, filter=RecallFilter(None)))
    assert [e.id for e in got] == [
        e.id for e in GraphStore._turn_recall(store, ns, "contract renewal lunch", 5, statuses=None)
    ]
    assert (
        got[0].text == "event a1"
        and got[0].embedding == store.events(ns, EventQuery(ids=["a1"]))[0].embedding
    )
