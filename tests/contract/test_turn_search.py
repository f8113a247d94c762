"""The turn fulltext channel: the raw log searched by words, whatever stage 1 kept of it."""

from __future__ import annotations

import pytest

from tests.contract.contract_data import make_turn


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
    hits = store.turn_search(ns, "contract renewal", 5)
    assert [h.id for h in hits] == ["t1", "t2"]
    assert hits[0].score > hits[1].score > 0
    assert [h.id for h in store.turn_search(ns, "contract renewal", 1)] == ["t1"]
    assert store.turn_search(ns, "nothing matches this", 5) == []
    assert store.turn_search(ns, "contract", 0) == []


def test_turn_search_segments_chinese(store, ns):
    store.add_turns(_turns(ns))
    assert {h.id for h in store.turn_search(ns, "市场部", 5)} == {"t4", "t5"}
    assert [h.id for h in store.turn_search(ns, "李经理的报告", 5)] == ["t4"]


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
    assert {h.id for h in store.turn_search(ns, query, 10)} == expected


def test_turn_search_stays_in_its_namespace_and_is_idempotent(store, ns, other_ns):
    store.add_turns(_turns(ns))
    store.add_turns(_turns(ns))  # already logged: must not be indexed twice
    store.add_turns([make_turn(other_ns, "x1", "contract renewal elsewhere")])
    assert [h.id for h in store.turn_search(ns, "renewal", 5)] == ["t1"]
    assert [h.id for h in store.turn_search(other_ns, "renewal", 5)] == ["x1"]


def test_turn_search_forgets_a_deleted_namespace(store, ns):
    store.add_turns(_turns(ns))
    store.delete_namespace(ns)
    assert store.turn_search(ns, "contract", 5) == []
    store.add_turns([make_turn(ns, "t9", "a new contract")])
    assert [h.id for h in store.turn_search(ns, "contract", 5)] == ["t9"]
