"""The benchmark metrics: budgets, nDCG's ideal, MRR by the first gold item, the baselines."""

import json

import pytest

from bench.baselines import Item, RawTurnIndex, bm25_tokens, rrf
from bench.scoring import Board, Ranked, answer_coverage, answer_dates, fill_budget, score_question
from bench.zh_devset import generate
from simplemem_graph.text import count_tokens


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


def test_budget_fills_best_first_and_cuts_the_item_that_does_not_fit():
    deep = _items(
        (["a"], "one two three four five six"),
        (["b"], "one two three four five six seven eight"),
        (["c"], "x y"),
    )
    filled = fill_budget(deep, 8)
    assert [i.ids for i in filled] == [("a",), ("b",)]
    assert filled[1].text == "one two" and sum(count_tokens(i.text) for i in filled) == 8
    row = score_question(Ranked(deep[:5], deep), {"b"}, ours_budget=8)
    assert row["R@ours5"] == 1.0
    assert score_question(Ranked(deep[:5], deep), {"c"}, ours_budget=8)["R@ours5"] == 0.0


def test_a_system_that_fills_its_own_budget_is_scored_on_what_it_returned():
    deep = _items((["a"], "noise words here"), (["b"], "the answer is Lisbon"))
    own = {budget: deep[1:] for budget in (100, 200, 400, 800)}
    row = score_question(Ranked(deep, deep, budgets=own), {"b"}, ours_budget=100, answer="Lisbon")
    assert row["R@100tok"] == 1.0 and row["ans@100tok"] == 1.0
    row = score_question(Ranked(deep, deep, budgets={b: deep[:1] for b in own}), {"b"}, ours_budget=100,
                         answer="Lisbon")  # fmt: skip
    assert row["R@100tok"] == 0.0 and row["ans@100tok"] == 0.0


def test_answer_dates_count_in_iso_form_and_partial_answers_score_partly():
    assert answer_dates("The week before 7 May 2023") == [("7 May 2023", "2023-05-07")]
    assert answer_dates("June 9, 2023 and May 2022") == [
        ("June 9, 2023", "2023-06-09"),
        ("May 2022", "2022-05"),
    ]
    assert answer_dates("2023年5月7日") == [("2023年5月7日", "2023-05-07")]
    assert answer_coverage("7 May 2023", "Caroline went to the meetup on 2023-05-07.") == 1.0
    assert answer_coverage("7 May 2023", "Caroline went to the meetup on 2023-05-08.") == pytest.approx(0.0)
    assert answer_coverage("pottery and painting", "Melanie tried pottery") == pytest.approx(0.5)
    assert answer_coverage("the", "anything") is None


def test_chinese_answers_are_scored_on_character_bigrams_not_on_jieba_words():
    # jieba cuts 钢琴曲 as one word and 宫保鸡丁 as 宫保鸡 + 丁: the literal answer must still count.
    assert answer_coverage("钢琴", "user: 我在学习一些钢琴曲子") == 1.0
    assert answer_coverage("宫保鸡丁", "我今天做了一个宫保鸡丁，家人都说很好吃") == 1.0
    # Part of a name is part of the credit (海边 边的 的曼 曼彻 彻斯 斯特: 3 of 6 bigrams).
    assert answer_coverage("海边的曼彻斯特", "看了曼彻斯特") == pytest.approx(0.5)
    assert answer_coverage("西红柿炒鸡蛋", "番茄炒蛋") == 0.0
    assert answer_coverage("AC/DC、枪与玫瑰", "我喜欢AC/DC、枪与玫瑰等摇滚乐队") == 1.0
    # A date without a year is found in any year's ISO form; with a year, only in that one.
    assert answer_dates("体检改到5月22号了") == [("5月22号", "-05-22")]
    assert answer_coverage("5月22号", "体检 2026-05-22") == 1.0
    assert answer_coverage("2023年5月4日", "[2023-05-04] 生日") == 1.0
    assert answer_coverage("2023年5月4日", "[2023-05-05] 生日") == pytest.approx(0.0)
    # A unit character next to a number is not the answer: the number is.
    assert answer_coverage("373块", "花了373块。") == 1.0
    assert answer_coverage("373块", "花了37块。") == 0.0


def test_every_memorybank_question_has_an_answer_written_in_its_gold_turn():
    from bench.zh_dev import MEMORYBANK, memorybank_haystacks

    if not MEMORYBANK.exists():
        pytest.skip(f"the MemoryBank-cn dev data is not at {MEMORYBANK}")
    haystacks = memorybank_haystacks()
    texts = {t["id"]: t["text"] for h in haystacks for t in h["turns"]}
    asked = [q for h in haystacks for q in h["questions"]]
    assert len(asked) == 54
    for question in asked:
        gold = " ".join(texts[t] for t in question["gold_turns"])
        # Copied from the turn: every answer unit is in it, except a date, which is the turn's day.
        if not answer_dates(question["answer"]):
            assert answer_coverage(question["answer"], gold) == 1.0, question
    assert [h["id"] for h in memorybank_haystacks([4, 5])] == ["mb-4", "mb-5"]


