"""LangGraph long-term memory: `SimpleMemStore`, a `langgraph.store.base.BaseStore` over a `Memory`.

    from simplemem_graph import Memory
    from simplemem_graph.integrations.langgraph import SimpleMemStore

    graph = builder.compile(store=SimpleMemStore(Memory.open("memory.db")))

How LangGraph's notions map onto ours (docs/integrations.md has the full table):

- A namespace tuple is one of our namespaces: its labels joined by "." (LangGraph forbids "." in a
  label, so the join is one-to-one), with the characters our names cannot hold ("%", "/", "\\",
  "|", control characters) percent-escaped. `("memories", "u1")` is our namespace "memories.u1",
  readable as such from the CLI, REST or MCP.
- An item is a record (key -> value) of that namespace, kept verbatim: `get` returns exactly what
  was put. The value's text (the strings at `fields`, default `["text"]`, or at the put's `index`
  paths) is logged as a turn of session "langgraph" and compressed into memories; a value without
  text, or put with `index=False`, is kept but is no memory.
- `search` with a query is our retrieval in every namespace under the prefix: items whose memories
  were retrieved come first, scored (the best memory's score), then unindexed items fill up to
  `limit` with score None, as LangGraph's InMemoryStore does. Without a query: items oldest first
  (by creation; an overwrite keeps its place, a key deleted and put again moves to the end).
  `filter` compares value fields ($eq, $ne, $gt, $gte, $lt, $lte).
- `delete` (a put of None) drops the item and the memories of its text; overwriting a key replaces
  them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import unquote

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    get_text_at_path,
    validate_op_namespace,
)

from simplemem_graph.config import validate_namespace
from simplemem_graph.errors import ConfigError, InputError
from simplemem_graph.integrations._records import Record, RecordLog
from simplemem_graph.memory import Memory

ITEMS = "langgraph"  # the record collection that holds a namespace's items
TEXT_SESSION = "langgraph"  # the session an item's text is logged in (the turn its memories come from)
SEARCH_WIDENING = 3  # memories retrieved per wanted item: several memories may come from one item
_UNSAFE = frozenset("%/\\|")  # "%" escapes itself; the others are not allowed in our namespace names
_COMPARISONS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: float(a) > float(b),
    "$gte": lambda a, b: float(a) >= float(b),
    "$lt": lambda a, b: float(a) < float(b),
    "$lte": lambda a, b: float(a) <= float(b),
}


def namespace_name(namespace: tuple[str, ...]) -> str:
    """Our namespace name for a LangGraph namespace tuple (see the module docstring)."""
    name = ".".join("".join(_escape(c) for c in label) for label in namespace)
    try:
        return validate_namespace(name)
    except ConfigError as e:
        raise InvalidNamespaceError(f"namespace {namespace!r} maps to no valid namespace name: {e}") from e


def namespace_tuple(name: str) -> tuple[str, ...]:
    """The LangGraph namespace tuple of one of our namespace names (inverse of `namespace_name`)."""
    return tuple(unquote(label) for label in name.split("."))


def _escape(char: str) -> str:
    if char in _UNSAFE or ord(char) < 32 or ord(char) == 127:
        return "".join(f"%{b:02X}" for b in char.encode())
    return char


class SimpleMemStore(BaseStore):
    """A LangGraph store whose items live in a simplemem-graph store, their text as memories.

    Args:
        memory: gives the store, the models and the settings; each LangGraph namespace is read
            and written through `memory.with_namespace(...)`.
        fields: JSON paths of a value whose strings are its text (LangGraph's path syntax:
            "text", "profile.bio", "notes[*]"), when a put gives no `index`.
        prefix: labels put in front of every namespace, to keep one application's namespaces
            apart from others in a shared store: with `("app",)`, `("memories", "u1")` is our
            "app.memories.u1", and the store sees only namespaces under "app".
    """

    def __init__(self, memory: Memory, *, fields: Sequence[str] = ("text",), prefix: tuple[str, ...] = ()):
        if isinstance(fields, str) or not all(isinstance(f, str) and f for f in fields):
            raise InputError(f"SimpleMemStore: `fields` must be a list of JSON paths, got {fields!r}")
        if not isinstance(prefix, tuple) or not all(
            isinstance(p, str) and p and "." not in p for p in prefix
        ):
            raise InvalidNamespaceError(f"SimpleMemStore: `prefix` must be a tuple of labels, got {prefix!r}")
        self.memory = memory
        self.fields = list(fields)
        self.prefix = prefix
        self._scoped: dict[str, Memory] = {}
        # One writer at a time: an item's record and its memories are replaced together.
        self._lock = threading.RLock()

    # ---- the BaseStore contract ------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the ops in order: reads see the store as it was before the batch, then the puts
        are applied (the last put of a key wins), as LangGraph's InMemoryStore does."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        results: list[Result] = []
        puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
        with self._lock:
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(op))
                elif isinstance(op, PutOp):
                    puts.pop((op.namespace, op.key), None)
                    puts[(op.namespace, op.key)] = op
                    results.append(None)
                else:
                    raise InputError(f"SimpleMemStore: unknown op {type(op).__name__}")
            for put in puts.values():
                self._put(put)
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` in a worker thread: the stores and models are synchronous."""
        return await asyncio.to_thread(self.batch, list(ops))

    # ---- ops -------------------------------------------------------------------------------------
    def _get(self, op: GetOp) -> Item | None:
        record = self._records(op.namespace).records().get(op.key)
        return None if record is None else _item(op.namespace, record)

    def _put(self, op: PutOp) -> None:
        if op.ttl is not None:
            raise NotImplementedError("SimpleMemStore does not expire items (ttl must be None)")
        log = self._records(op.namespace, writing=True)
        if op.value is None:
            log.delete(op.key)
            return
        value = dict(op.value)
        paths = [] if op.index is False else (op.index or self.fields)
        text = "\n".join(s for path in paths for s in get_text_at_path(value, path) if s.strip())
        log.put(op.key, value, text=text or None, session=TEXT_SESSION)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        found: list[tuple[float | None, tuple[str, ...], Record]] = []
        unscored: list[tuple[float | None, tuple[str, ...], Record]] = []
        wanted = max(op.limit + op.offset, 1)
        for name, namespace in self._namespaces():
            if namespace[: len(op.namespace_prefix)] != tuple(op.namespace_prefix):
                continue
            records = [r for r in self._records(namespace).records().values() if _matches(r.value, op.filter)]
            if not op.query:
                found += [(None, namespace, r) for r in records]
                continue
            by_turn = {r.text_turn: r for r in records if r.text_turn}
            unscored += [(None, namespace, r) for r in records if not r.text_turn]
            if not by_turn:
                continue  # nothing here was remembered: no retrieval to run
            best: dict[str, float] = {}
            result = self._memory(name).search(op.query, k=wanted * SEARCH_WIDENING)
            for hit in result.hits:
                for turn_id in hit.event.source_ids:
                    if turn_id in by_turn:
                        key = by_turn[turn_id].key
                        best[key] = max(best.get(key, hit.score), hit.score)
            found += [(best[r.key], namespace, r) for r in records if r.key in best]
        if op.query:
            found.sort(key=lambda x: -x[0])
            found += sorted(unscored, key=lambda x: x[2].created_at)
        else:
            found.sort(key=lambda x: x[2].created_at)
        return [
            _item(namespace, record, score=score)
            for score, namespace, record in found[op.offset : op.offset + op.limit]
        ]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = [
            ns
            for name, ns in self._namespaces()
            if all(_condition_holds(c, ns) for c in op.match_conditions or ()) and self._records(ns).records()
        ]
        if op.max_depth is not None:
            namespaces = [ns[: op.max_depth] for ns in namespaces]
        return sorted(set(namespaces))[op.offset : op.offset + op.limit]

    # ---- helpers ---------------------------------------------------------------------------------
    def _namespaces(self) -> list[tuple[str, tuple[str, ...]]]:
        """(name, tuple without the prefix) of the store's namespaces under the prefix that are
        LangGraph namespaces (no empty label)."""
        pairs = [(name, namespace_tuple(name)) for name in self.memory.namespaces()]
        n = len(self.prefix)
        return [(name, ns[n:]) for name, ns in pairs if all(ns) and len(ns) > n and ns[:n] == self.prefix]

    def _memory(self, name: str) -> Memory:
        if name not in self._scoped:
            self._scoped[name] = self.memory.with_namespace(name)
        return self._scoped[name]

    def _records(self, namespace: tuple[str, ...], *, writing: bool = False) -> RecordLog:
        if writing and (not namespace or namespace[0] == "langgraph"):
            # The same rule as BaseStore.put: the "langgraph" root is reserved by the framework.
            raise InvalidNamespaceError(f"cannot write to namespace {namespace!r}")
        return RecordLog(self._memory(namespace_name(self.prefix + tuple(namespace))), ITEMS)


def _item(namespace: tuple[str, ...], record: Record, *, score: float | None = None) -> SearchItem:
    return SearchItem(
        namespace=namespace,
        key=record.key,
        value=record.value,
        created_at=record.created_at,
        updated_at=record.updated_at,
        score=score,
    )


def _matches(value: dict[str, Any], conditions: dict[str, Any] | None) -> bool:
    """LangGraph's filter: each field equals the given value, or passes its operators."""
    return all(_compare(value.get(k), v) for k, v in (conditions or {}).items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            unknown = [k for k in wanted if k not in _COMPARISONS]
            if unknown:
                raise InputError(f"SimpleMemStore: unsupported filter operators {unknown}")
            try:
                return all(_COMPARISONS[k](actual, v) for k, v in wanted.items())
            except (TypeError, ValueError):
                return False  # a missing or non-numeric field does not compare
        return isinstance(actual, dict) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    return actual == wanted


def _condition_holds(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise InputError(f"SimpleMemStore: unknown match type {condition.match_type!r}")
    return all(p == "*" or n == p for n, p in pairs)
