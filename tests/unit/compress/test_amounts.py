"""Money, quantities, numbers and durations in EVALSETS.md's value conventions."""

from __future__ import annotations

import pytest

from simplemem_graph.compress.amounts import find_amounts
from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.numerals import format_number, parse_zh_numeral


def _amounts(text: str) -> list[tuple[str, str, str]]:
    return [(m.kind, m.surface, m.value) for m in resolve_overlaps(find_amounts(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("每柜2.5万", [("money", "2.5万", "25000 CNY")]),
        ("贵了3000块", [("money", "3000块", "3000 CNY")]),
        ("只要3毛", [("money", "3毛", "0.3 CNY")]),
        ("单价从450元降到420元", [("money", "450元", "450 CNY"), ("money", "420元", "420 CNY")]),
        ("it is $300", [("money", "$300", "300 USD")]),
        ("£2,400 a month", [("money", "£2,400", "2400 GBP")]),
        ("a budget of $22k", [("money", "$22k", "22000 USD")]),
        ("HK$3,200 due", [("money", "HK$3,200", "3200 HKD")]),
        ("comes to RMB 15,600", [("money", "RMB 15,600", "15600 CNY")]),
        ("at $14.25 a case", [("money", "$14.25", "14.25 USD")]),
    ],
)
def test_money(text, expected):
    assert _amounts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("那300台样机", [("quantity", "300台", "300")]),
        ("一共17家", [("quantity", "17家", "17")]),
        ("两位工程师", [("quantity", "两位", "2")]),
        ("take 1,200 cases", [("quantity", "1,200 cases", "1200")]),
        ("a table for four", [("quantity", "four", "4")]),
        ("第一笔款", [("number", "第一笔", "1")]),
        ("the second payment", [("number", "second", "2")]),
        ("最多给到九二折", [("number", "九二折", "92%")]),
        ("refund 40% of it", [("number", "40%", "40%")]),
        ("航班号MU5137", [("number", "MU5137", "MU5137")]),
        ("extension 4417", [("number", "4417", "4417")]),
    ],
)
def test_quantities_and_numbers(text, expected):
    assert _amounts(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("大概需要一个半小时", [("duration", "一个半小时", "PT1H30M")]),
        ("需要两周", [("duration", "两周", "P2W")]),
        ("出差五天", [("duration", "五天", "P5D")]),
        ("先签一年", [("duration", "一年", "P1Y")]),
        ("runs for 18 months", [("duration", "18 months", "P18M")]),
        ("a 48-hour window", [("duration", "48-hour", "PT48H")]),
    ],
)
def test_durations(text, expected):
    assert _amounts(text) == expected


def test_numeral_helpers():
    assert parse_zh_numeral("一千二百") == 1200
    assert parse_zh_numeral("三万五千") == 35000
    assert parse_zh_numeral("十五") == 15
    assert format_number(25000.0) == "25000"
    assert format_number(0.1 + 0.2) == "0.3"


def test_a_count_of_characters_is_a_quantity_and_a_decimal_before_chinese_is_whole():
    from simplemem_graph.compress.amounts import find_amounts

    found = {(m.kind, m.surface) for m in find_amounts("大概25万字，0.28一个字，报了7万整")}
    assert ("quantity", "25万字") in found and ("money", "7万") in found
    assert ("number", "0.28") in found and ("number", "0") not in found
    assert ("money", "30万") not in {(m.kind, m.surface) for m in find_amounts("现在30万字")}
