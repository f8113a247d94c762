"""The context pack: memories (with dates) first, then knowledge, then the instruction, in budget."""

from datetime import UTC, date, datetime

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.models import Event, Hit
from simplemem_graph.retrieve.context import build_context
from simplemem_graph.text import count_tokens

WHEN = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def hit(text, *, deadline=None, status="active", n=1):
    event = Event(id=f"e{n}", text=text, source_ids=[f"s:{n}"], time=WHEN, deadline=deadline, status=status)
    return Hit(event=event, score=1.0 / n)


HITS = [
    hit("Acme Corp moved the kickoff to 2026-03-12.", n=1),
    hit("小王要在2026-03-10之前把报告发给李经理。", deadline=date(2026, 3, 10), n=2),
    hit("Globex quoted 3.6 USD per bracket.", status="superseded", n=3),
]


def test_order_memories_knowledge_instruction():
    pack = build_context(HITS, knowledge=["Acme's fiscal year ends in March."], instruction="Answer briefly.")
    lines = pack.splitlines()
    assert lines[0] == "## Memories"
    assert lines[1] == "- [2026-03-02] Acme Corp moved the kickoff to 2026-03-12."
    assert lines[2] == "- [2026-03-02, due 2026-03-10] 小王要在2026-03-10之前把报告发给李经理。"
    assert lines[3] == "- [2026-03-02, superseded] Globex quoted 3.6 USD per bracket."
    assert lines[4:] == [
        "## Knowledge",
        "- Acme's fiscal year ends in March.",
        "## Instruction",
        "Answer briefly.",
    ]


def test_empty_sections_are_left_out():
    assert build_context([], instruction="Say hi.") == "## Instruction\nSay hi."
    assert "## Knowledge" not in build_context(HITS)
    assert build_context([]) == ""


@pytest.mark.parametrize("budget", [12, 20, 30, 45, 60, 600])
def test_budget_is_never_exceeded_and_instruction_is_kept(budget):
    knowledge = ["The kickoff needs the signed NDA from both sides before any data is shared."] * 3
    pack = build_context(HITS, knowledge=knowledge, instruction="Answer briefly.", budget_tokens=budget)
    assert count_tokens(pack) <= budget
    assert pack.endswith("## Instruction\nAnswer briefly.")


def test_memories_win_over_knowledge_when_the_budget_is_tight():
    full = count_tokens(build_context(HITS))
    pack = build_context(HITS, knowledge=["Extra background that does not fit."], budget_tokens=full)
    assert "## Knowledge" not in pack and pack.count("\n- ") == 3


def test_a_long_memory_is_cut_between_words():
    long = hit("Ana explained " + "the migration plan in great detail " * 30 + "and stopped.")
    pack = build_context([long], budget_tokens=40)
    assert count_tokens(pack) <= 40
    assert pack.endswith(" …") and "detail the" not in pack.split("\n")[1][-12:]


def test_instruction_over_budget_is_an_error():
    with pytest.raises(InputError, match="instruction"):
        build_context(HITS, instruction="word " * 50, budget_tokens=20)
    with pytest.raises(InputError, match="budget"):
        build_context(HITS, budget_tokens=0)
