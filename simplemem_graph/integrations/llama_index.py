"""LlamaIndex: `SimpleMemBlock`, a long-term memory block (`BaseMemoryBlock`) over a `Memory`.

    from llama_index.core.memory import Memory as ChatMemory
    from simplemem_graph import Memory
    from simplemem_graph.integrations.llama_index import SimpleMemBlock

    chat_memory = ChatMemory.from_defaults(session_id="chat-1",
                                           memory_blocks=[SimpleMemBlock(memory=Memory.open("memory.db"))])

How LlamaIndex's notions map onto ours (docs/integrations.md):

- `_aput(messages)`: the messages LlamaIndex flushes out of its short-term buffer become turns of
  the Memory's namespace: speaker = the message's role, session = the chat's `session_id` (as
  `aput` sets it) or the block's `session`. Messages without text (tool calls, images) are skipped.
- `_aget(messages)`: our prompt block (memories with dates) for the latest message with text, or
  "" when nothing is remembered about it. LlamaIndex places it in the system message.
- `atruncate` is LlamaIndex's default: the whole block goes when the budget is short, so set the
  block's `budget_tokens` (and `priority`) to fit it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory.memory import BaseMemoryBlock
from pydantic import Field

from simplemem_graph.integrations._recall import recall
from simplemem_graph.memory import Memory


class SimpleMemBlock(BaseMemoryBlock[str]):
    """A LlamaIndex memory block that remembers flushed messages and recalls what the current
    input needs."""

    name: str = Field(default="simplemem", description="The name of the memory block.")
    memory: Memory = Field(description="The simplemem-graph Memory: namespace, store and models.")
    session: str = Field(default="llama-index", description="Session of turns without a session_id.")
    k: int | None = Field(default=None, description="Memories per recall (default: the Memory's).")
    budget_tokens: int = Field(default=600, description="The most tokens the block uses.")

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        """Our prompt block for the latest message with text ("" when there is none), without
        the memories of the messages LlamaIndex already puts in the prompt."""
        query = next((m.content for m in reversed(messages or []) if m.content and m.content.strip()), None)
        if query is None:
            return ""
        shown = {m.content for m in messages or [] if m.content}
        _, block = await asyncio.to_thread(
            recall, self.memory, query, k=self.k, budget_tokens=self.budget_tokens, shown=shown
        )
        return block

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Remember the messages with text as turns, in order."""
        turns = [
            self.memory.make_turn(
                m.content,
                speaker=str(getattr(m.role, "value", m.role)),
                session=str(m.additional_kwargs.get("session_id") or self.session),
            )
            for m in messages
            if m.content and m.content.strip()
        ]
        if turns:
            await asyncio.to_thread(self.memory.add_many, turns)
