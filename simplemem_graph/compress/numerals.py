"""Reading numbers written in digits, Chinese numerals or English words, and writing them back.

Values follow EVALSETS.md: no thousands separators and no trailing ".0".
"""

from __future__ import annotations

import re

ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
ZH_BIG_UNITS = {"万": 10_000, "亿": 100_000_000}
# A run of Chinese numeral characters (digits and units); "半" is handled by the callers.
ZH_NUMERAL = "[零〇一二两俩三四五六七八九十百千万亿]+"
# Arabic digits with optional thousands separators and decimals, or a Chinese numeral.
NUMBER_PATTERN = rf"(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|{ZH_NUMERAL})"

EN_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "several": 3,
}
EN_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
}
# Spelled-out numbers 2-99 ("twenty-five"); "one" and vague counts are matched by callers with care.
EN_NUMBER_WORD_PATTERN = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:[- ](?:one|two|three|four|five|six|seven|"
    r"eight|nine))?|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|two|three|"
    r"four|five|six|seven|eight|nine|ten|dozen)"
)


def parse_zh_numeral(text: str) -> int | None:
    """Value of a Chinese numeral such as 三, 十五, 两百, 一千二百, 三万五千; None if it is not one."""
    if not text or any(ch not in ZH_DIGITS and ch not in ZH_UNITS and ch not in ZH_BIG_UNITS for ch in text):
        return None
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in ZH_DIGITS:
            digit = ZH_DIGITS[ch]
        elif ch in ZH_UNITS:
            section += (1 if digit is None else digit) * ZH_UNITS[ch]
            digit = None
        else:  # 万 / 亿 scale everything read so far
            section += digit or 0
            total = (total + section) * ZH_BIG_UNITS[ch]
            section, digit = 0, None
    return total + section + (digit or 0)


def parse_count(text: str) -> float | None:
    """A count before a unit: parse_number plus the forms only a count takes ("a/an week",
    "a couple of days", 半个月, 一个半月). Shared by dates ("两周后") and durations ("一个半小时")."""
    raw = text.strip().lower()
    if raw in ("a", "an"):
        return 1.0
    if "couple" in raw:
        return 2.0
    if raw in ("半", "半个"):
        return 0.5
    if raw == "一个半":
        return 1.5
    return parse_number(raw)


def parse_number(text: str) -> float | None:
    """Value of digits ("1,200", "2.5"), a Chinese numeral ("两百") or an English word ("twenty-five")."""
    text = text.strip()
    if not text:
        return None
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+", text):
        return float(text.replace(",", ""))
    zh = parse_zh_numeral(text)
    if zh is not None:
        return float(zh)
    word = text.lower().replace("-", " ")
    if word in EN_NUMBER_WORDS:
        return float(EN_NUMBER_WORDS[word])
    parts = word.split()
    if len(parts) == 2 and parts[0] in EN_NUMBER_WORDS and parts[1] in EN_NUMBER_WORDS:
        return float(EN_NUMBER_WORDS[parts[0]] + EN_NUMBER_WORDS[parts[1]])
    return None


def format_number(value: float) -> str:
    """Digits only: 25000.0 -> "25000", 0.30000000000000004 -> "0.3", 14.25 -> "14.25"."""
    rounded = round(value, 6)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.6f}".rstrip("0").rstrip(".")
