"""The context pack: memories first (with dates), then external knowledge, then the instruction.

This is the seed's order: the model reads what it remembers, then what it was told, then what to
do. The whole pack fits a token budget (tokens as `simplemem_graph.text.count_tokens` counts
them). The instruction is always kept whole, since a prompt without its instruction is useless;
memories come next, best first, and knowledge gets what is left. An item that does not fit is
cut at a word boundary when at least a few words of it fit, otherwise left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from simplemem_graph.errors import InputError
from simplemem_graph.models import DEFAULT_STATUSES, Hit
from simplemem_graph.text import count_tokens

PATTERNS_HEADER = "## Patterns"
MEMORIES_HEADER = "## Memories"
QUESTIONS_HEADER = "## Open questions"
KNOWLEDGE_HEADER = "## Knowledge"
INSTRUCTION_HEADER = "## Instruction"
_MIN_USEFUL_TOKENS = 8  # a cut item shorter than this says nothing; leave it out instead
_ELLIPSIS = " …"


def format_memory(hit: Hit) -> str:
    """One memory line: its date, a due date or non-active status when there is one, the text."""
    event = hit.event
    day = event.time.date().isoformat()
    # A memory retrieved for a "when" question opens with its day already (`retrieve._dated`).
    tags = [] if event.text.startswith(f"[{day}] ") else [day]
    if event.deadline:
        tags.append(f"due {event.deadline.isoformat()}")
    if event.status not in DEFAULT_STATUSES:
        tags.append(str(event.status))
    return f"- [{', '.join(tags)}] {event.text}" if tags else f"- {event.text}"


def _truncate(line: str, budget: int) -> str | None:
    """The longest prefix of `line` (cut between words) within `budget` tokens, or None."""
    if count_tokens(line) <= budget:
        return line
    if budget < _MIN_USEFUL_TOKENS:
        return None
    room = budget - count_tokens(_ELLIPSIS)
    words = re.split(r"(\s+)", line)
    kept = ""
    for piece in words:
        if count_tokens(kept + piece) > room:
            break
        kept += piece
    if count_tokens(kept) < _MIN_USEFUL_TOKENS:
        return None
    return kept.rstrip() + _ELLIPSIS


def _fill(header: str, lines: Sequence[str], budget: int) -> tuple[list[str], int]:
    """As many lines as fit in `budget` under `header`; returns the section and tokens used."""
    if not lines:
        return [], 0
    cost = count_tokens(header)
    if cost >= budget:
        return [], 0
    section = [header]
    for line in lines:
        fitted = _truncate(line, budget - cost)
        if fitted is None:
            break
        section.append(fitted)
        cost += count_tokens(fitted)
    return (section, cost) if len(section) > 1 else ([], 0)


def build_context(
    hits: Sequence[Hit],
    *,
    knowledge: Sequence[str] = (),
    instruction: str = "",
    budget_tokens: int = 600,
    patterns: Sequence[str] = (),
    questions: Sequence[str] = (),
) -> str:
    """A prompt block: memories with dates, then external knowledge, then the instruction.

    Args:
        hits: retrieved memories, best first.
        knowledge: external knowledge snippets (documents, tool output), most useful first.
        instruction: what the model should do; always included whole.
        budget_tokens: the most tokens the pack may use (as `count_tokens` counts).
        patterns: pattern memories that summarise some of the hits; they go above the
            memories, which they never replace.
        questions: open questions of the topic, for the agent to ask; after the memories.

    Returns:
        The pack as Markdown sections; empty sections are left out.

    Raises:
        InputError: when the budget is not positive or the instruction alone exceeds it.

    Example:
        >>> print(build_context(hits, knowledge=["Acme's fiscal year ends in March."],
        ...                     instruction="Answer in one sentence."))
        ## Memories
        - [2026-02-03] Ana said Acme moved the kickoff to 2026-03-12.
        ## Knowledge
        - Acme's fiscal year ends in March.
        ## Instruction
        Answer in one sentence.
    """
    if budget_tokens <= 0:
        raise InputError(f"context: budget_tokens must be positive, got {budget_tokens}")
    instruction = instruction.strip()
    instruction_section = [INSTRUCTION_HEADER, instruction] if instruction else []
    reserved = sum(count_tokens(line) for line in instruction_section)
    if reserved > budget_tokens:
        raise InputError(
            f"context: the instruction alone takes {reserved} tokens, over the budget of {budget_tokens}"
        )
    room = budget_tokens - reserved
    regularities, used = _fill(PATTERNS_HEADER, [f"- {p.strip()}" for p in patterns if p.strip()], room)
    memories, used_memories = _fill(MEMORIES_HEADER, [format_memory(h) for h in hits], room - used)
    used += used_memories
    asks, used_asks = _fill(QUESTIONS_HEADER, [f"- {q.strip()}" for q in questions if q.strip()], room - used)
    used += used_asks
    knowledge_lines = [f"- {k.strip()}" for k in knowledge if k.strip()]
    facts, _ = _fill(KNOWLEDGE_HEADER, knowledge_lines, room - used)
    return "\n".join([*regularities, *memories, *asks, *facts, *instruction_section])
