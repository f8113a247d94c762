"""LlamaIndex: `SimpleMemBlock` stores the messages flushed to it and returns our memories for the
current input, alone and inside LlamaIndex's own `Memory`."""

from __future__ import annotations

import asyncio

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory as ChatMemory

from simplemem_graph.integrations.llama_index import SimpleMemBlock

OLD = [
    ChatMessage(role=MessageRole.USER, content="My sister Lena is getting married in Lyon on 2026-09-12."),
    ChatMessage(role=MessageRole.ASSISTANT, content="Congratulations to Lena! Noted the date."),
]


def test_aput_then_aget(memory):
    block = SimpleMemBlock(memory=memory)
    asyncio.run(block.aput(OLD, session_id="chat-7"))
    assert [(t.session, t.speaker) for t in memory.turns(session="chat-7")] == [
        ("chat-7", "user"),
        ("chat-7", "assistant"),
    ]
    text = asyncio.run(
        block.aget([ChatMessage(role=MessageRole.USER, content="When is my sister's wedding?")])
    )
    assert "Lyon" in text and "2026-09-12" in text
    assert asyncio.run(block.aget([])) == ""
    # A message already in the prompt is not repeated as a memory.
    assert "Lyon" not in asyncio.run(block.aget(OLD[:1]))


def test_block_inside_llama_index_memory(memory):
    block = SimpleMemBlock(memory=memory, name="long_term")
    chat = ChatMemory.from_defaults(
        session_id="chat-8",
        token_limit=60,
        chat_history_token_ratio=0.5,
        token_flush_size=20,
        memory_blocks=[block],
    )

    async def talk():
        await chat.aput_messages(OLD)
        for i in range(4):  # small talk pushes the first messages out of the short-term buffer
            await chat.aput(
                ChatMessage(role=MessageRole.USER, content=f"Small talk number {i} about the weather.")
            )
        await chat.aput(ChatMessage(role=MessageRole.USER, content="Which city is the wedding in?"))
        return await chat.aget()

    messages = asyncio.run(talk())
    assert memory.turns(session="chat-8")  # flushed to the block, as turns of the chat's session
    system = [m for m in messages if m.role == MessageRole.SYSTEM]
    assert system and "Lyon" in system[0].content
    assert not any("Lyon" in (m.content or "") for m in messages if m.role != MessageRole.SYSTEM)
