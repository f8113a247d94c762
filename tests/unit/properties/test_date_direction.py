"""A date takes the occurrence that fits what it is, not the tense of the verb around it.

Generated cases (seeded; >= 500): random anchors, a third of them within two weeks of a year end, in
Chinese and English, for dates that are ahead (a plan, a deadline, a moved date, a promise, reported
speech about any of these) and dates that are behind (a report of something done, a weekend or
weekday just gone), and named months (a whole month). The expected date is computed here by walking
the calendar day by day, not by the rules under test.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn

_RNG = random.Random(20261204)
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]  # fmt: skip
_ZH_NUM = "一二三四五六七八九十"
_TZ = {"zh": timezone(timedelta(hours=8)), "en": UTC}


def _anchor(rng: random.Random) -> date:
    if rng.random() < 0.35:  # near a year end, where the year of a bare date flips
        return date(rng.randint(2024, 2029), 12, 31) + timedelta(days=rng.randint(-14, 14))
    return date(2024, 1, 1) + timedelta(days=rng.randrange(0, 6 * 365))


def _first_on_or_after(day: date, fits: Callable[[date], bool]) -> date:
    while not fits(day):
        day += timedelta(days=1)
    return day


def _last_on_or_before(day: date, fits: Callable[[date], bool]) -> date:
    while not fits(day):
        day -= timedelta(days=1)
    return day


def _name(rng: random.Random) -> str:
    return rng.choice("BCDFGHJKLMNPRSTVZ") + "".join(
        rng.choice("aeiou") + rng.choice("lnrstv") for _ in range(2)
    )


def _zh_month(m: int) -> str:
    return _ZH_NUM[m - 1] if m <= 10 else "十" + _ZH_NUM[m - 11]


def _ordinal(d: int) -> str:
    return f"{d}{'th' if 11 <= d % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(d % 10, 'th')}"


@dataclass(frozen=True)
class Case:
    kind: str
    lang: str
    anchor: date
    text: str
    expected: date

    def __str__(self) -> str:
        return f"{self.kind}-{self.lang}-{self.anchor.isoformat()}"


def _ahead_month_day(rng, anchor, lang, kind) -> Case:
    target = anchor + timedelta(days=rng.randint(1, 80))
    m, d = target.month, target.day
    who = _name(rng)
    texts = {
        ("plan", "en"): f"The launch is on {_MONTHS[m - 1]} {d}.",
        ("reported", "en"): f"{who} said the launch is on {_MONTHS[m - 1]} {d}.",
        ("moved", "en"): f"The deadline moved to {_MONTHS[m - 1]} {d}.",
        ("moved-reported", "en"): f"{who} mentioned the review was moved to {_MONTHS[m - 1]} {d}.",
        ("plan", "zh"): f"发布会定在{m}月{d}号。",
        ("reported", "zh"): f"林总说尾款{m}月{d}号之前打过来。",
        ("moved", "zh"): f"验收改到{m}月{d}号了。",
        ("moved-reported", "zh"): f"他说会议已经改到{m}月{d}号了。",
    }
    expected = _first_on_or_after(anchor, lambda x: (x.month, x.day) == (m, d))
    return Case(kind, lang, anchor, texts[(kind, lang)], expected)


def _promised_day(rng, anchor, lang, kind) -> Case:
    d = (anchor + timedelta(days=rng.randint(1, 25))).day
    text = f"They promised delivery by the {_ordinal(d)}." if lang == "en" else f"对方答应{d}号之前发货。"
    return Case(kind, lang, anchor, text, _first_on_or_after(anchor, lambda x: x.day == d))


def _done_month_day(rng, anchor, lang, kind) -> Case:
    target = anchor - timedelta(days=rng.randint(1, 80))
    m, d = target.month, target.day
    text = f"We signed the contract on {_MONTHS[m - 1]} {d}." if lang == "en" else f"我们{m}月{d}号签了合同。"
    return Case(kind, lang, anchor, text, _last_on_or_before(anchor, lambda x: (x.month, x.day) == (m, d)))


def _done_day(rng, anchor, lang, kind) -> Case:
    d = (anchor - timedelta(days=rng.randint(1, 25))).day
    text = (
        f"{_name(rng)} sent the invoice on the {_ordinal(d)}." if lang == "en" else f"发票{d}号已经寄出了。"
    )
    return Case(kind, lang, anchor, text, _last_on_or_before(anchor, lambda x: x.day == d))


def _weekend_gone(rng, anchor, lang, kind) -> Case:
    text = "We went hiking over the weekend." if lang == "en" else "周末去爬了香山。"
    return Case(kind, lang, anchor, text, _last_on_or_before(anchor, lambda x: x.weekday() == 5))


def _weekday_gone(rng, anchor, lang, kind) -> Case:
    wd = rng.randrange(7)
    if lang == "en":
        day = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][wd]
        text = f"{_name(rng)} visited the plant on {day}."
        # a bare weekday in the past: the last one before today
        expected = _last_on_or_before(anchor - timedelta(days=1), lambda x: x.weekday() == wd)
    else:
        text = f"周{'一二三四五六日'[wd]}去了趟苏州。"
        expected = _last_on_or_before(anchor, lambda x: x.weekday() == wd)
    return Case(kind, lang, anchor, text, expected)


def _month_range(rng, anchor, lang, kind) -> Case:
    m = rng.randint(1, 12)
    past = kind == "month-past"
    if lang == "en":
        text = f"We moved the office in {_MONTHS[m - 1]}." if past else f"The audit is in {_MONTHS[m - 1]}."
    else:
        zh = _zh_month(m) if rng.random() < 0.5 else str(m)
        text = f"{zh}月份我们搬了办公室。" if past else f"{zh}月份要做审计。"
    firsts = [date(anchor.year + k, m, 1) for k in (-1, 0, 1)]
    if past:
        expected = max(f for f in firsts if f <= anchor)
    else:  # the month not yet over
        expected = min(f for f in firsts if (f.replace(day=28) + timedelta(days=4)).replace(day=1) > anchor)
    return Case(kind, lang, anchor, text, expected)


_KINDS = [
    ("plan", _ahead_month_day),
    ("reported", _ahead_month_day),
    ("moved", _ahead_month_day),
    ("moved-reported", _ahead_month_day),
    ("arranged", _promised_day),
    ("done", _done_month_day),
    ("done-day", _done_day),
    ("weekend-gone", _weekend_gone),
    ("weekday-gone", _weekday_gone),
    ("month-past", _month_range),
    ("month-ahead", _month_range),
]
CASES = [
    maker(_RNG, _anchor(_RNG), lang, kind)
    for _ in range(24)
    for kind, maker in _KINDS
    for lang in ("en", "zh")
]
assert len(CASES) >= 500


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_date_points_where_its_event_is(case: Case):
    when = datetime.combine(case.anchor, time(10, 0), tzinfo=_TZ[case.lang])
    turn = Turn(id="t", session="s", speaker="user", time=when, text=case.text)
    dates = {d for e in compress([turn]) for d in e.dates}
    assert case.expected in dates, (
        f"{case.text} said {case.anchor}: want {case.expected}, got {sorted(dates)}"
    )


def test_a_not_a_question_is_no_negation():
    """能不能 / 是不是 / 有没有 ask; they do not negate (不能 does)."""
    rng = random.Random(7)
    for _ in range(20):
        d = rng.randint(1, 28)
        asked = Turn(id="q", session="s", speaker="user", time=datetime(2026, 4, 14, 10, tzinfo=_TZ["zh"]),
                     text=f"你能不能{d}号之前把报告发给我？")  # fmt: skip
        said = asked.model_copy(update={"text": f"我{d}号之前不能把报告发给你。"})
        assert not any(e.negated for e in compress([asked]))
        assert any(e.negated for e in compress([said]))
