"""The one recall every adapter makes: a search, and the prompt block of its memories."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from simplemem_graph.retrieve import RetrievalResult, build_context
from simplemem_graph.stores.queries import TurnQuery

if TYPE_CHECKING:
    from simplemem_graph.memory import Memory


def recall(
    memory: Memory, query: str, *, k: int | None, budget_tokens: int, shown: Collection[str] = ()
) -> tuple[RetrievalResult, str]:
    """The memories for `query` and their prompt block (memories with dates, the patterns above
    them); the block is "" when nothing was found, so an adapter adds nothing.

    `shown` are the texts the model already has in its input (the conversation so far): a memory
    made only from turns with one of those texts would repeat them, so it is left out."""
    result = memory.search(query, k=k)
    if shown and result.hits:
        texts = set(shown)
        sources = {
            t.id: t.text for t in memory.store.turns(memory.namespace, TurnQuery(ids=_source_ids(result)))
        }
        result.hits = [
            hit
            for hit in result.hits
            if not all(sources.get(turn_id) in texts for turn_id in hit.event.source_ids)
        ]
    if not result.hits:
        return result, ""
    block = build_context(
        result.hits, budget_tokens=budget_tokens, patterns=[p.text for p in result.patterns]
    )
    return result, block


def _source_ids(result: RetrievalResult) -> list[str]:
    return sorted({turn_id for hit in result.hits for turn_id in hit.event.source_ids})
