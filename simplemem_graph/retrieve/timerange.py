"""Time ranges named in a query ("last week", 上周, "in February", 3月份, "yesterday"), as dates.

Every expression is anchored at `at`, the moment the question is asked (not the wall clock), in
`at`'s own time zone. Weeks start on Monday, as in the dev sets. A month named without a year is
the most recent such month not after `at` ("in February" asked in October means this February).
"before/after <date>" gives an open range; "before/after <something that happened>" is resolved
by the caller through `find_anchor` (best effort: the date of the best-matching event).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from simplemem_graph.dates import EN_MONTHS, add_months, month_bounds, week_bounds

_MONTHS = EN_MONTHS
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_ZH_DIGITS = {
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


@dataclass(frozen=True)
class TimeRange:
    """A closed range of dates; either end may be open (None)."""

    start: date | None
    end: date | None
    surface: str  # the words of the query that named it

    def contains(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


_week = week_bounds


def _month(year: int, month: int) -> tuple[date, date]:
    return month_bounds(year, month)


def _months_back(day: date, n: int) -> tuple[date, date]:
    shifted = add_months(day.replace(day=1), -n)
    return month_bounds(shifted.year, shifted.month)


def _recent_month(day: date, month: int, year: str | None) -> tuple[date, date]:
    """A month named without a year is the latest such month not after `day`."""
    if year:
        return _month(int(year), month)
    return _month(day.year if month <= day.month else day.year - 1, month)


def _zh_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text.startswith("十"):  # 十一, 十二
        return 10 + _ZH_DIGITS.get(text[1:], 0)
    if len(text) == 2 and text[1] == "十":  # 二十
        return _ZH_DIGITS[text[0]] * 10
    return _ZH_DIGITS.get(text, 0)


def _en_number(text: str) -> int:
    return int(text) if text.isdigit() else _EN_NUMBERS.get(text.lower(), 0)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day_in_recent_year(today: date, month: int, day: int, year: str | None) -> tuple[date, date] | None:
    if year:
        found = _safe_date(int(year), month, day)
    else:
        found = _safe_date(today.year, month, day)
        if found and found > today:
            found = _safe_date(today.year - 1, month, day)
    return (found, found) if found else None


# Each rule: a pattern and a function from (match, today) to (start, end) or None.
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[date, date] | None]]
_UNITS = {"day": 1, "week": 7}

_RULES: list[_Rule] = [
    (
        re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
        lambda m, d: _day_in_recent_year(d, int(m[2]), int(m[3]), m[1]),
    ),
    (
        re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\b\.?(?:,?\s+(\d{{4}}))?", re.I),
        lambda m, d: _day_in_recent_year(d, _MONTHS[m[2].lower()], int(m[1]), m[3]),
    ),
    (
        re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", re.I),
        lambda m, d: _day_in_recent_year(d, _MONTHS[m[1].lower()], int(m[2]), m[3]),
    ),
    (re.compile(r"\bday before yesterday\b", re.I), lambda m, d: (d - timedelta(2), d - timedelta(2))),
    (re.compile(r"\byesterday\b", re.I), lambda m, d: (d - timedelta(1), d - timedelta(1))),
    (re.compile(r"\btoday\b", re.I), lambda m, d: (d, d)),
    (re.compile(r"\blast weekend\b", re.I), lambda m, d: (_week(d, 1)[0] + timedelta(5), _week(d, 1)[1])),
    (re.compile(r"\b(?:last|previous|past) week\b", re.I), lambda m, d: _week(d, 1)),
    (re.compile(r"\bthis week\b", re.I), lambda m, d: _week(d, 0)),
    (re.compile(r"\b(?:last|previous|past) month\b", re.I), lambda m, d: _months_back(d, 1)),
    (re.compile(r"\bthis month\b", re.I), lambda m, d: _months_back(d, 0)),
    (re.compile(r"\blast year\b", re.I), lambda m, d: (date(d.year - 1, 1, 1), date(d.year - 1, 12, 31))),
    (re.compile(r"\bthis year\b", re.I), lambda m, d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    (
        re.compile(r"\b(\d+|an?|one|two|three|four|five|six|seven)\s+(day|week)s?\s+ago\b", re.I),
        lambda m, d: _ago(d, _en_number(m[1]) * _UNITS[m[2].lower()], m[2].lower() == "week"),
    ),
    (
        re.compile(r"\b(\d+|an?|one|two|three|four|five|six|seven)\s+months?\s+ago\b", re.I),
        lambda m, d: _months_back(d, _en_number(m[1])),
    ),
    # "May" and "March" are also words: only read them as months after a time preposition or
    # before a year. The other month names are unambiguous enough on their own.
    (
        re.compile(
            rf"\b(?:in|during|of|since|early|late|mid)[\s-]+({_MONTH_RE})\b\.?(?:,?\s+(\d{{4}}))?", re.I
        ),
        lambda m, d: _recent_month(d, _MONTHS[m[1].lower()], m[2]),
    ),
    (
        re.compile(rf"\b({_MONTH_RE})\b\.?,?\s+(\d{{4}})\b", re.I),
        lambda m, d: _recent_month(d, _MONTHS[m[1].lower()], m[2]),
    ),
    (
        re.compile(
            r"\b(january|february|april|june|july|august|september|october|november|december)\b", re.I
        ),
        lambda m, d: _recent_month(d, _MONTHS[m[1].lower()], None),
    ),
    (
        re.compile(r"\b(?:in|during)\s+(\d{4})\b", re.I),
        lambda m, d: (date(int(m[1]), 1, 1), date(int(m[1]), 12, 31)),
    ),
    # Chinese
    (
        re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})[日号]"),
        lambda m, d: _day_in_recent_year(d, int(m[2]), int(m[3]), m[1]),
    ),
    (re.compile(r"(\d{4})年(\d{1,2})月份?"), lambda m, d: _recent_month(d, int(m[2]), m[1])),
    (
        re.compile(r"(\d{1,2}|十[一二]?|[一二三四五六七八九])月(\d{1,2})[日号]"),
        lambda m, d: _day_in_recent_year(d, _zh_number(m[1]), int(m[2]), None),
    ),
    (
        re.compile(r"(\d{1,2}|十[一二]?|[一二三四五六七八九])月份?"),
        lambda m, d: _recent_month(d, _zh_number(m[1]), None) if 1 <= _zh_number(m[1]) <= 12 else None,
    ),
    (re.compile(r"前天"), lambda m, d: (d - timedelta(2), d - timedelta(2))),
    (re.compile(r"昨天|昨日"), lambda m, d: (d - timedelta(1), d - timedelta(1))),
    (re.compile(r"今天|今日"), lambda m, d: (d, d)),
    (re.compile(r"上上(?:个)?(?:周|星期|礼拜)"), lambda m, d: _week(d, 2)),
    (re.compile(r"上(?:个)?(?:周|星期|礼拜)"), lambda m, d: _week(d, 1)),
    (re.compile(r"(?:本|这|这个)(?:周|星期|礼拜)"), lambda m, d: _week(d, 0)),
    (re.compile(r"上(?:个)?月"), lambda m, d: _months_back(d, 1)),
    (re.compile(r"(?:本|这个)月"), lambda m, d: _months_back(d, 0)),
    (re.compile(r"前年"), lambda m, d: (date(d.year - 2, 1, 1), date(d.year - 2, 12, 31))),
    (re.compile(r"去年"), lambda m, d: (date(d.year - 1, 1, 1), date(d.year - 1, 12, 31))),
    (re.compile(r"今年"), lambda m, d: (date(d.year, 1, 1), date(d.year, 12, 31))),
    (
        re.compile(r"(\d+|[一二两三四五六七八九十]+)(天|周|个?星期|个月)前"),
        lambda m, d: _zh_ago(d, _zh_number(m[1]), m[2]),
    ),
]

# "before X" / "after X" / "since X" / 之前 / 以后: the range is open on one side.
_EN_OPEN = re.compile(r"\b(before|until|till|by|after|since)\s+$", re.I)
_ZH_OPEN = re.compile(r"^(之前|以前|前|之后|以后|后|以来)")
_EN_EVENT_ANCHOR = re.compile(
    r"\b(before|after|since)\s+(?:the|our|my|their|his|her)\s+([\w\s'-]{3,40}?)(?=[?.!,]|$)", re.I
)


def _ago(today: date, days: int, week: bool) -> tuple[date, date]:
    day = today - timedelta(days=days)
    return _week(day, 0) if week else (day, day)


def _zh_ago(today: date, n: int, unit: str) -> tuple[date, date]:
    if unit == "天":
        return (today - timedelta(n), today - timedelta(n))
    if unit == "个月":
        return _months_back(today, n)
    return _week(today - timedelta(weeks=n), 0)


def _open_range(query: str, match: re.Match[str], start: date, end: date) -> tuple[date | None, date | None]:
    """Open the range on one side when a word like 'before', 'since', 之前 or 以后 frames it.

    'before X' excludes X; 'by/until X' and 'since X' include it; 'after X' starts the day after.
    """
    en = _EN_OPEN.search(query[: match.start()])
    word = en[1].lower() if en else None
    zh = _ZH_OPEN.match(query[match.end() :])
    if zh:
        word = "before" if zh[1] in ("之前", "以前", "前") else "since" if zh[1] == "以来" else "after"
    if word == "before":
        return None, start - timedelta(days=1)
    if word in ("by", "until", "till"):
        return None, end
    if word == "after":
        return end + timedelta(days=1), None
    if word == "since":
        return start, None
    return start, end


def parse_time_range(
    query: str, at: datetime, *, find_anchor: Callable[[str], date | None] | None = None
) -> TimeRange | None:
    """The time range a query names, anchored at `at`; None when it names none.

    Args:
        query: the user's question, English or Chinese.
        at: when the question is asked; relative expressions count from its local date.
        find_anchor: optional lookup from a phrase ("the launch") to the date it happened, for
            "before the launch" / "after the move".

    Returns:
        The first expression's range, or None.

    Example:
        >>> parse_time_range("what did we agree last week?", datetime(2026, 3, 11)).start
        datetime.date(2026, 3, 2)
    """
    today = at.date()
    found: list[tuple[int, TimeRange]] = []
    taken: list[tuple[int, int]] = []
    for pattern, resolve in _RULES:
        for match in pattern.finditer(query):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue  # a more specific rule already read these words ("8 May" before "May")
            span = resolve(match, today)
            if span is None:
                continue
            taken.append((match.start(), match.end()))
            start, end = _open_range(query, match, *span)
            found.append((match.start(), TimeRange(start, end, match.group(0))))
    if found:
        return min(found, key=lambda item: item[0])[1]
    if find_anchor is not None:
        anchor = _EN_EVENT_ANCHOR.search(query)
        if anchor:
            day = find_anchor(anchor[2].strip())
            if day is not None:
                if anchor[1].lower() == "before":
                    return TimeRange(None, day - timedelta(days=1), anchor.group(0))
                return TimeRange(day + timedelta(days=1), None, anchor.group(0))
    return None
