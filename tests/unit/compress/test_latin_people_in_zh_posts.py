"""One Latin word in Chinese text is a product unless the text says it is a person; taking over a
post, following a client up or going on leave says so ("后面换成Jason对接", "轉咗俾Raymond跟",
"Cheryl下个月放產假"): they had been products, so no handover could name them. Made-up names; the
four cases fail on the code before, the guard passes on both."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn


def _kinds(text: str) -> dict[str, str]:
    turn = Turn(id="t", session="s", speaker="user", time=datetime(2026, 9, 3, 9, tzinfo=UTC), text=text)
    return {p.name: p.type for e in compress([turn]) for p in e.participants}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("她下个月休产假，后面换成Dorian对接", "Dorian"),
        ("后面转给Priyanka负责", "Priyanka"),
        ("Marisol下个月放產假，轉咗俾Osric跟", "Osric"),
        ("Marisol下个月放產假，轉咗俾Osric跟", "Marisol"),
    ],
)
def test_a_post_or_a_leave_makes_a_latin_word_a_person(text, name):
    assert _kinds(text).get(name) == "person", _kinds(text)


def test_a_thing_switched_to_is_still_a_product():
    assert _kinds("我换成Kindle看书了").get("Kindle") == "product"


@pytest.mark.parametrize(
    ("text", "name"),
    [("后面对接换何骁 运营的男生", "何骁"), ("对接人换成何骁了", "何骁"), ("后面换柏宁对接", "柏宁")],
)
def test_who_a_post_is_handed_to_is_a_person(text, name):
    """jieba splits an unknown given name into single characters (何 / 骁); the handover's slot says
    "a person", a particle after it (了) is no part of the name."""
    assert _kinds(text).get(name) == "person", _kinds(text)


def test_a_handover_slot_takes_no_thing():
    assert "张桌" not in _kinds("换张桌子了")
