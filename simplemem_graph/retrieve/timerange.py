"""Time ranges named in a query ("last week", 上周, "in February", 3月份, "yesterday"), as dates.

Expressions are read by the same rules as compression (compress/timeexpr.py::find_dates): a
mention's span of days is the range, so "下周二" or "mid-March" in a question names the days the
stored events were dated with. Only whole months and years named in a question are read here.

Every expression is anchored at `at`, the moment the question is asked (not the wall clock), in
`at`'s own time zone. Weeks start on Monday, as in the dev sets. A month named without a year is
the most recent such month not after `at` ("in February" asked in October means this February).
"before/after <date>" gives an open range; "before/after <something that happened>" is resolved
by the caller through `find_anchor` (best effort: the date of the best-matching event).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from simplemem_graph.compress.mentions import resolve_overlaps
from simplemem_graph.compress.numerals import parse_number
from simplemem_graph.compress.timeexpr import find_dates, is_past
from simplemem_graph.dates import EN_MONTHS, month_bounds, month_day, year_bounds

_MONTHS = EN_MONTHS
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class TimeRange:
    """A closed range of dates; either end may be open (None)."""

    start: date | None
    end: date | None
    surface: str  # the words of the query that named it
    # Only the dates a memory names are in range, not the day it was said: set for a range from
    # the asking day on, in a question not about the past ("a movie to watch tonight", 明天去哪玩;
    # not "what did I do today?", nor "anything new this week?", which began before today).
    # It says when the asker means to do something; what was chatted about that same day is not
    # what was asked, a plan made for that day is ("the dentist tomorrow at 3").
    named_only: bool = False

    def contains(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


def _recent_month(day: date, month: int, year: str | None) -> tuple[date, date] | None:
    """A month named without a year is the latest such month not after `day`."""
    if not 1 <= month <= 12:
        return None
    first = month_day(day, month, 1, int(year) if year else None, past=True)
    return month_bounds(first.year, first.month)


def _number(text: str) -> int:
    value = parse_number(text)
    return int(value) if value is not None else 0


# What only a question says: a month or a year as a whole ("in February", 3月份, "in 2023").
# Every other expression (days, weeks, weekdays, parts of months, deadlines) is read by
# compression's own rules (compress/timeexpr.py), so a question and a stored event agree on what
# "下周二" or "the Friday before last" is.
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], tuple[date, date] | None]]
_QUERY_RULES: list[_Rule] = [
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
    (re.compile(r"\b(?:in|during)\s+(\d{4})\b", re.I), lambda m, d: year_bounds(int(m[1]))),
    (re.compile(r"(\d{4})年(\d{1,2})月份?"), lambda m, d: _recent_month(d, int(m[2]), m[1])),
    (
        re.compile(r"(\d{1,2}|十[一二]?|[一二三四五六七八九])月份?"),
        lambda m, d: _recent_month(d, _number(m[1]), None),
    ),
    (re.compile(r"(\d{4})年(?!\d|[一二三四五六七八九十]+月)"), lambda m, d: year_bounds(int(m[1]))),
]

# "before X" / "after X" / "since X" / 之前 / 以后: the range is open on one side.
_EN_OPEN = re.compile(r"\b(before|until|till|by|after|since)\s+$", re.I)
_ZH_OPEN = re.compile(r"^(之前|以前|前|之后|以后|后|以来)")
_EN_EVENT_ANCHOR = re.compile(
    r"\b(before|after|since)\s+(?:the|our|my|their|his|her)\s+([\w\s'-]{3,40}?)(?=[?.!,]|$)", re.I
)


# The bound words the date rules keep inside a mention ("by Friday", "15号之前"), as range sides.
_BOUNDS = {
    "by": "by",
    "until": "by",
    "till": "by",
    "no later than": "by",
    "not later than": "by",
    "within": "by",
    "before": "before",
    "之前": "before",
    "以前": "before",
    "前": "before",
}


def _open_range(
    query: str, start_at: int, end_at: int, start: date, end: date, bound: str | None = None
) -> tuple[date | None, date | None]:
    """Open the range on one side when a word like 'before', 'since', 之前 or 以后 frames it.

    'before X' excludes X; 'by/until X' and 'since X' include it; 'after X' starts the day after.
    """
    en = _EN_OPEN.search(query[:start_at])
    word = _BOUNDS.get(bound.lower()) if bound else (en[1].lower() if en else None)
    zh = _ZH_OPEN.match(query[end_at:])
    if zh and not bound:
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
    lang = "zh" if _CJK.search(query) else "en"
    past = is_past(query, lang)
    found_range = _first_range(query, today, lang, past, find_anchor)
    ahead = found_range is not None and found_range.start is not None and found_range.start >= today
    if found_range and ahead and not past:
        return replace(found_range, named_only=True)
    return found_range


def _first_range(
    query: str, today: date, lang: str, past: bool, find_anchor: Callable[[str], date | None] | None
) -> TimeRange | None:
    """The range of the first time expression of `query` (`parse_time_range` without `named_only`)."""
    found: list[tuple[int, TimeRange]] = []
    taken: list[tuple[int, int]] = []
    for mention in resolve_overlaps(find_dates(query, today, lang, past=past)):
        if mention.extra.get("named_month"):
            continue  # "in October" asked: the question's own rule below (the latest October)
        core_start, core_end = mention.extra["core"]
        taken.append((mention.start, mention.end))
        start, end = _open_range(
            query, mention.start, mention.end, *mention.extra["span"], mention.extra["bound"]
        )
        found.append((mention.start, TimeRange(start, end, query[core_start:core_end])))
    for pattern, resolve in _QUERY_RULES:
        for match in pattern.finditer(query):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue  # a more specific rule already read these words ("8 May" before "May")
            span = resolve(match, today)
            if span is None:
                continue
            taken.append((match.start(), match.end()))
            start, end = _open_range(query, match.start(), match.end(), *span)
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
