"""Names in voice-to-text and run-on chat (stop 52), each found reading a held-out story and written
here with made-up names: a name opening inside a nickname is none (跟小邓微信确认: 微信 is WeChat, not
邓微信); a particle is no given name (钱到了); 时候 of 的时候说 is a word, not 时 the surname; after 的 a
noun read alone is a thing (他们自己的车来载); 改由X接 names who takes a post over; a firm's trade
word closes its name (汉辉视讯, 北陵制冷); "原本" after a name is "originally", no firm; an English
firm's name ends before the verb NER ran on into ("… Housing Trust rang") and before the full stop
after a long legal form ("… Hotels Limited. They"); a firm named alone by its legal form ("New
client: Acme Hotels Limited") is talked about, not called; an industry word of the lexicon closes a
trade name jieba splits (鸿|跃|鞋业, 漳州柚间茶饮); a Chinese nickname an English chat gives someone
("everyone calls him 五叔") is that person. Each case failed on the code before; guards pass on both."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.models import Turn


def _zh(text: str) -> list[tuple[str, str]]:
    return [(m.surface, m.kind) for m in find_names_zh(text)]


def _kinds(text: str) -> dict[str, str]:
    turn = Turn(id="t", session="s", speaker="user", time=datetime(2026, 9, 3, 9, tzinfo=UTC), text=text)
    return {p.name: p.type for e in compress([turn]) for p in e.participants}


@pytest.mark.parametrize(
    "text",
    ["钱到了，160200，一分冇少", "提手黎总看样的时候说要换棉绳的", "今天出货 5万个 他们自己的车来载"],
)
def test_words_read_as_a_surname_and_a_given_name_are_no_one(text):
    assert not [name for name, kind in _zh(text) if kind == "person" and "总" not in name]


def test_a_name_does_not_open_inside_a_nickname():
    assert _zh("又跟小邓微信确认了一遍，他说尺寸冇变") == [("小邓", "person")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("王建国说明天来", "王建国"),
        ("钱伟说好的", "钱伟"),
        ("老板的王明说可以", "王明"),
        ("让赵建国在现场", "赵建国"),
    ],
)
def test_people_are_still_people(text, name):
    assert (name, "person") in _zh(text)


def test_who_a_post_goes_to_is_a_person():
    assert ("志远", "person") in _zh("若彤下礼拜休产假 采购这块以后改由志远接")
    assert not [m for m in _zh("改由仓库接收") if m[1] == "person"]  # guard: a place takes it


@pytest.mark.parametrize(("text", "firm"), [("是他们自己长期合作的一家，汉辉视讯，屏都是那边出", "汉辉视讯")])
def test_a_trade_word_closes_a_firms_name(text, firm):
    assert (firm, "org") in _zh(text)


def test_originally_after_a_name_makes_no_firm():
    assert not [m for m in _zh("志伟原本是管他们仓库的 讲话很直") if m[1] == "org"]


def test_an_english_firm_ends_before_the_verb_and_the_full_stop():
    assert _kinds("Ashgrove Housing Trust rang, croydon. want a price for 3 stairwells").get(
        "Ashgrove Housing Trust"
    ) == "org"
    kinds = _kinds("Right, new one in! Dunmore Country House Hotels Limited. They want a shoot there")
    assert "Dunmore Country House Hotels Limited" in kinds
    assert "Dunmore Country House Hotels Limited." not in kinds
    assert "Acme Trading Ltd." in _kinds("Acme Trading Ltd. sent the samples today")  # guard: "Ltd." keeps it


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("New client: Dunmore Hotels Limited", "Dunmore Hotels Limited"),
        ("Acme Hotels Limited", "Acme Hotels Limited"),
        ("Thanks, Brenner Logistik GmbH!", "Brenner Logistik GmbH"),
    ],
)
def test_a_firm_named_alone_is_talked_about_not_called(text, firm):
    assert _kinds(text).get(firm) == "org"


@pytest.mark.parametrize(
    ("text", "firm"), [("晋江鸿跃鞋业要5万个鞋盒", "鸿跃鞋业"), ("漳州柚间茶饮也来问纸杯", "漳州柚间茶饮")]
)
def test_an_industry_word_closes_a_trade_name_jieba_splits(text, firm):
    assert (firm, "org") in _zh(text)


@pytest.mark.parametrize("text", ["这个设计不错", "我们去看展览", "国际形势"])
def test_an_industry_word_alone_is_no_firm(text):
    assert not [m for m in _zh(text) if m[1] == "org"]


def test_a_chinese_nickname_in_an_english_chat_is_a_person():
    texts = ["the founder. everyone calls him 五叔, even his own kids.", "五叔 turned up in a hi-vis vest"]
    turns = [
        Turn(id=f"t{i}", session="s", speaker="user", time=datetime(2026, 9, 3, 9, i, tzinfo=UTC), text=t)
        for i, t in enumerate(texts)
    ]
    events = compress(turns)
    people = {(e.source_ids[0], p.name) for e in events for p in e.participants if p.type == "person"}
    assert people == {("t0", "五叔"), ("t1", "五叔")}


@pytest.mark.parametrize(
    "text", ["沈阳市于洪区沙岭街道工业园区7号", "开户行：招商银行上海徐汇支行", "速冻隧道制冷不足"]
)
def test_districts_streets_and_a_bank_branch_are_no_party(text):
    """于洪区 and 徐汇 (支行) are places (于, 徐 are surnames too); 沙岭街道 a sub-district; a common
    noun before 制冷 (a tunnel's cooling) no trade name."""
    assert not [m for m in _zh(text) if m[1] in ("person", "org") and m[0] != "招商银行"]


def test_a_person_before_a_word_opening_with_a_place_character_is_still_one():
    assert ("张伟", "person") in _zh("张伟区别对待")  # guard: 区别 is a word, not a district
