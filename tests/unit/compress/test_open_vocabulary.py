"""Names nobody listed, and restatements a person would write.

The names here are made up (no gazetteer or lexicon holds them): people, places and companies are
found by their structure, and the restatement leaves vocatives out and keeps verbs agreeing."""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.compress.restate import agreed_negation, third_person


def _names(text: str) -> set[tuple[str, str]]:
    return {(m.kind, m.value) for m in find_names_zh(text)}


def test_unlisted_chinese_people_places_and_companies_by_structure():
    assert {("person", "郑林"), ("place", "淮城")} <= _names("郑林下周要去淮城出差，顺便看一下新仓库。")
    assert ("person", "陈宁宁") in _names("让陈宁宁在6月7日之前把合同准备好。")
    # jieba cuts the unknown trade name into single characters and the given name short
    assert {("org", "鑫钰物流"), ("person", "吴涛腾")} <= _names(
        "物流找了鑫钰物流，对接人吴涛腾，运费每吨345元。"
    )
    assert ("place", "云州") in _names("可以安排车去云州提货。")


def test_common_words_in_a_name_position_are_not_names():
    assert _names("我今天是高兴的") == set()
    assert ("place", "现场") not in _names("明天去现场验货")


def test_vocative_is_left_out_and_verbs_agree(make_turn, nlp):
    turns = [
        make_turn("I agree, Melanie, I do love painting sunsets with the kids.", speaker="Caroline"),
        make_turn("I don't like the new gym schedule at all.", speaker="Melanie", turn_id="s1:2"),
    ]
    first, second = compress(turns, nlp=nlp)
    assert first.text == "Caroline does love painting sunsets with the kids."
    assert second.text == "Melanie doesn't like the new gym schedule at all." and not second.verbatim


def test_third_person_forms():
    assert [third_person(v) for v in ("agree", "do", "have", "watch", "try", "are")] == [
        "agrees",
        "does",
        "has",
        "watches",
        "tries",
        "is",
    ]
    assert agreed_negation("don't") == "doesn't" and agreed_negation("can't") == "can't"


def test_a_trade_name_ends_in_any_common_business_noun_not_only_listed_suffixes():
    """The industry word after an unknown trade name need not be in ZH_ORG_SUFFIXES (货运, 运输
    are not); a title after a name stays a person's. jieba's segmentation of rare characters varies
    (了珀 glued together): bench/timeline.py measures the rate on generated stories."""
    from simplemem_graph.lexicon import ZH_ORG_SUFFIXES

    for name, text in [
        ("钰琨货运", "物流找了钰琨货运，对接人田鹏，运费每吨200元。"),
        ("祺拓货运", "祺拓货运的发票还没开，月底前要催一下。"),
        ("达祺运输", "达祺运输的发票还没开"),
    ]:
        assert not any(name.endswith(s) for s in ZH_ORG_SUFFIXES)
        assert ("org", name) in _names(text), text
    assert not {kind for kind, _ in _names("小明同学来了，晓燕老师也到了。何弘军项目要延期。")} & {"org"}
    assert _names("我今天买了一件衣服，吃了碗牛肉面，周末和朋友去爬山。") == set()


def test_a_place_then_a_proper_name_then_any_industry_noun_is_a_firm():
    """佛山|宏达|五金: jieba takes the middle word for a proper name; the noun after it may be rare in
    its dictionary (五金 counts 75) and need not be a listed suffix."""
    assert ("org", "成都华泰电器") in _names("成都华泰电器发来报价，一共3台。")
    assert ("org", "杭州天成物流") in _names("杭州天成物流说明天到。")
    assert not {k for k, _ in _names("南京美食很好吃，上海外滩风景也好。") if k == "org"}


@pytest.mark.parametrize("seed", range(4))
def test_an_unmarked_place_before_a_dictionary_trade_name_is_not_taken_for_the_firm(seed):
    """江溪达信纺织有限公司: 纺织 is the industry, and then 江溪 (a place no list knows) + 达信 (a
    trade name that happens to be a dictionary word) must not lose 达信 as industry too."""
    from simplemem_graph.consolidate.aliases import short_forms

    rng = random.Random(seed)
    place = "".join(rng.sample("江溪泽湄汀渚岑峪", 2))
    trade = rng.choice(["达信", "华泰", "天成"])  # dictionary words used as trade names
    industry = rng.choice(["纺织", "化工", "电器", "物流"])
    assert trade in short_forms(f"{place}{trade}{industry}有限公司", "org")
