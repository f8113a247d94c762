"""What is no update: a visit ("went to a conference") is no change word, and an agent's advice
formatted as a list (a second list of prices, a recomputed total) replaces nothing the user said.
Both had made SUPERSEDES links that hid a user's fact from every search (LoCoMo conv-26: the
counseling workshop she went to; six LongMemEval dev haystacks: 47 links with an agent's reply on
either side, none right). An agent's reply that reports a change it made, or notes a new value in
one line, still makes one. End to end on the embedded store; made-up names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph import Memory
from simplemem_graph.models import EventStatus, LinkKind
from simplemem_graph.stores.queries import EventQuery

from .conftest import memory_of

START = datetime(2026, 6, 29, 18, 0, tzinfo=UTC)  # a Monday


def _memory(embedder, *turns: tuple[str, str, str, int]) -> Memory:
    """(session, speaker, text, days after START) turns, consolidated once."""
    return memory_of(
        embedder,
        [
            (s, who, text, START + timedelta(days=days, minutes=i))
            for i, (s, who, text, days) in enumerate(turns)
        ],
    )


def _superseded(memory: Memory) -> list[str]:
    return sorted(e.text for e in memory.store.events("t", EventQuery()) if e.status == "superseded")


def _supersedes(memory: Memory) -> int:
    return len(memory.store.links("t", kinds=[LinkKind.SUPERSEDES]))


def test_going_somewhere_is_no_change_of_where_one_went(embedder):
    workshop = "Last Friday I went to the Harrowgate counseling workshop and it was really enlightening."
    memory = _memory(
        embedder,
        ("s1", "Orla", workshop, 0),
        ("s2", "Orla", "I went to the Harrowgate conference two days ago and it was really special.", 14),
    )
    assert _supersedes(memory) == 0
    assert _superseded(memory) == []


def test_an_agents_total_replaces_no_amount_the_user_said(embedder):
    memory = _memory(
        embedder,
        ("s1", "user", "I got my cousin a silver bracelet for around $60 plus $5 for wrapping.", 0),
        ("s1", "assistant", "Here is your list:\n+ Silver bracelet: $60\n+ Gift wrapping: $5\nTotal: $65", 0),
        ("s1", "assistant", "+ Gift wrapping: $5\nTotal: $65", 0),
    )
    assert _supersedes(memory) == 0
    statuses = {e.text: e.status for e in memory.store.events("t", EventQuery())}
    said = [status for text, status in statuses.items() if "bracelet for around $60" in text]
    assert said == [EventStatus.ACTIVE]


# (first turn, second turn, SUPERSEDES links): each turn (session, speaker, text, days after START)
PAIRS = {
    "a price that goes to a new figure is still a change": (
        ("s1", "user", "The Tennerby retainer is £1,200 a month.", 0),
        ("s2", "user", "The Tennerby retainer goes to £1,350 a month from May.", 3),
        1,
    ),
    "an agent's second list of prices replaces no first one": (
        ("s1", "assistant", "** Toothpaste, 6.4 oz, is currently priced at $4.99 online and in-store.", 0),
        ("s1", "assistant", "** Canned beans, 15 oz, are currently priced at $1.49 online and in-store.", 0),
        0,
    ),
    "an agent's one-line note of a new value still supersedes": (
        ("s1", "assistant", "Noted: Tennerby retainer £1,200 a month.", 0),
        ("s1", "assistant", "Noted: Tennerby retainer £1,350 a month from May.", 1),
        1,
    ),
    "an agent that reports moving an appointment still supersedes": (
        ("s1", "user", "My dentist appointment with Dr Qualls is on 14 July 2026.", 0),
        ("s2", "assistant", "Done: your dentist appointment with Dr Qualls is moved to 21 July 2026.", 2),
        1,
    ),
}


@pytest.mark.parametrize("case", list(PAIRS))
def test_a_pair_of_turns_makes_the_updates_it_says(embedder, case):
    first, second, links = PAIRS[case]
    assert _supersedes(_memory(embedder, first, second)) == links
