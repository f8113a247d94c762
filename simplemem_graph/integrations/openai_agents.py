"""OpenAI Agents SDK: `SimpleMemSession`, a `Session` whose history is a session of our raw log.

    from agents import Agent, RunConfig, Runner
    from simplemem_graph import Memory
    from simplemem_graph.integrations.openai_agents import SimpleMemSession, recall_memories

    memory = Memory.open("memory.db", namespace="alice")
    result = await Runner.run(agent, "Where do I live now?", session=SimpleMemSession("chat-1", memory),
                              run_config=RunConfig(call_model_input_filter=recall_memories(memory)))

How the SDK's notions map onto ours (docs/integrations.md):

- The session id is a session of the Memory's namespace; its items are kept verbatim, in order, as
  records (see `integrations._records`), so `get_items` returns exactly what `add_items` was given,
  in a later process too.
- A user or assistant message item is also logged as a turn of that session (speaker "user" or
  "assistant") and becomes memories; tool calls, tool outputs, reasoning and system items are kept
  but are no memories.
- `pop_item` removes the last item and the memories of its text; `clear_session` removes every
  item of the session and their memories (other sessions' memories stay).
- `recall_memories(memory)` is a `RunConfig.call_model_input_filter`: before each model call it
  puts our prompt block (the memories for the latest user message) in front of the
  instructions. Nothing it adds is saved in the session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agents.items import TResponseInputItem
from agents.memory import SessionSettings
from agents.memory.session_settings import resolve_session_limit
from agents.run_config import CallModelData, ModelInputData

from simplemem_graph.errors import InputError
from simplemem_graph.integrations._recall import recall
from simplemem_graph.integrations._records import RecordLog
from simplemem_graph.memory import Memory

REMEMBERED_ROLES = ("user", "assistant")  # message items whose text becomes memories
ITEMS_PREFIX = "agents:"  # + session id: the record collection of a session's items


class SimpleMemSession:
    """An Agents SDK session stored in a simplemem-graph namespace (the `Session` protocol).

    Args:
        session_id: the conversation; also the session its messages are logged in.
        memory: the namespace and store to keep it in.
        session_settings: the SDK's settings (`limit`: default number of items read).
    """

    def __init__(
        self,
        session_id: str,
        memory: Memory,
        *,
        session_settings: SessionSettings | None = None,
    ):
        if not isinstance(session_id, str) or not session_id.strip():
            raise InputError("SimpleMemSession: `session_id` must be a non-empty string")
        self.session_id = session_id
        self.memory = memory
        self.session_settings = session_settings or SessionSettings()
        self._items = RecordLog(memory, ITEMS_PREFIX + session_id)

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items, oldest first; with `limit`, the latest `limit` of them."""
        records = await asyncio.to_thread(self._items.records)
        items = [record.value for record in records.values()]
        limit = resolve_session_limit(limit, self.session_settings)
        if limit is None or limit < 0:  # SQLiteSession's rule: a negative limit reads everything
            return items
        return items[-limit:] if limit else []

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items; the text of user and assistant messages is remembered."""
        if items:
            await asyncio.to_thread(self._add, list(items))

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the latest item (None when the session is empty)."""
        return await asyncio.to_thread(self._pop)

    async def clear_session(self) -> None:
        """Remove every item of the session, and the memories made from them."""
        await asyncio.to_thread(self._items.clear)

    # ---- sync parts, run in a worker thread ------------------------------------------------------
    def _add(self, items: list[TResponseInputItem]) -> None:
        existing = self._items.records()
        start = 1 + max((int(key) for key in existing), default=0)
        self._items.put_many(
            [
                (f"{start + i:09d}", item, message_text(item), str(item.get("role", "")))
                for i, item in enumerate(items)
            ],
            session=self.session_id,
        )

    def _pop(self) -> TResponseInputItem | None:
        records = self._items.records()
        if not records:
            return None
        record = self._items.delete(next(reversed(records)))
        return None if record is None else record.value


def message_text(item: TResponseInputItem) -> str | None:
    """The text of a user or assistant message item (None for any other item)."""
    if not isinstance(item, dict) or item.get("role") not in REMEMBERED_ROLES:
        return None
    if item.get("type", "message") != "message":
        return None
    content = item.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return "\n".join(p for p in parts if isinstance(p, str) and p.strip()) or None
    return None


def recall_memories(
    memory: Memory, *, budget_tokens: int = 600, k: int | None = None
) -> Callable[[CallModelData[Any]], Any]:
    """A `RunConfig.call_model_input_filter` that puts the memories for the latest user message
    in front of the agent's instructions (the input items are passed on unchanged). Memories of
    messages already in the input (the session's history, the message itself) are left out."""

    async def put_memories_first(data: CallModelData[Any]) -> ModelInputData:
        items = data.model_data.input
        query = next((text for item in reversed(items) if (text := _user_text(item))), None)
        if query is None:
            return data.model_data
        shown = {text for item in items if (text := message_text(item))}
        _, block = await asyncio.to_thread(
            recall, memory, query, k=k, budget_tokens=budget_tokens, shown=shown
        )
        if not block:
            return data.model_data
        instructions = data.model_data.instructions
        return ModelInputData(
            input=data.model_data.input,
            instructions=f"{block}\n\n{instructions}" if instructions else block,
        )

    return put_memories_first


def _user_text(item: TResponseInputItem) -> str | None:
    return message_text(item) if isinstance(item, dict) and item.get("role") == "user" else None
