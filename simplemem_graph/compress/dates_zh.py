"""Chinese date expressions resolved against the turn's local date: 下周二, 周五之前, 月底, 后天, 下个月5号...

dateparser misses most of these forms, so they are rules. Each rule yields the resolved date and the
restatement that replaces the relative part (a deadline word such as 之前 stays in the text).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from simplemem_graph.compress.mentions import Mention
from simplemem_graph.compress.numerals import parse_number
from simplemem_graph.dates import (
    add_months,
    add_units,
    day_of_month,
    month_end,
    weekday_of_week,
    year_for_month_day,
)

_WEEKDAYS = {
    "一": 0,
    "二": 1,
    "三": 2,
    "四": 3,
    "五": 4,
    "六": 5,
    "日": 6,
    "天": 6,
    "1": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
}
_WEEK_SHIFT = {"下下": 2, "下": 1, "上上": -2, "上": -1, "这": 0, "本": 0, "": 0}
_MONTH_SHIFT = {"下个": 1, "下": 1, "上个": -1, "上": -1, "这个": 0, "本": 0, "": 0}
_DAY_WORDS = {
    "大前天": -3,
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "今早": 0,
    "明天": 1,
    "明日": 1,
    "明早": 1,
    "明晚": 1,
    "后天": 2,
    "大后天": 3,
}
# The restatement keeps the part-of-day character itself, so a time written on it ("晚七点") survives.
_DAY_PART = {"昨晚": "晚", "今晚": "晚", "今早": "早", "明早": "早", "明晚": "晚"}
_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "个星期": "week",
    "星期": "week",
    "个礼拜": "week",
    "个月": "month",
    "年": "year",
}
_SMALL_NUM = r"\d{1,2}|[一二三四五六七八九十]{1,3}"
_DEADLINE = r"(?P<dl>之前|以前|前)?"
_NOT_AFTER_NUMERAL = r"(?<![零一二两三四五六七八九十几\d])"


def _num(text: str) -> int | None:
    value = parse_number(text)
    return int(value) if value is not None else None


def _weekday(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    shift = _WEEK_SHIFT[m.group("rel") or ""]
    day = weekday_of_week(today, _WEEKDAYS[m.group("wd")], shift)
    return day, day.isoformat()


def _week(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    day = weekday_of_week(today, 0, _WEEK_SHIFT[m.group("rel")])
    return day, f"{day.isoformat()}当周"


def _weekend(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    day = weekday_of_week(today, 5, _WEEK_SHIFT[m.group("rel") or ""])
    return day, f"{day.isoformat()}周末"


def _month_edge(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    shift = _MONTH_SHIFT[m.group("rel") or ""]
    day = (
        month_end(today, shift) if m.group("pos") in ("底", "末") else add_months(today.replace(day=1), shift)
    )
    return day, day.isoformat() if m.group("pos") != "初" else f"{day.isoformat()[:7]}月初"


def _named_month_edge(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    """3月初 / 4月底: a named month's first or last day, in the year rule of M月D日."""
    month = _num(m.group("m"))
    if month is None or not 1 <= month <= 12:
        return None
    first = year_for_month_day(today, month, 1)
    if first is None:
        return None
    if m.group("pos") == "初":
        return first, f"{first.isoformat()[:7]}月初"
    day = month_end(first)
    return day, day.isoformat()


