"""Aliases read from the shape of names: initials in parentheses or on their own, a Chinese firm
by its trade name alone. Made-up names; each rule with the cases that must not alias."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate.aliases import (
    find_explicit_aliases,
    initials,
    is_abbreviation,
    is_initials_of,
)
from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind
from simplemem_graph.stores.queries import EntityQuery

from .conftest import NS, entity_named, link_props, mentioned


@pytest.mark.parametrize(
    ("short", "full", "expected"),
    [
        ("BMS", "Brackenfield Marine Services", True),
        ("B.M.S.", "Brackenfield Marine Services", True),
        ("BSM", "Brackenfield Marine Services", False),  # the capitals in another order
        ("BM", "Brackenfield Marine Services", False),  # one word left out
        ("Bms", "Brackenfield Marine Services", False),  # not written as initials
        ("QT", "Quillon Trading", True),
        ("QT", "Quillon", False),  # one word has no initials
    ],
)
def test_initials_are_the_capitals_of_every_word(short, full, expected):
    assert is_initials_of(short, full) is expected
    assert is_abbreviation(short, full) is expected


def test_initials_leave_out_words_in_lower_case():
    assert initials("Guild of Yarrow Weavers") == "GYW"
    assert initials("深圳市岚桥建设") == ""


def test_full_name_then_initials_in_parentheses_is_alias_evidence():
    (evidence,) = find_explicit_aliases("Signed Brackenfield Marine Services (BMS) for the refit.")
    assert (evidence.full, evidence.alias, evidence.reason) == (
        "Brackenfield Marine Services",
        "BMS",
        "parenthesis",
    )
    assert find_explicit_aliases("Signed Brackenfield Marine Services (BSM) for the refit.") == []


def test_initials_in_parentheses_become_an_alias_and_name_the_firm_later(store, make_event, embedder):
    events = [
        make_event(
            "e1",
            "Signed Brackenfield Marine Services (BMS), two boatyards on the estuary.",
            "2026-03-02T10:00:00",
            orgs=("Brackenfield Marine Services",),
        ),
        make_event("e2", "BMS wants the invoice split in two", "2026-03-09T10:00:00", session="s2"),
    ]
    consolidate_batch(events, store, embedder=embedder)

    firm = entity_named(store, "BMS")
    assert firm.name == "Brackenfield Marine Services" and firm.type == "org"
    assert "BMS" in firm.aliases
    assert mentioned(store, "e2") == {"Brackenfield Marine Services"}


def test_initials_alone_resolve_to_the_one_firm_they_fit(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Tollgate Harbour Supplies sent the chandlery order",
                "2026-03-02T10:00:00",
                orgs=("Tollgate Harbour Supplies",),
            )
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e2", "THS confirmed delivery for Friday", "2026-03-04T10:00:00", session="s2")],
        store,
        embedder=embedder,
    )

    firm = entity_named(store, "Tollgate Harbour Supplies")
    assert mentioned(store, "e2") == {"Tollgate Harbour Supplies"}
    props = link_props(store, LinkKind.ALIAS_OF)[(entity_id(NS, "THS"), firm.id)]
    assert props["reason"] == "initials" and props["confidence"] < 1.0  # inferred, not stated


def test_initials_two_firms_share_stay_unresolved(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Tollgate Harbour Supplies sent the chandlery order",
                "2026-03-02T10:00:00",
                orgs=("Tollgate Harbour Supplies",),
            ),
            make_event(
                "e2",
                "Tern Hill Systems quoted for the radios",
                "2026-03-02T11:00:00",
                orgs=("Tern Hill Systems",),
            ),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e3", "THS confirmed delivery for Friday", "2026-03-04T10:00:00", session="s2")],
        store,
        embedder=embedder,
    )

    assert mentioned(store, "e3") == set()
    assert entity_named(store, "Tollgate Harbour Supplies").aliases == []
    assert entity_named(store, "Tern Hill Systems").aliases == []


def test_capitals_that_fit_no_known_firm_name_nothing(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Tollgate Harbour Supplies sent the chandlery order",
                "2026-03-02T10:00:00",
                orgs=("Tollgate Harbour Supplies",),
            ),
            make_event("e2", "the VPN dropped again, NAS is fine", "2026-03-02T11:00:00"),
        ],
        store,
        embedder=embedder,
    )
    assert mentioned(store, "e2") == set()
    assert entity_named(store, "Tollgate Harbour Supplies").aliases == []


def test_chinese_trade_name_alone_names_the_firm(store, make_event, embedder):
    consolidate_batch(
        [make_event("e1", "岚桥建设那边定了，仓库改造给我们做", "2026-03-02T10:00:00", orgs=("岚桥建设",))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e2", "岚桥的对接人说下周进场", "2026-03-05T10:00:00", session="s2")],
        store,
        embedder=embedder,
    )

    firm = entity_named(store, "岚桥")
    assert firm.name == "岚桥建设" and firm.aliases == ["岚桥"]
    assert mentioned(store, "e2") == {"岚桥建设"}


def test_chinese_trade_name_two_firms_share_stays_unresolved(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("e1", "岚桥建设那边定了", "2026-03-02T10:00:00", orgs=("岚桥建设",)),
            make_event("e2", "岚桥物流报了运费", "2026-03-02T11:00:00", orgs=("岚桥物流",)),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e3", "岚桥的对接人说下周进场", "2026-03-05T10:00:00", session="s2")],
        store,
        embedder=embedder,
    )

    assert mentioned(store, "e3") == set()
    assert entity_named(store, "岚桥建设").aliases == []
    assert entity_named(store, "岚桥物流").aliases == []


def test_known_trade_name_before_a_common_noun_is_the_firm_not_a_second_one(store, make_event, embedder):
    consolidate_batch(
        [make_event("e1", "岚桥建设那边定了", "2026-03-02T10:00:00", orgs=("岚桥建设",))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e2", "岚桥项目下周开工", "2026-03-05T10:00:00", session="s2", orgs=("岚桥项目",))],
        store,
        embedder=embedder,
    )

    assert mentioned(store, "e2") == {"岚桥建设"}
    assert "岚桥项目" not in {e.name for e in store.entities(NS, EntityQuery())}  # no second firm
