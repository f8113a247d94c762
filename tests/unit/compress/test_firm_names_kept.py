"""A firm's name said in the turn survives stage 1 and is typed a firm (compress/informative.py,
compress/names.py, compress/names_zh.py): a full firm name opening a clause is talked about, never
called to ("澄禾服饰，湖州那家…"), a name a firm noun introduces ("a payroll company, Quillmark") is
no vocative, a name once written with its legal form (Pinwheel Ltd) is that firm alone too, ", he"
after a name makes a person, and X哥 that jieba files only as a rare proper name is a nickname
(龙哥), never a trade name glued to the verb after it. Made-up names; the cases that must not change
are beside each rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.names_zh import find_names_zh
from simplemem_graph.models import Turn


def _events(*texts: str) -> list[tuple[str, dict[str, str]]]:
    turns = [
        Turn(id=f"t{i}", session="s1", speaker="user", text=t, time=datetime(2026, 3, 2, 9, i))
        for i, t in enumerate(texts)
    ]
    return [(e.text, {p.name: p.type for p in e.participants}) for e in compress(turns)]


def _zh(text: str) -> dict[str, str]:
    return {m.value: m.kind for m in resolve_overlaps(find_names_zh(text), ())}


def test_a_chinese_firm_name_opening_a_clause_is_kept():
    events = _events("新客户谈下来了！澄禾服饰，湖州做马面裙的那家，店铺都交给我们代运营")
    assert any("澄禾服饰" in text and kinds.get("澄禾服饰") == "org" for text, kinds in events)


def test_a_name_alone_after_a_comma_still_addresses_the_listener():
    assert _events("Thanks, Caroline!") == []


def test_a_name_a_firm_noun_introduces_is_kept_as_a_firm():
    events = _events("not our job, they signed direct with a payroll company, Quillmark")
    assert any(text.endswith("Quillmark") and kinds.get("Quillmark") == "org" for text, kinds in events)


def test_a_firm_introduced_once_is_a_firm_where_it_acts_alone():
    events = _events(
        "they signed with a telematics company, Quillmark", "Quillmark pushed the fix last night"
    )
    assert all(kinds.get("Quillmark") in (None, "org") for _text, kinds in events)
    assert any(kinds.get("Quillmark") == "org" for _text, kinds in events)


def test_a_name_written_once_with_its_legal_form_is_that_firm_alone():
    events = _events(
        "> Tobias\n> Integration Consultant, Pinwheel Ltd", "Pinwheel Ltd sent the file", "Pinwheel called"
    )
    assert [kinds.get("Pinwheel") for _text, kinds in events if "Pinwheel" in kinds] in ([], ["org"])
    assert all(kinds.get("Pinwheel") != "person" for _text, kinds in events)


def test_he_after_a_name_makes_a_person():
    events = _events("invoices go to Tobenna, he reports straight to Skip and does the payables")
    assert any(kinds.get("Tobenna") == "person" for _text, kinds in events)


@pytest.mark.parametrize("text", ["龙哥拍板，小棠日常对接。", "龙哥刚打电话 说厂里排期紧"])
def test_a_rare_proper_ge_pair_is_a_nickname_not_a_firm(text):
    found = _zh(text)
    assert found.get("龙哥") == "person"
    assert not [k for k, kind in found.items() if kind == "org"]


@pytest.mark.parametrize("text", ["帅哥拍板", "大哥说没事"])
def test_common_ge_words_stay_words(text):
    assert not [k for k in _zh(text) if "哥" in k]


def test_a_three_character_name_keeps_its_last_character():
    assert _zh("张志刚打电话说厂里排期紧").get("张志刚") == "person"


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("新接了个连锁幼儿园的活儿 芮溪幼儿园，三个园暑假翻新", "芮溪幼儿园"),
        ("澜舟民宿老板又打电话 热水器不出热水", "澜舟民宿"),
        ("福田真的有家岚麦咖啡，老板想重做吧台", "岚麦咖啡"),
        ("咖啡机是他们长期合作的设备商澳岐设备负责", "澳岐设备"),
    ],
)
def test_a_new_trade_name_and_what_the_business_is_make_a_firm(text, firm):
    assert _zh(text).get(firm) == "org"


@pytest.mark.parametrize("text", ["那家含税价格高", "去了趟健身房", "小王电话那边没人接"])
def test_ordinary_words_around_a_business_noun_make_no_firm(text):
    assert not [k for k, kind in _zh(text).items() if kind == "org"]


@pytest.mark.parametrize(
    ("text", "person"),
    [("园里上上下下都喊她大校长，真名不知道", "大校长"), ("可乐哥到场好火，话我们做得烂", "可乐哥")],
)
def test_what_everyone_calls_someone_is_a_person(text, person):
    assert _zh(text).get(person) == "person"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("阿Kit下午来接水装净水器", "Kit"),
        ("老板叫Derwin，单店", "Derwin"),
        ("财务Yolanda发了水单", "Yolanda"),
    ],
)
def test_a_latin_name_called_or_given_a_job_in_chinese_is_a_person(text, name):
    assert any(kinds.get(name) == "person" for _text, kinds in _events(text))


def test_a_latin_word_used_as_a_tool_stays_a_product():
    assert all(kinds.get("Excel") != "person" for _text, kinds in _events("用Excel对一下账"))


def test_a_count_of_shops_is_no_measure_word_of_a_firm():
    """十一家店的面包连锁: 一家 inside a count opens no firm's name."""
    assert not [k for k, kind in _zh("苏州十一家店的面包连锁，要做点单小程序").items() if kind == "org"]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Updated: cutover 3/14 → 3/21 (movers unavailable on the 14th).", ["2026-03-14", "2026-03-21"]),
        ("cutover Saturday 3/14, movers booked", ["2026-03-14"]),  # the weekday is that day's, not the next
        ("install slipped to 4/1", ["2026-04-01"]),  # ahead, the reading nearest the day it was said
        ("invoice due 14/3", ["2026-03-14"]),
        ("delivered on 11/20/2025 as agreed", ["2025-11-20"]),
        ("we are open 24/7, about 3/4 of the stock is gone, scored 7/10", []),
    ],
)
def test_a_day_and_a_month_with_a_slash_is_a_date_only_where_it_can_be_nothing_else(text, days):
    turn = Turn(id="t", session="s1", speaker="user", text=text, time=datetime(2026, 3, 3, 9, tzinfo=UTC))
    assert sorted({d.isoformat() for e in compress([turn]) for d in e.dates}) == days


@pytest.mark.parametrize(
    ("text", "firm"),
    [
        ("新客户🎉 澜汐皮肤管理，岳麓那家做皮肤管理的连锁", "澜汐皮肤管理"),
        ("MX自己跟岱禾模特经纪签了年框 出镜的人都是那边派", "岱禾模特经纪"),
    ],
)
def test_a_firm_introduced_as_a_client_or_signed_with_is_its_whole_name(text, firm):
    assert _zh(text).get(firm) == "org"


@pytest.mark.parametrize("text", ["我跟老板签了合同", "跟他们签了", "客户那边说明天到"])
def test_signing_with_a_person_or_a_pronoun_names_no_firm(text):
    assert not [k for k, kind in _zh(text).items() if kind == "org"]
