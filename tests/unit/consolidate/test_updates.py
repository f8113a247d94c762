"""SUPERSEDES on explicit changes, CONTRADICTS on unexplained ones, nothing for unrelated values."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.consolidate import list_conflicts
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.memory import Memory
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery
from tests.durability_support import HashEmbedder

from .conftest import CST, NS, link_props, links_of


def test_explicit_date_change_supersedes_and_closes_the_older_event(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "d1",
                "锐拓第二批1万件3月6日前交货",
                "2026-01-12T09:50:00",
                session="s2",
                orgs=("锐拓",),
                dates=("2026-03-06",),
            )
        ],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [
            make_event(
                "d2",
                "锐拓第二批交期要从3月6日推到3月13日",
                "2026-02-26T17:42:00",
                session="s5",
                orgs=("锐拓",),
                dates=("2026-03-06", "2026-03-13"),
            )
        ],
        store,
        embedder=embedder,
    )

    assert link_props(store, LinkKind.SUPERSEDES) == {
        ("d2", "d1"): {"attribute": "date", "old": [], "new": ["2026-03-13"], "marker": "推到"}
    }
    older = store.events(NS, EventQuery(ids=["d1"]))[0]
    assert older.status == "superseded"
    assert older.valid_to.astimezone(CST).isoformat() == "2026-02-26T17:42:00+08:00"
    assert delta.counts["SUPERSEDES"] == 1 and delta.counts["CONTRADICTS"] == 0
    assert [h.id for h in store.vector_search(NS, embedder.encode(["第二批交期"])[0], 5)] == ["d2"]


def test_english_price_change_without_marker_is_a_conflict(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "p1",
                "Globex quoted the bracket at 3.6 dollars each",
                "2026-01-05T10:00:00",
                orgs=("Globex",),
                money=(3.6,),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "p2",
                "Globex quoted the bracket at 3.85 dollars each",
                "2026-01-20T10:00:00",
                session="s2",
                orgs=("Globex",),
                money=(3.85,),
            )
        ],
        store,
        embedder=embedder,
    )

    assert links_of(store, LinkKind.CONTRADICTS) == {("p2", "p1")}
    assert links_of(store, LinkKind.SUPERSEDES) == set()
    assert store.events(NS, EventQuery(ids=["p1"]))[0].status == "active"  # flagged, never silently replaced
    (conflict,) = list_conflicts(store, NS)
    assert (conflict.newer.id, conflict.older.id, conflict.attribute) == ("p2", "p1", "money")
    assert conflict.as_dict()["newer"]["source_ids"] == ["s2:p2"]


def test_english_explicit_move_supersedes(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "m1",
                "The Acme kickoff is on March 5",
                "2026-03-01T10:00:00",
                orgs=("Acme",),
                dates=("2026-03-05",),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "m2",
                "Acme moved the kickoff to March 12",
                "2026-03-02T10:00:00",
                orgs=("Acme",),
                dates=("2026-03-12",),
            )
        ],
        store,
        embedder=embedder,
    )
    assert links_of(store, LinkKind.SUPERSEDES) == {("m2", "m1")}


def test_different_amounts_about_different_things_are_left_alone(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "u1",
                "锐拓QM-220铝支架含税单价3.85元/件",
                "2026-01-12T09:40:00",
                orgs=("锐拓",),
                money=(3.85,),
            ),
            make_event(
                "u2",
                "我们答应签约后付30%定金23100元给锐拓",
                "2026-01-12T09:55:00",
                orgs=("锐拓",),
                money=(23100,),
            ),
        ],
        store,
        embedder=embedder,
    )
    assert links_of(store, LinkKind.SUPERSEDES) | links_of(store, LinkKind.CONTRADICTS) == set()


def test_unrelated_chinese_events_about_one_client_are_not_a_conflict(store, make_event, embedder):
    # MiniLM scores these two ~0.87 though they share nothing but the client: for Chinese only
    # shared words may show "same subject", so two dates of different things never conflict.
    first = make_event(
        "c1",
        "博瑞科技的孙总3月1日来电话，想采购300台扫码枪",
        "2026-03-02T09:16:00",
        orgs=("博瑞科技",),
        dates=("2026-03-01",),
        lang="zh",
    )
    second = make_event(
        "c2",
        "博瑞科技确认了订单，首付款3月27日之前到账",
        "2026-03-16T15:00:00",
        session="s3",
        orgs=("博瑞科技",),
        dates=("2026-03-27",),
        lang="zh",
    )
    consolidate_batch([first], store, embedder=embedder)
    consolidate_batch([second], store, embedder=embedder)
    assert links_of(store, LinkKind.CONTRADICTS) == set()
    assert list_conflicts(store, NS) == []


def _random_word(rng, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


@pytest.mark.parametrize("seed", range(4))
def test_an_explicit_change_supersedes_the_plan_it_names_not_the_latest_change(seed):
    """ "看牙医改到5月27号" shares 改到/月/号 with "见房东改到5月21号" and nothing else: it must revise
    "约了5月24号去看牙医", the plan it names. Activities are random characters (no word list)."""
    rng = random.Random(seed)
    pool = "岚茗烁琪璐珂瑶翎骁澜昕锦湘黛珀蔚霁汐榕樾"
    zh = [f"{verb}{_random_word(rng, pool, 2)}" for verb in rng.sample(["见", "取", "修", "拜访", "陪"], 3)]
    en = [
        f"the {_random_word(rng, 'bdfgklmnprstvz', 1)}{_random_word(rng, 'aeiou', 1)}"
        f"{_random_word(rng, 'lmnrst', 1)}{_random_word(rng, 'aeiou', 1)} review"
        for _ in range(3)
    ]
    start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 200))
    turns, plan_ids, change_ids = [], {}, {}
    for i, (zh_act, en_act) in enumerate(zip(zh, en, strict=True)):
        when = start + timedelta(days=10 + i)
        turns.append(
            Turn(
                id=f"p{i}",
                session=f"s{i}",
                time=start + timedelta(hours=i),
                speaker="user",
                text=f"约了{when.month}月{when.day}号去{zh_act}，别让我忘了。",
            )
        )
        turns.append(
            Turn(
                id=f"e{i}",
                session=f"s{i}",
                time=start + timedelta(hours=i, minutes=1),
                speaker="user",
                text=f"{en_act.capitalize()} is on {when:%B} {when.day}.",
            )
        )
        plan_ids[zh_act], plan_ids[en_act] = f"p{i}", f"e{i}"
    for i, (zh_act, en_act) in enumerate(reversed(list(zip(zh, en, strict=True)))):
        moved = start + timedelta(days=20 + i)
        at = start + timedelta(days=3 + i)
        turns.append(
            Turn(
                id=f"c{i}",
                session=f"t{i}",
                time=at,
                speaker="user",
                text=f"{zh_act}改到{moved.month}月{moved.day}号了。",
            )
        )
        turns.append(
            Turn(
                id=f"m{i}",
                session=f"t{i}",
                time=at + timedelta(minutes=1),
                speaker="user",
                text=f"We moved {en_act} to {moved:%B} {moved.day}.",
            )
        )
        change_ids[zh_act], change_ids[en_act] = f"c{i}", f"m{i}"
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    memory.add_many(turns)
    events = {e.id: e for e in memory.store.events("u", EventQuery())}
    supersedes = {
        (events[link.source].source_ids[0], events[link.target].source_ids[0])
        for link in memory.store.links("u", kinds=[LinkKind.SUPERSEDES])
    }
    assert supersedes == {(change_ids[a], plan_ids[a]) for a in (*zh, *en)}


@pytest.mark.parametrize("seed", range(4))
def test_two_plans_or_purchases_in_one_template_are_not_a_conflict(seed):
    """ "约了5月28号去修电脑" and "约了6月7号去体检", or two purchases at one shop, are alike texts with
    different values about different things: no CONTRADICTS (one thing with two values still is:
    test_english_price_change_without_marker_is_a_conflict). Random activities and items."""
    rng = random.Random(seed)
    pool = "岚茗烁琪璐珂瑶翎骁澜昕锦湘黛珀蔚霁汐榕樾"
    shop, first, second = (_random_word(rng, pool, 3) for _ in range(3))
    start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC) + timedelta(days=rng.randint(0, 200))
    lines = [
        f"约了{(start + timedelta(days=9)):%-m月%-d号}去{first}，别让我忘了。",
        f"约了{(start + timedelta(days=12)):%-m月%-d号}去{second}，别让我忘了。",
        f"今天在{shop}商场买了个{first}背包，花了{rng.randint(100, 300)}块。",
        f"今天在{shop}商场买了个{second}耳机，花了{rng.randint(400, 900)}块。",
    ]
    turns = [
        Turn(id=f"t{i}", session=f"d{i}", time=start + timedelta(days=i), speaker="我", text=text)
        for i, text in enumerate(lines)
    ]
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    memory.add_many(turns)
    assert memory.store.links("u", kinds=[LinkKind.CONTRADICTS]) == []


def test_a_reported_chinese_change_is_about_the_nouns_of_its_own_clause(store, make_event, embedder):
    # "比原计划早一天" after the change comments on it; the subject is 澄岭's 外壳 (made-up firm),
    # which the older quote names inside a longer registered name
    consolidate_batch(
        [
            make_event(
                "q1",
                "另外东莞澄岭塑胶制品有限公司的报价也到了，QM-220外壳，1.25元/件，她说2月5日能交货。",
                "2026-01-08T10:10:00",
                session="s1",
                orgs=("东莞澄岭塑胶制品有限公司",),
                dates=("2026-02-05",),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "q2",
                "澄岭的邱敏说外壳可以提前到2月4日交，比原计划早一天。",
                "2026-02-02T09:50:00",
                session="s3",
                orgs=("澄岭",),
                dates=("2026-02-04",),
            )
        ],
        store,
        embedder=embedder,
    )

    assert ("q2", "q1") in link_props(store, LinkKind.SUPERSEDES)
    assert store.events(NS, EventQuery(ids=["q1"]))[0].status == "superseded"


def test_a_chinese_change_of_another_thing_supersedes_nothing(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "p1",
                "澄岭的外壳报价1.25元/件，2月5日能交货。",
                "2026-01-08T10:10:00",
                session="s1",
                orgs=("澄岭",),
                dates=("2026-02-05",),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "p2",
                "宏达的铜柱样品提前到2月4日寄出，比原计划早一天。",
                "2026-02-02T09:50:00",
                session="s3",
                orgs=("宏达",),
                dates=("2026-02-04",),
            )
        ],
        store,
        embedder=embedder,
    )

    assert ("p2", "p1") not in link_props(store, LinkKind.SUPERSEDES)


def test_an_arrow_to_a_date_that_opens_with_its_weekday_is_a_change():
    from simplemem_graph.consolidate.updates import EXPLICIT_CHANGE

    assert EXPLICIT_CHANGE.search("Updated: handover Fri 20 Nov → Fri 27 Nov (inspection first).")
    assert EXPLICIT_CHANGE.search("已更新：交付 5月9日 → 周五 5月16日")
    # the new value with a label of its own
    assert EXPLICIT_CHANGE.search("已更新：报价¥52,000 → 合同价¥61,500（加了灯光）")
    assert not EXPLICIT_CHANGE.search("rota: Fri → Sat this week")  # no value on either side
    assert not EXPLICIT_CHANGE.search("流程图 → 第3步")  # no value before the arrow
