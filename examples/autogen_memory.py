"""AutoGen with long-term memory: `SimpleMemMemory.update_context` adds the memories for the latest
message to a model context, as AutoGen's agents do before each model call.

Runs with no LLM (a scripted model shows the memories it was given); set OPENAI_BASE_URL (and
OPENAI_API_KEY, OPENAI_MODEL) to send the context to an OpenAI-compatible endpoint. With
autogen-agentchat installed, pass `memory=[SimpleMemMemory(memory)]` to an `AssistantAgent` instead.

    pip install "simplemem-graph[autogen]"
    python examples/autogen_memory.py [--store memory.db]
"""

from __future__ import annotations

import asyncio

from autogen_core.memory import MemoryContent, MemoryMimeType
from autogen_core.model_context import BufferedChatCompletionContext
from autogen_core.models import AssistantMessage, SystemMessage, UserMessage
from example_llm import chat, open_memory

from simplemem_graph.integrations.autogen import SimpleMemMemory
from simplemem_graph.memory import Memory

FACTS = [
    "Priya Shah is the head of purchasing at Northwind Foods.",
    "We sent Northwind the revised quote at $18,200 because the freight cost went down.",
]
QUESTION = "Who is my contact at Northwind, and what did we quote them?"


def as_dicts(messages) -> list[dict[str, str]]:
    roles = {SystemMessage: "system", UserMessage: "user", AssistantMessage: "assistant"}
    return [{"role": roles[type(m)], "content": str(m.content)} for m in messages]


async def run(memory: Memory) -> None:
    long_term = SimpleMemMemory(memory)
    for fact in FACTS:
        await long_term.add(MemoryContent(content=fact, mime_type=MemoryMimeType.TEXT))
    context = BufferedChatCompletionContext(buffer_size=8)
    await context.add_message(UserMessage(content=QUESTION, source="user"))
    result = await long_term.update_context(context)
    print(f"memories added to the context: {len(result.memories.results)}")
    print(f"user: {QUESTION}\nassistant: {chat(as_dicts(await context.get_messages()))}")


def main(argv: list[str] | None = None) -> None:
    with open_memory(argv, __doc__.split("\n")[0], namespace="sales") as memory:
        asyncio.run(run(memory))


if __name__ == "__main__":
    main()
