"""A client's story on the shapes real messages use, end to end on the embedded store: a look-alike
firm named "to say it is not the client" stays out of the client's story; a note's arrow between
two bare counts chains ("branches 6 → 8", then back 8 → 7 → 8); a firm with a legal form is found
by its bare name and its initials without the form; chit-chat placed by a part of the day does not
continue a client's thread, a clock time still does (consolidate/entities.py, global_pass.py,
focus.py, updates.py, compress/amounts.py). Made-up names; the cases that must not change are beside
each rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph import Memory
from simplemem_graph.compress import compress
from simplemem_graph.consolidate.aliases import short_forms, without_legal_form
from simplemem_graph.consolidate.focus import states_value
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.stores.queries import EventQuery

from .conftest import consolidated_memory, story_turns

START = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)


def _memory(embedder, *turns: tuple[str, str, str]) -> Memory:
    return consolidated_memory(embedder, START, *turns)


def test_a_look_alike_named_to_say_it_is_not_the_client_stays_out(embedder):
    memory = _memory(
        embedder,
        ("s1", "user", "new client: Marrowby Dental Group, fit-out of their Leeds branch, £24,000"),
        ("s1", "user", "also Marrowby Optics rang, nothing to do w Marrowby Dental Group, they want a quote"),
        ("s1", "user", "Marrowby Dental Group deposit £7,200 landed"),
    )
    story = story_turns(memory, "Marrowby Dental Group")
    assert "s1:0" in story and "s1:2" in story
    assert "s1:1" not in story


def test_a_firm_named_after_the_client_without_a_contrast_is_still_the_clients_turn(embedder):
    memory = _memory(
        embedder,
        ("s1", "user", "new client: Marrowby Dental Group, fit-out of their Leeds branch, £24,000"),
        ("s1", "user", "Marrowby Dental Group want the Leeds branch signage from Brightline Signs"),
    )
    assert "s1:1" in story_turns(memory, "Marrowby Dental Group")


def test_arrow_counts_chain_even_when_a_value_comes_back(embedder):
    memory = _memory(
        embedder,
        ("s1", "assistant", "Noted: Marrowby phase 1 — 6 branches at £2,950 per branch."),
        ("s2", "assistant", "Updated: Marrowby phase 1 branches 6 → 8 (two branches added)."),
        ("s3", "assistant", "Updated: Marrowby phase 1 branches 8 → 7 (one refit slipped)."),
        ("s4", "assistant", "Updated: Marrowby phase 1 branches 7 → 8 (the refit is back in)."),
    )
    events = {e.id: e.source_ids[0] for e in memory.store.events("t", EventQuery())}
    chains = {
        (events[link.source], events[link.target])
        for link in memory.store.links("t", kinds=[LinkKind.SUPERSEDES])
        if link.source in events and link.target in events
    }
    assert {("s2:1", "s1:0"), ("s3:2", "s2:1"), ("s4:3", "s3:2")} <= chains
    assert ("s4:3", "s2:1") not in chains  # 7 → 8 revises the note that moved to 7, not the one at 8


def test_arrow_counts_take_the_word_before_them_as_unit():
    (event,) = compress(
        [Turn(id="t", session="s", speaker="assistant", text="Updated: headcount 182 → 197.", time=START)]
    )
    assert {(q.value, q.unit) for q in event.quantities if q.kind == "quantity"} == {
        (182, "headcount"),
        (197, "headcount"),
    }


def test_a_firm_with_a_legal_form_goes_by_its_bare_name_and_initials(embedder):
    memory = _memory(
        embedder,
        ("s1", "user", "New project signed w/ Harlow Quint Ostby LLP, a probate firm. office move in March"),
        ("s1", "user", "they go by HQO internally so that's what I'm putting in the tickets"),
        ("s1", "user", "HQO deposit landed, $4,000"),
    )
    story = story_turns(memory, "Harlow Quint Ostby")
    assert {"s1:0", "s1:2"} <= story


@pytest.mark.parametrize(
    ("name", "bare"),
    [("Harlow Quint Ostby LLP", "Harlow Quint Ostby"), ("Acme Ltd", None), ("Kestrel Survey Group", None)],
)
def test_without_legal_form(name, bare):
    assert without_legal_form(name) == bare


def test_a_firm_named_by_what_it_is_goes_by_its_first_word():
    assert short_forms("Wexdale Cabs", "org") == ["Wexdale"]
    assert short_forms("Wexdale Plant Hire", "org") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("中午吃啥 螺蛳粉冲不冲", False),
        ("昨天下午三点送到的，对方本人签收", True),
        ("call at 10:30 with them", True),
    ],
)
def test_a_part_of_the_day_is_no_value_a_clock_time_is(text, value):
    events = compress([Turn(id="t", session="s", speaker="user", text=text, time=START)])
    assert any(states_value(e) for e in events) is value
