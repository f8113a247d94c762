"""A bare day that ends a Chinese range is a day of the month the range opened in: "年假批了，一月八号到
十五号" said on 2023-04-30 is 2024-01-08 to 2024-01-15, not to the coming 15th (2023-05-15); a
smaller end day is in the next month ("28号到3号"). Random anchors across year ends."""

from __future__ import annotations

import calendar
import random
import re
from datetime import UTC, date, datetime, timedelta

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.compress.dates_zh import find_dates_zh
from simplemem_graph.models import Turn
from tests.date_text import random_day


def _dates(text: str, today: date) -> list[str]:
    noon = datetime(today.year, today.month, today.day, 12, tzinfo=UTC)
    turn = Turn(id="t", session="s", speaker="我", time=noon, text=text)
    return [d for e in compress([turn]) for d in re.findall(r"\((\d{4}-\d{2}-\d{2})\)", e.text)]

_ZH_DIGITS = "零一二三四五六七八九"


def _zh_number(n: int) -> str:
    """12 -> 十二, 8 -> 八, 30 -> 三十: as people write a month or a day."""
    tens, ones = divmod(n, 10)
    return ("" if tens == 0 else ("十" if tens == 1 else _ZH_DIGITS[tens] + "十")) + (
        _ZH_DIGITS[ones] if ones else ""
    )


@pytest.mark.parametrize("seed", range(25))
def test_a_bare_day_ending_a_range_is_in_the_month_the_range_opened_in(seed):
    rng = random.Random(seed)
    today = random_day(rng, 2023)
    start = today + timedelta(days=rng.randrange(100, 260))  # ahead; a year before is > 90 days back
    length = calendar.monthrange(start.year, start.month)[1]
    end = rng.randrange(start.day + 1, length + 1) if start.day < length else None
    if end is None:
        start, end = start - timedelta(days=1), start.day
    month, first = start.month, start.day
    written = rng.choice(
        [
            f"{_zh_number(month)}月{_zh_number(first)}号到{_zh_number(end)}号",
            f"{month}月{first}日至{end}日",
            f"{month}月{first}号到{end}号",
        ]
    )
    text = f"年假批了，{written}，打算回去陪陪爸妈"
    got = _dates(text, today)
    assert got == [start.isoformat(), start.replace(day=end).isoformat()], (text, today, got)


def test_a_smaller_end_day_is_in_the_next_month_and_no_such_day_stands_alone():
    assert [m.value for m in find_dates_zh("28号到3号出差", date(2026, 3, 5))] == ["2026-03-28", "2026-04-03"]
    # February has no 30th: the end is read as a day on its own, never clamped to the 28th
    assert [m.value for m in find_dates_zh("2月8号到30号", date(2026, 1, 5))] == ["2026-02-08", "2026-01-30"]
