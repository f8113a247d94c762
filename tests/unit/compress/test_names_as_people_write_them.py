"""Names read the way people write them (compress/names_zh.py, compress/names.py,
compress/informative.py, consolidate/aliases.py): traditional characters read as simplified and
given back as written, what a firm is called after 叫 however long, an uncle's or an aunt's nickname
(海叔, 王姨), Cantonese 佢, a trade's people in the plural introducing their firm, a job in a bracket
after a name, a firm named in the plural opening a clause, and the trade name inside a coined
Chinese name. Made-up names; the cases that must not change are beside each rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.consolidate.aliases import short_forms
from simplemem_graph.models import Turn
from simplemem_graph.text import zh_simplified


def _events(*texts: str) -> list[tuple[str, dict[str, str]]]:
    turns = [
        Turn(id=f"t{i}", session="s1", speaker="user", text=t, time=datetime(2026, 3, 2, 9, i, tzinfo=UTC))
        for i, t in enumerate(texts)
    ]
    return [(e.text, {p.name: p.type for p in e.participants}) for e in compress(turns)]


def _zh(text: str) -> dict[str, str]:
    return {m.value: m.kind for m in resolve_overlaps(find_names_zh(text), ())}


def test_traditional_characters_are_read_as_simplified_and_kept_as_written():
    assert zh_simplified("係佢哋自己請 Coldly 裝嘅") == "系佢哋自己请 Coldly 装嘅"
    assert len(zh_simplified("麵包機經銷商")) == len("麵包機經銷商")
    # character by character: a phrase table would read the surname 沈 of 沈厚 as 沉 (to sink)
    assert zh_simplified("沈厚提醒我们") == "沈厚提醒我们"
    assert _zh("永溪泰泓流体有限公司的沈厚发来了报价").get("沈厚") == "person"
    assert _zh("付款找財務部的周婷 她跟恒筑建設簽的") == {"周婷": "person", "恒筑建設": "org"}
    # the same sentence in simplified characters reads the same
    assert _zh("付款找财务部的周婷 她跟恒筑建设签的") == {"周婷": "person", "恒筑建设": "org"}


def test_a_date_in_traditional_characters_keeps_its_written_form():
    (text, _), = _events("首批 first run 改到23號")
    assert "23號(2026-03-23)" in text


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("今天去看了个宴会厅叫什么汐满时光婚宴中心的 他们老板想找我们拍", "汐满时光婚宴中心"),
        ("灯光不是他们自己弄的 是外面一家叫晓堂堂灯光音响的公司", "晓堂堂灯光音响"),
    ],
)
def test_what_a_firm_is_called_is_its_whole_name(text, firm):
    assert _zh(text).get(firm) == "org"


@pytest.mark.parametrize("text", ["我们公司叫什么来着", "远航物流和另一家叫顺捷的都报了价"])
def test_asking_a_name_or_a_short_name_before_de_names_no_long_firm(text):
    assert "什么来着" not in _zh(text) and "顺捷的都报了价" not in _zh(text)


def test_an_uncles_nickname_is_a_person_not_a_firm_or_a_preposition():
    assert _zh("定金下周付。海叔拍板。") == {"海叔": "person"}
    assert _zh("春燕是财务（直接向海叔汇报）") == {"春燕": "person", "海叔": "person"}
    assert _zh("大叔说好") == {} and _zh("叔叔说了") == {}  # words, not nicknames


def test_what_they_call_someone_in_cantonese_is_a_person():
    assert _zh("成間公司都叫佢「大醫生」, 所有錢嘅嘢都要經佢") .get("大醫生") == "person"


def test_a_trades_people_in_the_plural_introduce_their_firm():
    events = _events("they're using their own scaffolders, Ardnagh Scaffolding — not our call")
    assert any(kinds.get("Ardnagh Scaffolding") == "org" for _, kinds in events)
    # kin in the plural introduce people
    events = _events("her brothers, Tom Hale and Jim Hale, came to help")
    assert any(kinds.get("Tom Hale") == "person" for _, kinds in events)


def test_a_job_in_a_bracket_after_a_name_makes_a_person():
    events = _events("Big Dinny signs off; Aoife (ops manager, reports to him) is day to day.")
    assert any(kinds.get("Aoife") == "person" for _, kinds in events)


def test_a_firm_named_in_the_plural_opening_a_clause_is_no_vocative():
    events = _events("Logged: Hanrahan Taverns, Rosscarbery pub — 42 panels + inverter.")
    firm = "Hanrahan Taverns"
    assert any(firm in text and kinds.get(firm) == "org" for text, kinds in events)
    assert _events("Thanks, Caroline!") == []


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("蔓苒皮肤管理", ["蔓苒"]),  # a coined trade name, then ordinary words
        ("圆满时光婚宴中心", ["圆满时光"]),  # no everyday word (时光) as a short form
        ("佛山宏达五金", ["宏达"]),
        ("深圳市锐拓精密五金有限公司", ["锐拓"]),
    ],
)
def test_the_trade_name_inside_a_chinese_firm_name(name, forms):
    assert short_forms(name, "org") == forms


def test_a_name_s_place_of_business_is_one_firm():
    (_, kinds), = _events("Coughlan's Dairy want a price for the milking parlour roof")
    assert kinds.get("Coughlan's Dairy") == "org"
    # someone's relative is no firm
    (_, kinds), = _events("Emma's Mum rang this morning")
    assert "Emma's Mum" not in kinds


@pytest.mark.parametrize(
    ("text", "firm"),
    [("台中一間早午餐，招牌就三個字「慢慢來」，西屯起家", "慢慢來"), ("店名叫“拾光”，在老城区", "拾光")],
)
def test_a_quoted_name_on_a_shops_sign_is_the_firm(text, firm):
    assert _zh(text).get(firm) == "org"


def test_what_everyone_calls_someone_is_a_person_wherever_it_is_written():
    events = _events(
        "owner is a lady everyone calls the duchess. anything w a $ on it goes thru her",
        "The Duchess approves spend; Teodora is day to day.",
    )
    assert any(kinds.get("Duchess") == "person" for _, kinds in events)
    assert not any(kinds.get("Office") for _, kinds in _events("they call the office every day"))


def test_a_new_client_named_before_a_bracket_is_a_firm_whatever_its_words():
    text = "记下了：新客户好多雾联合办公（共享办公，两个点位），做绿植租摆。"
    assert _zh(text).get("好多雾联合办公") == "org"
    assert _zh("新客户那边说明天到（估计）") == {}
    # an English "new client" and a dash before what the firm is, in mixed chat
    assert _zh("new client 🎉 白鹭汀酒店发展 — 徐汇老弄堂改成 boutique hotel").get("白鹭汀酒店发展") == "org"
    assert _zh("客户说了 - 大概明天") == {}


def test_a_legal_form_alone_is_no_firm():
    (_, kinds), = _events("Noted: new engagement from Ninebirch Restaurant Group, LLC for the review.")
    # the firm is read whole with its legal form (the registered name); the form alone is no firm
    assert "LLC" not in kinds and kinds.get("Ninebirch Restaurant Group, LLC") == "org"


def test_a_registered_name_with_its_place_in_a_bracket_is_one_firm():
    assert _zh("——\nVivian | 市场部\n恰好数控机床（昆山）有限公司") == {"恰好数控机床（昆山）有限公司": "org"}
    assert short_forms("恰好数控机床（昆山）有限公司", "org") == ["恰好数控"]


def test_a_school_called_by_its_name_is_a_firm_in_traditional_characters_too():
    assert _zh("博愛路那間補習班 叫晴雨數理補習班 二館要裝飲水機").get("晴雨數理補習班") == "org"
    assert short_forms("晴雨數理補習班", "org") == ["晴雨"]
