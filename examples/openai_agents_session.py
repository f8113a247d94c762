"""OpenAI Agents SDK with long-term memory: a `SimpleMemSession` keeps each conversation, and
`recall_memories` puts what other conversations taught in front of the agent's instructions.

Runs with no LLM (a scripted model shows the memories it was given); set OPENAI_BASE_URL (and
OPENAI_API_KEY, OPENAI_MODEL) to use an OpenAI-compatible chat-completions endpoint.

    pip install "simplemem-graph[openai-agents]"
    python examples/openai_agents_session.py [--store memory.db]
"""

from __future__ import annotations

import asyncio

from agents import Agent, RunConfig, Runner
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from example_llm import endpoint, model_name, open_memory, scripted_reply
from openai.types.responses import ResponseOutputMessage, ResponseOutputText

from simplemem_graph.integrations.openai_agents import SimpleMemSession, recall_memories
from simplemem_graph.memory import Memory

CONVERSATIONS = {  # session id -> what the user says in it
    "monday": ["Northwind Foods wants the revised quote by Wednesday, capped at $18,500."],
    "thursday": ["What does Northwind expect from us, and by when?"],
}


class ScriptedModel(Model):
    """No LLM: answers with the memories found in its instructions."""

    async def get_response(self, system_instructions, input, *args, **kwargs):
        text = ResponseOutputText(
            type="output_text", text=scripted_reply(system_instructions), annotations=[]
        )
        message = ResponseOutputMessage(
            id="msg_scripted", type="message", role="assistant", status="completed", content=[text]
        )
        return ModelResponse(output=[message], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError("the scripted model does not stream")


def make_model():
    if endpoint() is None:
        return ScriptedModel()
    from agents import OpenAIChatCompletionsModel
    from openai import AsyncOpenAI

    return OpenAIChatCompletionsModel(model=model_name(), openai_client=AsyncOpenAI(base_url=endpoint()))


async def run(memory: Memory) -> None:
    agent = Agent(name="assistant", instructions="You are a helpful sales assistant.", model=make_model())
    config = RunConfig(call_model_input_filter=recall_memories(memory), tracing_disabled=True)
    for session_id, messages in CONVERSATIONS.items():
        session = SimpleMemSession(session_id, memory)
        for message in messages:
            result = await Runner.run(agent, message, session=session, run_config=config)
            print(f"[{session_id}] user: {message}\n[{session_id}] assistant: {result.final_output}\n")
        print(f"[{session_id}] items kept: {len(await session.get_items())}\n")


def main(argv: list[str] | None = None) -> None:
    with open_memory(argv, __doc__.split("\n")[0], namespace="sales") as memory:
        asyncio.run(run(memory))


if __name__ == "__main__":
    main()