def test_daily_facts_are_said_by_the_user_inside_the_chat_and_asked_after_it(tmp_path):
    from datetime import datetime

    from bench.zh_dev import MEMORYBANK, daily_facts_haystacks

    if not MEMORYBANK.exists():
        pytest.skip(f"the MemoryBank-cn dev data is not at {MEMORYBANK}")
    facts = [
        {"id": f"x{i}", "fact": f"我的第{i}个柜子是橡木的", "question": f"我第{i}个柜子是什么木的？"}
        for i in range(12)
    ]
    for fact in facts:
        fact["answer"] = "橡木"
    path = tmp_path / "facts.json"
    path.write_text(json.dumps({"items": facts}, ensure_ascii=False), encoding="utf-8")
    haystacks = daily_facts_haystacks(path, seed=3)
    assert len(haystacks) == 5 and sum(len(h["questions"]) for h in haystacks) == 12
    for h in haystacks:
        turns = {t["id"]: t for t in h["turns"]}
        times = [t["time"] for t in h["turns"]]
        assert times == sorted(times) and len(set(times)) == len(times)
        for q in h["questions"]:
            (gold,) = q["gold_turns"]
            said = turns[gold]
            assert said["speaker"] == "user" and said["text"] in {f["fact"] for f in facts}
            assert said["time"] < datetime.fromisoformat(h["at"])
    # the same seed places the facts in the same turns; another seed moves some
    assert daily_facts_haystacks(path, seed=3) == haystacks
    assert daily_facts_haystacks(path, seed=4) != haystacks
    path.write_text(json.dumps({"items": [{"id": "y", "fact": "x"}]}), encoding="utf-8")
    with pytest.raises(ValueError, match="lacks"):
        daily_facts_haystacks(path, seed=3)


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


def test_a_type_without_a_metric_is_not_its_minimum():
    # LoCoMo's adversarial questions have no answer: no answer coverage, which is not a 0
    board = Board()
    board.add("s", "answered", {"R@5": 1.0, "ans@100tok": 0.6, "ms": 1.0})
    board.add("s", "answered", {"R@5": 0.0, "ans@100tok": 0.2, "ms": 1.0})
    board.add("s", "adversarial", {"R@5": 0.5, "ms": 1.0})
    minimum = board.summary()["s"]["min over types"]
    assert minimum["ans@100tok"] == 0.4
    assert minimum["R@5"] == 0.5


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


def test_sentence_baselines_return_the_matching_sentence_with_its_speaker_and_turn():
    index = RawTurnIndex(
        ["s1:0", "s1:1"],
        ["Ana: I moved last week. My new flat is in Porto. The rent is fine.", "Bo: Nice!"],
        ["s1", "s1"],
        None,
    )
    best = index.rank("bm25-sent", "where is Ana's new flat?", 1)[0]
    assert best == Item(("s1:0",), "Ana: My new flat is in Porto.")
    assert index.rank("bm25", "where is Ana's new flat?", 1)[0].text.startswith("Ana: I moved")


def test_the_chinese_set_is_seeded_and_its_gold_turns_exist():
    first, again, other = generate(3, 2), generate(3, 2), generate(4, 2)
    assert json.dumps(first, default=str) == json.dumps(again, default=str)
    assert json.dumps(first, default=str) != json.dumps(other, default=str)
    for haystack in first["haystacks"]:
        ids = {t["id"] for t in haystack["turns"]}
        assert haystack["questions"]
        texts = {t["id"]: t["text"] for t in haystack["turns"]}
        for question in haystack["questions"]:
            assert question["gold_turns"] and set(question["gold_turns"]) <= ids
            if question["answer"] is not None and question["type"] != "update":
                gold = " ".join(texts[t] for t in question["gold_turns"])
                assert answer_coverage(question["answer"], gold) == 1.0, question


def test_a_daily_facts_item_said_over_several_turns_names_its_gold_turns(tmp_path):
    """An item of the harder Chinese sets ({"facts": [...], "gold": [...]}) keeps its turns and gold
    indices; a single-fact item reads as one turn with gold 0; a gold index outside its turns is an
    error naming the item."""
    from bench.zh_dev import load_daily_facts

    path = tmp_path / "facts.json"
    items = [
        {"id": "a", "fact": "我家猫叫年糕", "question": "我家猫叫啥？", "answer": "年糕"},
        {"id": "b", "facts": ["手机买的X1", "又换成Y2了"], "gold": [1], "question": "手机?", "answer": "Y2"},
    ]
    path.write_text(json.dumps({"items": items}, ensure_ascii=False), encoding="utf-8")
    loaded = load_daily_facts(path)
    said = [(i["facts"], i["gold"]) for i in loaded]
    assert said == [(["我家猫叫年糕"], [0]), (["手机买的X1", "又换成Y2了"], [1])]
    items[1]["gold"] = [2]
    path.write_text(json.dumps({"items": items}, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError, match="'b'"):
        load_daily_facts(path)
