"""LangGraph with long-term memory: a compiled graph whose `store=` is simplemem-graph.

Two conversations (two LangGraph threads) of one user: what was said in the first is recalled in
the second through the store, not through the thread's checkpoint. Runs with no LLM (a scripted
model shows the memories it would get); set OPENAI_BASE_URL to use an OpenAI-compatible endpoint.

    pip install "simplemem-graph[langgraph]"
    python examples/langgraph_store.py [--store memory.db]
"""

from __future__ import annotations

import uuid
from typing import TypedDict

from example_llm import chat, open_memory
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from simplemem_graph.integrations.langgraph import SimpleMemStore

CONVERSATIONS = {  # thread id -> what the user says in it
    "monday": [
        "I'm planning the team offsite: it will be in Porto on 2026-06-18.",
        "The budget for the offsite is capped at 12,000 EUR.",
    ],
    "friday": ["Where is the offsite, and how much can we spend?"],
}


class State(TypedDict, total=False):
    user: str
    message: str
    reply: str


def respond(state: State, *, store: BaseStore) -> State:
    """Recall from the store, answer, then remember what the user said."""
    namespace = ("memories", state["user"])
    memories = store.search(namespace, query=state["message"], limit=4)
    system = "You are a helpful assistant.\n\n## Memories\n" + "".join(
        f"- {m.value['text']}\n" for m in memories
    )
    reply = chat([{"role": "system", "content": system}, {"role": "user", "content": state["message"]}])
    store.put(namespace, uuid.uuid4().hex, {"text": state["message"]})
    return {"reply": reply}


def build(store: BaseStore):
    builder = StateGraph(State)
    builder.add_node("respond", respond)
    builder.add_edge(START, "respond")
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=InMemorySaver(), store=store)


def main(argv: list[str] | None = None) -> None:
    with open_memory(argv, __doc__.split("\n")[0]) as memory:
        graph = build(SimpleMemStore(memory))
        for thread, messages in CONVERSATIONS.items():
            for message in messages:
                out = graph.invoke(
                    {"user": "maya", "message": message}, {"configurable": {"thread_id": thread}}
                )
                print(f"[{thread}] user: {message}\n[{thread}] assistant: {out['reply']}\n")


if __name__ == "__main__":
    main()
