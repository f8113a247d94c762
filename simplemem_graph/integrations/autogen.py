"""AutoGen: `SimpleMemMemory`, an `autogen_core.memory.Memory` over a `Memory`.

    from autogen_agentchat.agents import AssistantAgent
    from simplemem_graph import Memory
    from simplemem_graph.integrations.autogen import SimpleMemMemory

    agent = AssistantAgent("assistant", model_client, memory=[SimpleMemMemory(Memory.open("memory.db"))])

How AutoGen's notions map onto ours (docs/integrations.md):

- `add(MemoryContent)`: a turn of the Memory's namespace (session "autogen", speaker "user",
  unless the content's metadata names a `session` or `speaker`); text and Markdown as they are,
  JSON as its JSON text. Images and bytes are refused (`InputError`): our memories are text.
- `query(text)`: our retrieval; each memory is a text `MemoryContent` whose metadata has its
  `score`, `event_id`, `time` and `source_ids` (the turns it came from).
- `update_context(model_context)`: the memories for the latest message of the context, as one
  `SystemMessage` (our prompt block: memories with dates, patterns above them) added to it.
- `clear()` forgets the whole namespace, raw log included (`Memory.forget(everything=True)`).
- `close()` leaves the `Memory` open: it is the caller's, and other adapters may share it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from autogen_core import CancellationToken
from autogen_core.memory import Memory as AutoGenMemory
from autogen_core.memory import MemoryContent, MemoryMimeType, MemoryQueryResult, UpdateContextResult
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import SystemMessage

from simplemem_graph.errors import InputError
from simplemem_graph.integrations._recall import recall
from simplemem_graph.memory import Memory
from simplemem_graph.retrieve import RetrievalResult

TEXT_TYPES = {MemoryMimeType.TEXT.value, MemoryMimeType.MARKDOWN.value}
DEFAULT_SESSION = "autogen"


class SimpleMemMemory(AutoGenMemory):
    """AutoGen memory kept in a simplemem-graph namespace.

    Args:
        memory: the namespace and store.
        k: memories per query (default: the Memory's settings).
        budget_tokens: the most tokens `update_context` adds.
        name: the memory's name (AutoGen shows it in memory query events).
    """

    def __init__(
        self, memory: Memory, *, k: int | None = None, budget_tokens: int = 600, name: str = "simplemem"
    ):
        self.memory = memory
        self.k = k
        self.budget_tokens = budget_tokens
        self.name = name

    async def add(self, content: MemoryContent, cancellation_token: CancellationToken | None = None) -> None:
        """Remember one content item as a turn."""
        text = content_text(content)
        metadata = content.metadata or {}
        await asyncio.to_thread(
            self.memory.add,
            text,
            speaker=str(metadata.get("speaker", "user")),
            session=str(metadata.get("session", DEFAULT_SESSION)),
        )

    async def query(
        self,
        query: str | MemoryContent,
        cancellation_token: CancellationToken | None = None,
        **kwargs: Any,
    ) -> MemoryQueryResult:
        """The memories most useful for `query`, best first."""
        text = query if isinstance(query, str) else content_text(query)
        result = await asyncio.to_thread(self.memory.search, text, k=kwargs.get("k", self.k))
        return _as_result(result)

    async def update_context(self, model_context: ChatCompletionContext) -> UpdateContextResult:
        """Add the memories for the context's latest message to it, as one system message
        (leaving out memories of messages the context already holds)."""
        messages = await model_context.get_messages()
        query = next(
            (m.content for m in reversed(messages) if isinstance(m.content, str) and m.content.strip()), None
        )
        if query is None:
            return UpdateContextResult(memories=MemoryQueryResult(results=[]))
        shown = {m.content for m in messages if isinstance(m.content, str)}
        result, block = await asyncio.to_thread(
            recall, self.memory, query, k=self.k, budget_tokens=self.budget_tokens, shown=shown
        )
        if block:
            await model_context.add_message(SystemMessage(content=block))
        return UpdateContextResult(memories=_as_result(result))

    async def clear(self) -> None:
        """Forget the whole namespace (its raw log too)."""
        await asyncio.to_thread(self.memory.forget, everything=True)

    async def close(self) -> None:
        """Nothing to release: the `Memory` belongs to the caller."""


def content_text(content: MemoryContent) -> str:
    """The text a content item is remembered as."""
    mime = content.mime_type.value if isinstance(content.mime_type, MemoryMimeType) else content.mime_type
    if mime in TEXT_TYPES and isinstance(content.content, str):
        return content.content
    if mime == MemoryMimeType.JSON.value and isinstance(content.content, dict | list | str):
        return (
            content.content
            if isinstance(content.content, str)
            else json.dumps(content.content, ensure_ascii=False)
        )
    raise InputError(f"SimpleMemMemory keeps text, Markdown or JSON memories, not {mime!r}")


def _as_result(result: RetrievalResult) -> MemoryQueryResult:
    return MemoryQueryResult(
        results=[
            MemoryContent(
                content=hit.event.text,
                mime_type=MemoryMimeType.TEXT,
                metadata={
                    "score": hit.score,
                    "event_id": hit.event.id,
                    "time": hit.event.time.isoformat(),
                    "source_ids": list(hit.event.source_ids),
                },
            )
            for hit in result.hits
        ]
    )
