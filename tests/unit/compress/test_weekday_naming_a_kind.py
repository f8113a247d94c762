"""A weekday between a determiner and a noun ("the Sunday mass", "my Friday class") says what kind
of thing it is when a month and day nearby date it: it is no second day of that event (LongMemEval
dev: "attended the Sunday mass at St. Mary's Church on January 2nd" had read "Sunday" as the last
Sunday before the turn). A weekday alone, or one with no other date near, is still read."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn

# random days over three years, and one at a year's end
_DRAW = random.Random(7)
ANCHORS = [datetime(2023, 1, 1, 10, tzinfo=UTC) + timedelta(days=_DRAW.randrange(1100)) for _ in range(2)]
ANCHORS.append(datetime(2024, 12, 30, 10, tzinfo=UTC))


def _dates(text: str, when: datetime) -> list[str]:
    (event,) = compress([Turn(id="s:1", namespace="t", session="s", speaker="user", text=text, time=when)])
    return sorted({str(a.value) for a in event.atoms if a.kind == "date"})


@pytest.mark.parametrize("when", ANCHORS)
@pytest.mark.parametrize(
    ("kind", "noun"), [("the", "mass"), ("my", "class"), ("our", "market"), ("a", "brunch")]
)
def test_a_weekday_naming_a_kind_of_thing_is_no_day_of_it(when, kind, noun):
    text = f"I went to {kind} Sunday {noun} at the Elmbridge hall on March 3rd, and it was lovely."
    dates = _dates(text, when)
    assert len(dates) == 1 and dates[0].endswith("-03-03")


@pytest.mark.parametrize("when", ANCHORS)
def test_a_weekday_with_no_other_date_near_is_still_read(when):
    assert len(_dates("I went to the Sunday mass at the Elmbridge hall.", when)) == 1
    assert len(_dates("See you on Sunday at the Elmbridge hall.", when)) == 1
    # a weekday written with its date is that date's, as before
    assert _dates("We meet on Friday, March 3rd at the hall.", when)[0].endswith("-03-03")
