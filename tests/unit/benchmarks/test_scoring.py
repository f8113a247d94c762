"""The benchmark metrics: budgets, nDCG's ideal, MRR by the first gold item, the baselines."""

import json

import pytest

from bench.baselines import Item, RawTurnIndex, bm25_tokens, rrf
from bench.scoring import Board, Ranked, fill_budget, score_question
from bench.zh_devset import generate


def _items(*specs):
    return [Item(tuple(ids), text) for ids, text in specs]


def test_a_memory_covering_every_gold_turn_scores_ndcg_one_not_more():
    deep = _items((["a", "b", "c"], "one memory covering three gold turns"), (["x"], "noise"))
    row = score_question(Ranked(deep[:5], deep), {"a", "b", "c"}, ours_budget=100)
    assert row["R@1"] == 1.0
    assert row["nDCG@10"] <= 1.0
    assert row["MRR"] == 1.0


def test_mrr_is_by_the_first_item_showing_any_gold_turn():
    deep = _items((["x"], "noise"), (["y"], "noise"), (["b"], "gold"), (["a"], "gold"))
    row = score_question(Ranked(deep[:5], deep), {"a", "b"}, ours_budget=100)
    assert row["MRR"] == pytest.approx(1 / 3)
    assert row["R@1"] == 0.0 and row["R@5"] == 1.0


def test_budget_fills_best_first_and_skips_what_does_not_fit():
    deep = _items(
        (["a"], "one two three four five six"),
        (["b"], "one two three four five six seven eight"),
        (["c"], "x y"),
    )
    assert [i.ids for i in fill_budget(deep, 8)] == [("a",), ("c",)]
    row = score_question(Ranked(deep[:5], deep), {"c"}, ours_budget=8)
    assert row["R@ours5"] == 1.0 and row["R@100tok"] == 1.0
    assert score_question(Ranked(deep[:5], deep), {"b"}, ours_budget=8)["R@ours5"] == 0.0


def test_answer_words_must_be_in_the_returned_text():
    deep = _items((["a"], "Ana met Bo in Lisbon"))
    assert score_question(Ranked(deep, deep), {"a"}, ours_budget=50, answer="Lisbon")["ans@ours5"] == 1.0
    assert score_question(Ranked(deep, deep), {"a"}, ours_budget=50, answer="Porto")["ans@ours5"] == 0.0


def test_board_means_and_min_over_types():
    board = Board()
    deep = _items((["a"], "gold"))
    board.add("s", "t1", score_question(Ranked(deep, deep), {"a"}, ours_budget=10))
    board.add("s", "t2", score_question(Ranked([], []), {"a"}, ours_budget=10))
    summary = board.summary()["s"]
    assert summary["all"]["R@5"] == 0.5
    assert summary["min over types"]["R@5"] == 0.0


class _NoDense:
    pass


def test_baselines_rank_chinese_by_character_bigrams_and_widen_within_a_session():
    assert {"北京", "京出"} <= set(bm25_tokens("我去北京出差")) and "ana" in bm25_tokens("Ana 去北京")
    index = RawTurnIndex(
        ["s1:0", "s1:1", "s2:0"], ["我: 周五去北京出差", "伴: 好的", "我: 今天下雨"], ["s1", "s1", "s2"], None
    )
    assert index.rank("bm25", "哪天去北京？", 1)[0].ids == ("s1:0",)
    assert index.rank("bm25+-1", "哪天去北京？", 1)[0].ids == ("s1:0", "s1:1")
    assert index.rank("bm25+-1", "下雨", 1)[0].ids == ("s2:0",)
    assert rrf([[1, 2, 3], [3, 1]])[0] == 1


def test_the_chinese_set_is_seeded_and_its_gold_turns_exist():
    first, again, other = generate(3, 2), generate(3, 2), generate(4, 2)
    assert json.dumps(first, default=str) == json.dumps(again, default=str)
    assert json.dumps(first, default=str) != json.dumps(other, default=str)
    for haystack in first["haystacks"]:
        ids = {t["id"] for t in haystack["turns"]}
        assert haystack["questions"]
        for question in haystack["questions"]:
            assert question["gold_turns"] and set(question["gold_turns"]) <= ids