def _month_day(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    number = _num(m.group("d"))
    if number is None or not 1 <= number <= 31:
        return None
    day = add_months(today.replace(day=1), _MONTH_SHIFT[m.group("rel")], day_of_month=number)
    return day, day.isoformat()


def _month(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    day = add_months(today.replace(day=1), _MONTH_SHIFT[m.group("rel")])
    return day, day.isoformat()[:7]


def _year_end(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    year = today.year + {"今": 0, "明": 1, "去": -1, "": 0}[m.group("rel") or ""]
    day = date(year, 12, 31)
    return day, day.isoformat()


def _absolute(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    month, number = _num(m.group("m")), _num(m.group("d"))
    if month is None or number is None or not 1 <= month <= 12:
        return None
    if m.group("y"):
        try:
            day = date(int(m.group("y")), month, number)
        except ValueError:
            return None
    else:
        day = year_for_month_day(today, month, number)
    # Already absolute: the restatement keeps the surface as written.
    return (day, m.group("core")) if day else None


def _bare_day(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    number = _num(m.group("d") or m.group("dz"))
    day = day_of_month(today, number, past=past) if number else None
    return (day, day.isoformat()) if day else None


def _day_word(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    word = m.group("w")
    day = today + timedelta(days=_DAY_WORDS[word])
    return day, day.isoformat() + _DAY_PART.get(word, "")


def _count(m: re.Match, today: date, past: bool) -> tuple[date, str] | None:
    raw = m.group("n")
    amount = 1.5 if raw == "一个半" else 0.5 if raw in ("半", "半个") else parse_number(raw)
    if amount is None:
        return None
    direction = -1 if m.group("dir") in ("前", "之前", "以前") else 1
    day = add_units(today, direction * amount, _UNITS[m.group("u")])
    suffix = "之前" if m.group("dir") in ("内", "之内", "以内") else ""
    return day, day.isoformat() + suffix


# (pattern, resolver); the core group is what gets replaced, anything after it (之前) is kept.
_RULES: list[tuple[re.Pattern, Callable[[re.Match, date, bool], tuple[date, str] | None]]] = [
    (
        re.compile(
            rf"(?P<core>(?:(?P<y>\d{{4}})年)?(?P<m>{_SMALL_NUM})月(?P<d>{_SMALL_NUM})[日号]){_DEADLINE}"
        ),
        _absolute,
    ),
    (
        re.compile(rf"(?P<core>(?P<rel>下个|下|上个|上|这个|本)月(?P<d>{_SMALL_NUM})[号日]){_DEADLINE}"),
        _month_day,
    ),
    (re.compile(rf"(?P<core>(?P<m>{_SMALL_NUM})月(?P<pos>底|末|初)){_DEADLINE}"), _named_month_edge),
    (
        re.compile(
            rf"{_NOT_AFTER_NUMERAL}(?P<core>(?P<rel>下个|下|上个|上|这个|本)?月(?P<pos>底|末|初)){_DEADLINE}"
        ),
        _month_edge,
    ),
    (
        re.compile(rf"(?P<core>(?P<rel>下个|下|上个|上)月)(?![底末初份\d一二三四五六七八九十]){_DEADLINE}"),
        _month,
    ),
    (re.compile(rf"(?P<core>(?P<rel>今|明|去)?年底){_DEADLINE}"), _year_end),
    (
        re.compile(
            rf"{_NOT_AFTER_NUMERAL}(?P<core>(?P<rel>下下|上上|下|上|这|本)?个?(?:周|星期|礼拜)"
            # 周1 is Monday, but 周10 is not a weekday: a digit weekday is one digit only
            rf"(?P<wd>[一二三四五六日天]|[1-7](?!\d))){_DEADLINE}"
        ),
        _weekday,
    ),
    (
        re.compile(
            rf"(?P<core>(?P<rel>下下|上上|下|上|这|本)个?(?:周|星期|礼拜))(?![一二三四五六日天1-7末])"
            rf"{_DEADLINE}"
        ),
        _week,
    ),
    (re.compile(rf"(?P<core>(?P<rel>下|上|这|本)?个?周末){_DEADLINE}"), _weekend),
    (
        re.compile(
            r"(?P<core>(?P<n>\d+|一个半|半个|[零一二两三四五六七八九十半]+)(?P<u>天|日|周|个星期|星期|个礼拜|个月|年)"
            r"(?P<dir>之后|以后|后|之内|以内|内|之前|以前|前))"
        ),
        _count,
    ),
    (
        re.compile(
            rf"(?P<core>(?P<w>大前天|大后天|前天|后天|昨天|昨日|昨晚|今天|今日|今晚|今早|明天|明日|明早|明晚))"
            rf"{_DEADLINE}"
        ),
        _day_word,
    ),
    (
        re.compile(
            rf"(?<![月\d第每])(?P<core>(?P<d>\d{{1,2}})[号日]|(?P<dz>[一二三四五六七八九十]{{1,3}})号)"
            rf"(?![线楼房院机桌座位码])(?!\d){_DEADLINE}"
        ),
        _bare_day,
    ),
]
_DEADLINE_PREFIX = re.compile(r"(?:截止到|截止|截至|最晚|最迟|不晚于)$")


def find_dates_zh(text: str, today: date, *, past: bool = False) -> list[Mention]:
    """Every Chinese date expression in `text`, resolved from `today` (the turn's local date).

    Args:
        text: one sentence (offsets are relative to it).
        today: the turn's local calendar date.
        past: the sentence is in the past tense (decides a bare "26号").

    Returns:
        Date mentions, possibly overlapping (the caller resolves overlaps). `extra` holds
        `replacement` (the restatement of the whole surface) and `deadline`.

    Example:
        >>> [m.value for m in find_dates_zh("下周二之前交", date(2026, 3, 10))]
        ['2026-03-17']
    """
    found: list[Mention] = []
    for pattern, resolve in _RULES:
        for m in pattern.finditer(text):
            resolved = resolve(m, today, past)
            if resolved is None:
                continue
            day, core_restated = resolved
            deadline_word = m.groupdict().get("dl") or ""
            rest = text[m.end("core") : m.end()]
            deadline = bool(deadline_word) or bool(_DEADLINE_PREFIX.search(text[: m.start()][-4:]))
            deadline = deadline or core_restated.endswith("之前")
            found.append(
                Mention(
                    "date",
                    m.start(),
                    m.end(),
                    m.group(0),
                    day.isoformat(),
                    {"replacement": core_restated + rest, "deadline": deadline},
                )
            )
    return found
