"""LlamaIndex with long-term memory: a `SimpleMemBlock` in LlamaIndex's `Memory` keeps the messages
that leave the short-term buffer and brings back what the current question needs.

Runs with no LLM (a scripted model shows the memories it was given); set OPENAI_BASE_URL (and
OPENAI_API_KEY, OPENAI_MODEL) to send the prompt to an OpenAI-compatible endpoint.

    pip install "simplemem-graph[llama-index]"
    python examples/llama_index_memory.py [--store memory.db]
"""

from __future__ import annotations

import asyncio

from example_llm import chat, endpoint, open_memory
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory as ChatMemory

from simplemem_graph.integrations.llama_index import SimpleMemBlock
from simplemem_graph.memory import Memory

CONVERSATION = [
    "My sister Lena is getting married in Lyon on 2026-09-12.",
    "I still need to book a train from Paris for that weekend.",
    "By the way, the weather has been awful this week.",
    "I also started learning to bake sourdough.",
    "Which city is the wedding in, and when is it?",
]


async def run(memory: Memory) -> None:
    # A small short-term buffer, so the first messages are flushed to the long-term block.
    chat_memory = ChatMemory.from_defaults(
        session_id="chat-1",
        token_limit=60,
        chat_history_token_ratio=0.5,
        token_flush_size=20,
        memory_blocks=[SimpleMemBlock(memory=memory, name="long_term")],
    )
    for text in CONVERSATION:
        await chat_memory.aput(ChatMessage(role=MessageRole.USER, content=text))
        messages = await chat_memory.aget()
        reply = chat([{"role": m.role.value, "content": m.content or ""} for m in messages])
        if endpoint():  # a real model's answer is worth keeping; the scripted echo of memories is not
            await chat_memory.aput(ChatMessage(role=MessageRole.ASSISTANT, content=reply))
        print(f"user: {text}\nassistant: {reply}\n")


def main(argv: list[str] | None = None) -> None:
    with open_memory(argv, __doc__.split("\n")[0], namespace="family") as memory:
        asyncio.run(run(memory))


if __name__ == "__main__":
    main()
