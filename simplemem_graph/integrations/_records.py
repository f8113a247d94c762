"""Keyed, overwritable records over the append-only raw log: what every framework adapter needs.

A framework stores things it can overwrite and delete (a LangGraph item, an Agents SDK session
item); our raw log only grows. So each change is logged as a *record turn*, one JSON line in a
session of its own, logged as already consolidated: it is kept (durable, exported, deleted with
its namespace) but never compressed into memories. The current state is the replay of those
lines, last write wins. When a record carries text, that text is also logged as an ordinary turn,
compressed and consolidated like any other; overwriting or deleting the record deletes the
memories made from that turn, so a search never finds a value that is gone.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from simplemem_graph.errors import InputError, NotFoundError, SimpleMemError
from simplemem_graph.models import RECORD_SESSION_PREFIX  # + the collection: its record lines

if TYPE_CHECKING:
    from simplemem_graph.memory import Memory

RECORD_SPEAKER = "record"
# Records replay in the log's (time, id) order: each one is logged at least this much after the last.
TIME_STEP = timedelta(milliseconds=1)


class RecordLogError(SimpleMemError):
    """A line in a records session that is not a record this module wrote."""


@dataclass(frozen=True)
class Record:
    """The current state of one key."""

    key: str
    value: Any
    created_at: datetime
    updated_at: datetime
    text_turn: str | None  # the turn the value's text was logged as: its memories come from it
    line_turn: str | None = None  # the record line that holds this value (None until logged)


class RecordLog:
    """The records of one collection (a LangGraph namespace, an agent session) in a `Memory`'s
    namespace. One writer per collection at a time, as with the frameworks' own SQLite stores."""

    def __init__(self, memory: Memory, collection: str):
        if not collection:
            raise InputError("records: the collection name must be non-empty")
        self.memory = memory
        self.session = RECORD_SESSION_PREFIX + collection

    def records(self) -> dict[str, Record]:
        """Current records by key, in the order their keys were (last) created."""
        return self._replay()[0]

    def put(
        self, key: str, value: Any, *, text: str | None = None, speaker: str = "user", session: str
    ) -> Record:
        """Set `key` to `value` (JSON-serialisable). With `text`, log it as a turn of `session`
        by `speaker`: it becomes memories, and the previous value's memories are deleted."""
        return self.put_many([(key, value, text, speaker)], session=session)[0]

    def put_many(self, entries: Sequence[tuple[str, Any, str | None, str]], *, session: str) -> list[Record]:
        """`put` for several (key, value, text, speaker) at once, in order: their texts are
        compressed together, as one stretch of conversation."""
        keys = [key for key, _, _, _ in entries]
        if len(set(keys)) != len(keys):
            raise InputError("records: a key appears twice in one put_many")
        for key, value, _, _ in entries:
            try:
                json.dumps(value, allow_nan=False)
            except (TypeError, ValueError) as e:
                raise InputError(f"records: the value of {key!r} is not JSON-serialisable: {e}") from e
        state, last = self._replay()
        for key, _, _, _ in entries:
            if key in state:
                self._erase(state[key])
        written: list[Record] = []
        turns = []
        for key, value, text, speaker in entries:
            last = at = _next_time(last)
            text_turn = None
            if text and text.strip():
                turn = self.memory.make_turn(text, speaker=speaker or "user", session=session, time=at)
                turns.append(turn)
                text_turn = turn.id
            previous = state.get(key)
            created_at = previous.created_at if previous is not None else at
            state[key] = Record(key, value, created_at, at, text_turn)
            written.append(state[key])
        if turns:
            self.memory.add_many(turns)
        for record in written:
            self._log(
                {
                    "op": "put",
                    "key": record.key,
                    "value": record.value,
                    "created_at": record.created_at.isoformat(),
                    "text_turn": record.text_turn,
                },
                record.updated_at,
            )
        return written

    def delete(self, key: str) -> Record | None:
        """Delete `key` and the memories of its text; the deleted record, or None when absent."""
        state, last = self._replay()
        record = state.get(key)
        if record is None:
            return None
        self._erase(record)
        self._log({"op": "delete", "key": key}, _next_time(last))
        return record

    def clear(self) -> int:
        """Delete every record of the collection (and their memories); how many there were."""
        state, last = self._replay()
        for record in state.values():
            self._erase(record)
        if state:
            self._log({"op": "clear"}, _next_time(last))
        return len(state)

    # ---- internals -------------------------------------------------------------------------------
    def _replay(self) -> tuple[dict[str, Record], datetime | None]:
        state: dict[str, Record] = {}
        last = None
        for turn in self.memory.turns(session=self.session):
            last = turn.time
            try:
                line = json.loads(turn.text)
                op = line["op"]
                if op == "put":
                    state.pop(line["key"], None)  # a re-created key moves to the end
                    state[line["key"]] = Record(
                        line["key"],
                        line["value"],
                        datetime.fromisoformat(line["created_at"]),
                        turn.time,
                        line["text_turn"],
                        turn.id,
                    )
                elif op == "delete":
                    state.pop(line["key"], None)
                elif op == "clear":
                    state.clear()
                else:
                    raise KeyError(op)
            except (ValueError, KeyError, TypeError) as e:
                raise RecordLogError(
                    f"records: turn {turn.id!r} of session {self.session!r} in namespace "
                    f"{self.memory.namespace!r} is not a record line ({e!r})"
                ) from e
        return state, last

    def _log(self, line: dict[str, Any], at: datetime) -> None:
        turn = self.memory.make_turn(
            json.dumps(line, ensure_ascii=False),
            speaker=RECORD_SPEAKER,
            session=self.session,
            time=at,
        )
        # Logged as done: a record line is bookkeeping, never compressed into a memory.
        self.memory.store.add_turns([turn], pending=False)

    def _erase(self, record: Record) -> None:
        """Erase a value that is overwritten or deleted: its text turn with every memory made from
        it, and the record line that held it (`Memory.forget(turn_id=)` on each), so that neither a
        search, the raw log nor `rebuild` brings the old value back."""
        for turn_id in (record.text_turn, record.line_turn):
            if turn_id:
                # Already gone is fine: erased by another writer.
                with contextlib.suppress(NotFoundError):
                    self.memory.forget(turn_id=turn_id)


def _next_time(last: datetime | None) -> datetime:
    now = datetime.now(UTC)
    return now if last is None or now >= last + TIME_STEP else last + TIME_STEP
