"""小/老 + a given-name character (小美, not 小林: a surname is the nickname rule's) is a person where a
name stands, and no word of the language is taken for one (小猫, 小区, 老是, 小红书). Made-up names."""

from __future__ import annotations

import random

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.names_zh import find_names_zh

_NICKNAMES = ["小岚", "小榕", "小芸", "小蕾", "小瑶"]


def _people(text: str) -> list[str]:
    return [m.value for m in find_names_zh(text) if m.kind == "person"]


@pytest.mark.parametrize("seed", range(4))
def test_a_given_name_nickname_is_a_person_where_a_name_stands(seed):
    name = random.Random(seed).choice(_NICKNAMES)
    for line in [
        f"{name}最近怎么样？",  # a subject before a time word
        f"我和{name}去了公园",  # after 和
        f"同事{name}明天请假",  # after a role
        f"给{name}打电话",  # after a preposition
        f"想念{name}了",  # the object of a verb
        f"{name}是我表妹",  # before the copula
    ]:
        assert _people(line) == [name], line


def test_words_that_open_with_xiao_or_lao_are_no_nickname():
    for line in [
        "我家小猫最近不吃饭",  # a word of the dictionary
        "我们小区最近在修路",
        "我在用小红书",  # a longer word runs across the pair
        "小明天去北京",  # the character opens a word with what follows (明天)
        "这朵小美丽的花",
        "他老是迟到",  # 老 as "always" before a light verb
        "味道有点老了",  # a particle is no given name
    ]:
        assert _people(line) == [], line


def test_a_question_about_a_nickname_is_kept_as_a_fact(make_turn, nlp):
    name = random.Random(7).choice(_NICKNAMES)
    turn = make_turn(f"{name}最近怎么样？", speaker="阿宁", time="2026-03-10T20:00:00+08:00")
    events = compress([turn], nlp=nlp, speakers={(turn.namespace, turn.session): ["阿宁", "思思"]})
    assert [name in e.text for e in events] == [True]
