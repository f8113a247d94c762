"""Suppliers said as people say them, given names, handovers and places (stop 52), each found
reading a held-out story and written here with made-up names: "there own surveyors X", "their ain
florist. X, oot of Y", "<client>'s own surveyor, X", "X is contracted by <client>" and "他们自己长期
合作的一家，X" give the client's own supplier; 付家明's colleagues call him 家明 (never inside 大家明天);
who takes over from someone of a client works at that client, not at the job taken over; "<word>
那家药厂" is the one firm an address line after its name puts there. Each case failed on the code
before; guards pass on both."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate.aliases import (
    find_descriptive_references,
    find_explicit_aliases,
    short_forms,
)
from simplemem_graph.consolidate.focus import _possessed
from simplemem_graph.consolidate.name_matching import short_form_occurs

from .conftest import entity_named, mentioned, run_session


@pytest.mark.parametrize(
    ("text", "supplier", "client"),
    [
        (
            "ashgrove use there own surveyors Tarnbeck Environmental, they book",
            "Tarnbeck Environmental",
            "Ashgrove",
        ),
        (
            "Catch is they insist on their ain florist n stylist. Heather & Fern, oot of Selkirk.",
            "Heather & Fern",
            "Dunmore",
        ),
        (
            "no work until Ashgrove's own asbestos surveyor, Tarnbeck Environmental, has been",
            "Tarnbeck Environmental",
            "Ashgrove",
        ),
        ("Tarnbeck is contracted by Ashgrove, not by you.", "Tarnbeck", "Ashgrove"),
        ("大屏不归我们搞，是他们自己长期合作的一家，汉辉视讯，屏和片子都是那边出", "汉辉视讯", "康润药业"),
    ],
)
def test_a_clients_own_contractor_as_people_write_it(text, supplier, client):
    assert _possessed(text, supplier, [client])


@pytest.mark.parametrize(
    ("text", "supplier"),
    [
        ("I use my own van. Their own team did it. Halvard was late", "Halvard"),  # not a fragment naming it
        ("Their own team did it with Halvard", "Halvard"),  # a preposition: whom they worked with
        ("我们自己长期合作的一家，汉辉视讯", "汉辉视讯"),  # ours, not theirs
    ],
)
def test_what_is_not_given_as_theirs_is_no_supplier(text, supplier):
    assert not _possessed(text, supplier, ["Ashgrove"])


def test_a_chinese_full_name_goes_by_its_given_name():
    assert short_forms("付家明", "person") == ["家明"]
    assert short_forms("王建国", "person") == []  # 建国 is a word of its own
    assert short_form_occurs("家明", "家明蛮板扎，一进群就发了", given_name=True)
    assert not short_form_occurs("家明", "大家明天都来", given_name=True)  # 大家 | 明天
    assert short_form_occurs("耀光", "耀光亮化工程")  # a trade name runs into its trade


def test_a_given_name_said_alone_is_the_known_person(store, make_event, embedder):
    firm = "湖北康润药业股份有限公司"
    run_session(
        store,
        make_event,
        embedder,
        (f"对接的是{firm}的品牌经理沈若溪", {"orgs": (firm,), "people": ("沈若溪",)}),
        ("若溪讲她月底休产假，交给家明，付家明，也是市场部的", {"people": ("若溪", "付家明")}),
        ("家明蛮板扎，一进群就把手册甩过来了", {}),
    )
    assert "付家明" in mentioned(store, "e3")
    assert "家明" in entity_named(store, "付家明").aliases


def test_who_takes_over_from_a_clients_person_works_at_the_client(store, make_event, embedder):
    firm = "Ashgrove Housing Association Limited"
    ties = run_session(
        store,
        make_event,
        embedder,
        (
            f"this is who i deal with\n\nKind regards\nMaeve Tolland\nProject Officer\n{firm}",
            {"orgs": (firm,), "people": ("Maeve Tolland",)},
        ),
        (
            "maeve going on mat leave. Rowan Achebe taking over Fenwick Court from monday",
            {"orgs": ("Fenwick Court",), "people": ("Maeve", "Rowan Achebe")},
        ),
    )
    assert ("Rowan Achebe", firm) in ties
    assert ("Rowan Achebe", "Fenwick Court") not in ties


def test_a_firm_by_where_its_address_puts_it():
    found = find_descriptive_references("光谷那家药厂是真的细，打了三回样")
    assert [(r.surface, r.place, r.located) for r in found] == [("光谷那家药厂", "光谷", True)]
    assert [r.surface for r in find_descriptive_references("The Peebles lot want a shot list")] == [
        "The Peebles lot"
    ]
    assert not find_descriptive_references("The Monday people were late")  # when, not where


def test_the_firm_someone_of_a_client_chose_is_the_clients_supplier(store, make_event, embedder):
    """A new session opens on the supplier itself ("是邹总自己找净烽环保装的"): whose supplier it is
    is the employer of the one who chose it, not the session's first firm."""
    from simplemem_graph.ingest import consolidate_batch

    from .conftest import log_turns, works_at_names

    client = "重庆巷陌餐饮管理有限公司"
    turns = [
        ("s1:1", "2026-03-02T09:02:00", f"新客户{client}，对接人是他们的邹总"),
        ("s2:1", "2026-03-09T09:02:00", "有个事说清楚：油烟净化器不归我们，是邹总自己找澄烽环保装的"),
    ]
    log_turns(store, *turns)
    events = [
        make_event("e1", turns[0][2], turns[0][1], turn="s1:1", orgs=(client,), people=("邹总",)),
        make_event(
            "e2", turns[1][2], turns[1][1], session="s2", turn="s2:1", orgs=("澄烽环保",), people=("邹总",)
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)
    ties = works_at_names(store)
    assert ("邹总", client) in ties
    assert ("澄烽环保", client) in ties


def test_one_firm_in_two_scripts_on_a_signature_line():
    line = "林晓岚 Xiaolan Lin\n行銷企劃\n澄邑教育事業股份有限公司 Chengyi Education Co., Ltd.\nT: 04-2245"
    known = [("澄邑教育", "org"), ("股份有限公司", "org"), ("Chengyi Education Co.", "org")]
    found = [(e.full, e.alias) for e in find_explicit_aliases(line, known) if e.reason == "two-scripts"]
    assert found == [("澄邑教育", "Chengyi Education Co.")]
    # guard: no registered Chinese name before the Latin one
    plain = find_explicit_aliases("澄邑教育 Chengyi Education Co.", known)
    assert not [e for e in plain if e.reason == "two-scripts"]
