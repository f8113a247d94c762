"""OpenAI Agents SDK: `SimpleMemSession` honours the `Session` protocol as SQLiteSession does, keeps
its items across processes, and `recall_memories` puts our memories in front of a real `Runner` run
(driven by a scripted model: no LLM)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from agents import Agent, RunConfig, Runner
from agents.items import ModelResponse
from agents.memory import Session, SQLiteSession
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseOutputMessage, ResponseOutputText

from simplemem_graph.integrations.openai_agents import SimpleMemSession, message_text, recall_memories
from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore

REPO = Path(__file__).resolve().parents[2]
ITEMS = [
    {"role": "user", "content": "I adopted a beagle called Biscuit last spring."},
    {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Biscuit sounds lovely!", "annotations": []}],
    },
    {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city": "Lisbon"}'},
    {"type": "function_call_output", "call_id": "c1", "output": "18C and sunny"},
    {"role": "user", "content": "Remind me to book his vet visit."},
]


class ScriptedModel(Model):
    """Answers with a fixed line and keeps the instructions of every call, to inspect them."""

    def __init__(self):
        self.instructions: list[str | None] = []

    async def get_response(self, system_instructions, input, *args, **kwargs):
        self.instructions.append(system_instructions)
        text = ResponseOutputText(type="output_text", text="Noted.", annotations=[])
        message = ResponseOutputMessage(
            id=f"msg_{len(self.instructions)}",
            type="message",
            role="assistant",
            status="completed",
            content=[text],
        )
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError("the scripted model does not stream")


async def _exercise(session) -> list:
    """The same calls on any session; what each returned."""
    seen = []
    await session.add_items(ITEMS[:3])
    seen.append(await session.get_items())
    await session.add_items(ITEMS[3:])
    seen += [
        await session.get_items(limit=2),
        await session.get_items(limit=0),
        await session.get_items(limit=-1),
    ]
    seen.append(await session.pop_item())
    seen.append(await session.get_items())
    await session.clear_session()
    seen += [await session.get_items(), await session.pop_item()]
    await session.add_items(ITEMS[:1])
    seen.append(await session.get_items())
    return seen


def test_same_behaviour_as_the_sdks_sqlite_session(any_memory):
    ours = SimpleMemSession("chat-1", any_memory)
    assert isinstance(ours, Session)
    reference = SQLiteSession("chat-1")
    assert asyncio.run(_exercise(ours)) == asyncio.run(_exercise(reference))
    reference.close()


def test_messages_become_memories_and_pop_forgets_them(memory):
    session = SimpleMemSession("chat-1", memory)
    asyncio.run(session.add_items(ITEMS))
    assert [message_text(i) for i in ITEMS] == [
        "I adopted a beagle called Biscuit last spring.",
        "Biscuit sounds lovely!",
        None,
        None,
        "Remind me to book his vet visit.",
    ]
    logged = [(t.speaker, t.text) for t in memory.turns(session="chat-1")]
    assert logged == [(i["role"], message_text(i)) for i in ITEMS if message_text(i)]
    assert any("beagle" in h.event.text for h in memory.search("What dog do I have?").hits)

    asyncio.run(session.pop_item())
    assert not any("vet" in h.event.text for h in memory.search("book the vet visit").hits)
    asyncio.run(session.clear_session())
    assert not any("beagle" in h.event.text for h in memory.search("What dog do I have?").hits)
    assert asyncio.run(SimpleMemSession("chat-2", memory).get_items()) == []


READ = """
import asyncio, json, sys
from simplemem_graph.memory import Memory
from simplemem_graph.integrations.openai_agents import SimpleMemSession
memory = Memory.open(sys.argv[1], namespace="agent")
items = asyncio.run(SimpleMemSession("chat-1", memory).get_items())
print(json.dumps({"items": items, "turns": [t.text for t in memory.turns(session="chat-1")]}))
memory.close()
"""


def test_items_survive_a_new_process(tmp_path, embedder):
    store = tmp_path / "agents.db"
    with Memory(EmbeddedStore(store), namespace="agent", embedder=embedder) as memory:
        asyncio.run(SimpleMemSession("chat-1", memory).add_items(ITEMS))
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = subprocess.run(
        [sys.executable, "-c", READ, str(store)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    read = json.loads(out.stdout.strip().splitlines()[-1])
    assert read["items"] == ITEMS
    assert read["turns"] == [message_text(i) for i in ITEMS if message_text(i)]


def test_a_runner_run_gets_the_memories_of_another_conversation(memory):
    model = ScriptedModel()
    agent = Agent(name="assistant", instructions="Be brief.", model=model)
    config = RunConfig(call_model_input_filter=recall_memories(memory), tracing_disabled=True)
    first = SimpleMemSession("monday", memory)
    told = "I adopted a beagle called Biscuit last spring."
    asyncio.run(Runner.run(agent, told, session=first, run_config=config))
    assert model.instructions[0] == "Be brief."  # nothing remembered yet: the instructions as they were

    second = SimpleMemSession("friday", memory)
    result = asyncio.run(Runner.run(agent, "What is my dog's name?", session=second, run_config=config))
    assert result.final_output == "Noted."
    assert "Biscuit" in model.instructions[1] and model.instructions[1].endswith("Be brief.")
    friday = asyncio.run(second.get_items())
    assert [message_text(i) for i in friday] == ["What is my dog's name?", "Noted."]  # memories not saved
    assert [message_text(i) for i in asyncio.run(first.get_items())] == [told, "Noted."]
