"""SUPERSEDES on explicit changes, CONTRADICTS on unexplained ones, nothing for unrelated values."""

from __future__ import annotations

from simplemem_graph.consolidate import consolidate, list_conflicts
from simplemem_graph.models import LinkKind

from .conftest import CST, NS, link_props, links_of


def test_explicit_date_change_supersedes_and_closes_the_older_event(store, make_event, embedder):
    consolidate(
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
    delta = consolidate(
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
    older = store.get_events(NS, ["d1"])[0]
    assert older.status == "superseded"
    assert older.valid_to.astimezone(CST).isoformat() == "2026-02-26T17:42:00+08:00"
    assert delta.counts["SUPERSEDES"] == 1 and delta.counts["CONTRADICTS"] == 0
    assert [h.id for h in store.vector_search(NS, embedder.encode(["第二批交期"])[0], 5)] == ["d2"]


def test_english_price_change_without_marker_is_a_conflict(store, make_event, embedder):
    consolidate(
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
    consolidate(
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
    assert store.get_events(NS, ["p1"])[0].status == "active"  # flagged, never silently replaced
    (conflict,) = list_conflicts(store, NS)
    assert (conflict.newer.id, conflict.older.id, conflict.attribute) == ("p2", "p1", "money")
    assert conflict.as_dict()["newer"]["source_ids"] == ["s2:p2"]


def test_english_explicit_move_supersedes(store, make_event, embedder):
    consolidate(
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
    consolidate(
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
    consolidate(
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
    consolidate([first], store, embedder=embedder)
    consolidate([second], store, embedder=embedder)
    assert links_of(store, LinkKind.CONTRADICTS) == set()
    assert list_conflicts(store, NS) == []
