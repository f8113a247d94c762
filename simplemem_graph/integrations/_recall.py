"""The one recall every adapter makes: a search, and the prompt block of its memories."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simplemem_graph.retrieve import RetrievalResult, build_context

if TYPE_CHECKING:
    from simplemem_graph.memory import Memory


def recall(memory: Memory, query: str, *, k: int | None, budget_tokens: int) -> tuple[RetrievalResult, str]:
    """The memories for `query` and their prompt block (memories with dates, the patterns above
    them); the block is "" when nothing was found, so an adapter adds nothing."""
    result = memory.search(query, k=k)
    if not result.hits:
        return result, ""
    block = build_context(
        result.hits, budget_tokens=budget_tokens, patterns=[p.text for p in result.patterns]
    )
    return result, block
