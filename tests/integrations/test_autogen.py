"""AutoGen: `SimpleMemMemory` is an `autogen_core.memory.Memory` whose `update_context` adds our
memories to a real model context."""

from __future__ import annotations

import asyncio

import pytest
from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.messages import MemoryQueryEvent
from autogen_core import Image
from autogen_core.memory import Memory as AutoGenMemory
from autogen_core.memory import MemoryContent, MemoryMimeType
from autogen_core.model_context import BufferedChatCompletionContext
from autogen_core.models import AssistantMessage, SystemMessage, UserMessage
from autogen_ext.models.replay import ReplayChatCompletionClient

from simplemem_graph.errors import InputError
from simplemem_graph.integrations.autogen import SimpleMemMemory

FACTS = [
    "Our quarterly offsite is in Porto on 2026-06-18, booked at the Hotel Infante.",
    "Priya Shah leads purchasing at Northwind Foods.",
]


def _filled(memory) -> SimpleMemMemory:
    adapter = SimpleMemMemory(memory, k=3)
    for fact in FACTS:
        asyncio.run(adapter.add(MemoryContent(content=fact, mime_type=MemoryMimeType.TEXT)))
    return adapter


def test_update_context_adds_the_memories_as_a_system_message(memory):
    adapter = _filled(memory)
    assert isinstance(adapter, AutoGenMemory)
    context = BufferedChatCompletionContext(
        buffer_size=10,
        initial_messages=[
            UserMessage(content="Hi!", source="user"),
            AssistantMessage(content="Hello, how can I help?", source="assistant"),
            UserMessage(content="Where is the offsite this quarter?", source="user"),
        ],
    )
    result = asyncio.run(adapter.update_context(context))
    messages = asyncio.run(context.get_messages())
    assert len(messages) == 4 and isinstance(messages[-1], SystemMessage)
    assert "Porto" in messages[-1].content and "Hotel Infante" in messages[-1].content
    first = result.memories.results[0]
    assert "Porto" in first.content and first.metadata["score"] > 0
    assert first.metadata["source_ids"] and first.metadata["event_id"]


def test_an_assistant_agent_gets_the_memories_before_its_model_call(memory):
    model = ReplayChatCompletionClient(["The offsite is in Porto."])
    agent = AssistantAgent("assistant", model_client=model, memory=[_filled(memory)])
    result = asyncio.run(agent.run(task="Where is the offsite this quarter?"))
    sent = model.create_calls[0]["messages"]
    memory_messages = [m for m in sent if isinstance(m, SystemMessage) and "Hotel Infante" in m.content]
    assert len(memory_messages) == 1
    events = [m for m in result.messages if isinstance(m, MemoryQueryEvent)]
    assert events and "Porto" in events[0].content[0].content
    assert result.messages[-1].content == "The offsite is in Porto."


def test_nothing_is_added_when_nothing_is_remembered(memory):
    adapter = SimpleMemMemory(memory)
    context = BufferedChatCompletionContext(buffer_size=5)
    asyncio.run(context.add_message(UserMessage(content="Where is the offsite?", source="user")))
    result = asyncio.run(adapter.update_context(context))
    assert result.memories.results == []
    assert len(asyncio.run(context.get_messages())) == 1


def test_query_add_json_refuse_images_and_clear(memory):
    adapter = _filled(memory)
    asyncio.run(
        adapter.add(
            MemoryContent(
                content={"customer": "Northwind Foods", "renewal": "2026-09-30"},
                mime_type=MemoryMimeType.JSON,
                metadata={"session": "crm", "speaker": "crm-sync"},
            )
        )
    )
    assert [(t.session, t.speaker) for t in memory.turns(session="crm")] == [("crm", "crm-sync")]
    found = asyncio.run(adapter.query("Who runs purchasing at Northwind?"))
    assert "Priya Shah" in found.results[0].content
    with pytest.raises(InputError, match="image"):
        asyncio.run(
            adapter.add(MemoryContent(content=Image.from_base64(_PIXEL), mime_type=MemoryMimeType.IMAGE))
        )
    asyncio.run(adapter.clear())
    assert asyncio.run(adapter.query("Who runs purchasing at Northwind?")).results == []
    asyncio.run(adapter.close())
    assert memory.search("Northwind").hits == []  # the Memory is still open and usable


_PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
