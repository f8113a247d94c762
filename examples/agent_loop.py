"""A minimal agent loop with long-term memory: remember every turn, recall before answering.

Runs as is, with no LLM: the default "LLM" is a stub that answers with the memories it was given,
so you can watch what the agent would see. Set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_MODEL)
to send the same prompts to any OpenAI-compatible chat endpoint instead.

    python examples/agent_loop.py                       # scripted demo conversation
    python examples/agent_loop.py --interactive         # talk to it; empty line quits
    python examples/agent_loop.py --store agent.db      # keep the memory between runs
    python examples/agent_loop.py --api http://127.0.0.1:8000 --api-key KEY   # via `simplemem-graph serve`
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from simplemem_graph.memory import Memory

SYSTEM = "You are a helpful assistant with long-term memory. Use the memories when they are relevant."
DEMO = [  # (speaker, text, days after the start): a user across two weeks
    ("Maya", "Northwind Foods wants the revised quote by Wednesday next week, capped at $18,500.", 0),
    ("Maya", "Our contact there is Priya Shah, their head of purchasing.", 0),
    ("Maya", "Haha, the lunch place downstairs was great.", 1),
    ("Maya", "We sent Northwind the revised quote at $18,200 because the freight cost went down.", 8),
    ("Maya", "Who is my contact at Northwind, and what did we quote them?", 14),
]


# ---- where the memory lives: in this process, or behind the REST API --------------------------------
class LocalMemory:
    """Memory in this process (the embedded store)."""

    def __init__(self, store: str | None, namespace: str):
        self.memory = Memory.open(store or ":memory:", namespace=namespace)

    def remember(self, speaker: str, text: str, at: datetime, session: str) -> None:
        self.memory.add(text, speaker=speaker, session=session, time=at)

    def context(self, query: str, at: datetime) -> str:
        return self.memory.context(query, at=at, k=4, instruction="")


class RemoteMemory:
    """The same two calls through `simplemem-graph serve` (standard library HTTP only)."""

    def __init__(self, base_url: str, namespace: str, api_key: str | None):
        self.base = f"{base_url.rstrip('/')}/v1/namespaces/{namespace}"
        self.headers = {"Content-Type": "application/json"}
        if api_key:
            self.headers["Authorization"] = f"Bearer {api_key}"

    def _post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), self.headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())

    def remember(self, speaker: str, text: str, at: datetime, session: str) -> None:
        self._post("/turns", {"text": text, "speaker": speaker, "time": at.isoformat(), "session": session})

    def context(self, query: str, at: datetime) -> str:
        return self._post("/context", {"query": query, "at": at.isoformat(), "k": 4})["context"]


# ---- the "LLM" ---------------------------------------------------------------------------------------
def stub_llm(messages: list[dict[str, str]]) -> str:
    """No model: answer with the memories the prompt carried, so the loop runs anywhere."""
    memories = messages[-1]["content"].rsplit("\n\nUser: ", 1)[0].strip()
    return (
        f"(stub LLM) I would answer from:\n{memories}"
        if memories
        else "(stub LLM) Nothing relevant remembered."
    )


def openai_llm(base_url: str) -> Callable[[list[dict[str, str]]], str]:
    """A chat-completions call to any OpenAI-compatible endpoint (no SDK needed)."""

    def chat(messages: list[dict[str, str]]) -> str:
        body = {"model": os.environ.get("OPENAI_MODEL", "gpt-4o-mini"), "messages": messages}
        headers = {"Content-Type": "application/json"}
        if os.environ.get("OPENAI_API_KEY"):
            headers["Authorization"] = f"Bearer {os.environ['OPENAI_API_KEY']}"
        request = urllib.request.Request(
            f"{base_url.rstrip('/')}/chat/completions", json.dumps(body).encode(), headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())["choices"][0]["message"]["content"]

    return chat


# ---- the loop ----------------------------------------------------------------------------------------
def agent_turn(memory, llm, speaker: str, text: str, at: datetime, session: str, *, keep_reply: bool) -> str:
    """One step: recall for this message, ask the LLM, remember the message (and the reply)."""
    recalled = memory.context(text, at)  # memories first, as the seed orders a prompt
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"{recalled}\n\nUser: {text}"},
    ]
    reply = llm(messages)
    memory.remember(speaker, text, at, session)
    if keep_reply:  # a real model's answer is worth remembering; the stub's echo of memories is not
        memory.remember("assistant", reply, at + timedelta(seconds=1), session)
    return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", help="embedded store file (default: in memory, gone at exit)")
    parser.add_argument("--namespace", default="agent-demo")
    parser.add_argument("--api", help="use a running `simplemem-graph serve` at this URL instead")
    parser.add_argument("--api-key", default=os.environ.get("SIMPLEMEM_API_KEY"))
    parser.add_argument("--interactive", action="store_true")
    args = parser.parse_args()

    memory = (
        RemoteMemory(args.api, args.namespace, args.api_key)
        if args.api
        else LocalMemory(args.store, args.namespace)
    )
    base_url = os.environ.get("OPENAI_BASE_URL")
    llm = openai_llm(base_url) if base_url else stub_llm

    if args.interactive:
        while text := input("you> ").strip():
            print(
                agent_turn(memory, llm, "user", text, datetime.now(UTC), "chat", keep_reply=bool(base_url)),
                "\n",
            )
        return
    start = datetime(2026, 3, 3, 14, 0, tzinfo=UTC)
    for speaker, text, day in DEMO:
        at = start + timedelta(days=day)
        print(f"[{at:%Y-%m-%d}] {speaker}: {text}")
        print(agent_turn(memory, llm, speaker, text, at, f"day{day}", keep_reply=bool(base_url)), "\n")


if __name__ == "__main__":
    main()
