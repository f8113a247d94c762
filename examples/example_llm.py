"""The model behind the framework examples: any OpenAI-compatible chat endpoint when
OPENAI_BASE_URL is set (with OPENAI_API_KEY, OPENAI_MODEL), else a scripted stand-in that needs
no LLM and answers with the memories its prompt carried, so you can see what a model would get."""

from __future__ import annotations

import argparse
import json
import os
import urllib.request

from simplemem_graph.memory import Memory


def endpoint() -> str | None:
    """The OpenAI-compatible endpoint configured, if any."""
    return os.environ.get("OPENAI_BASE_URL") or None


def model_name() -> str:
    return os.environ.get("OPENAI_MODEL", "gpt-4o-mini")


def chat(messages: list[dict[str, str]]) -> str:
    """One chat-completions call, or the scripted answer when no endpoint is configured."""
    base_url = endpoint()
    if base_url is None:
        return scripted_reply("\n".join(m["content"] for m in messages if m["role"] == "system"))
    headers = {"Content-Type": "application/json"}
    if os.environ.get("OPENAI_API_KEY"):
        headers["Authorization"] = f"Bearer {os.environ['OPENAI_API_KEY']}"
    body = json.dumps({"model": model_name(), "messages": messages}).encode()
    request = urllib.request.Request(f"{base_url.rstrip('/')}/chat/completions", body, headers, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())["choices"][0]["message"]["content"]


def scripted_reply(system_prompt: str | None) -> str:
    """The memory lines of the prompt's "## Memories" section, or a plain acknowledgement."""
    lines = (system_prompt or "").split("## Memories", 1)
    memories = [line[2:] for line in lines[1].splitlines() if line.startswith("- ")] if len(lines) > 1 else []
    if not memories:
        return "(scripted model) Noted."
    return "(scripted model) From memory: " + " | ".join(memories)


def open_memory(argv: list[str] | None, description: str, *, namespace: str | None = None) -> Memory:
    """The example's Memory: `--store FILE` (default: in memory), parsed from `argv`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--store", default=":memory:", help="embedded store file (default: in memory)")
    args = parser.parse_args(argv)
    return Memory.open(args.store, namespace=namespace)
