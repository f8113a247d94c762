"""MCP server: simplemem-graph's memory as tools for any MCP-speaking agent.

Tools: `remember`, `search_memory`, `feedback`, `entity_timeline`, `list_conflicts`, `forget`,
`retry_failed`, `jobs`, `replay_log` (files of SIMPLEMEM_REPLAY_DIR only).
Each takes an optional `namespace` (default: the one the server was started with) and calls one
`Memory` method.

Run it over stdio (what desktop clients spawn) or streamable HTTP:

    python -m simplemem_graph.mcp_server --store memory.db --namespace me
    python -m simplemem_graph.mcp_server --store memory.db --transport http --port 8765   # -> /mcp

`docs/interfaces.md` shows how to register it with Claude Desktop or a generic `mcp.json`.
"""

from __future__ import annotations

import argparse
import ipaddress
import threading
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from simplemem_graph.errors import ConfigError, SimpleMemError
from simplemem_graph.memory import Memory

SERVER_NAME = "simplemem-graph"
INSTRUCTIONS = (
    "Long-term memory for this conversation partner. Call `remember` with each user turn worth "
    "keeping (facts, plans, dates, amounts, people); call `search_memory` before answering anything "
    "that may depend on the past, then `feedback` with the ids of the memories that helped; "
    "`entity_timeline` tells the story of one person, company or thing; "
    "`list_conflicts` shows facts that contradict each other and need clarifying."
)

MemorySource = Memory | Callable[[], Memory]


class _Memories:
    """The base `Memory` (opened on first use) and one per namespace; each namespace's calls are
    serialised by its own lock (tools run in worker threads), different namespaces run side by side."""

    def __init__(self, source: MemorySource):
        self._source = source
        self._base: Memory | None = source if isinstance(source, Memory) else None
        self._by_namespace: dict[str, Memory] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._open_lock = threading.Lock()

    def get(self, namespace: str | None) -> Memory:
        with self._open_lock:
            if self._base is None:
                self._base = self._source()  # type: ignore[operator]
            if not namespace or namespace == self._base.namespace:
                return self._base
            if namespace not in self._by_namespace:
                self._by_namespace[namespace] = self._base.with_namespace(namespace)
            return self._by_namespace[namespace]

    def lock_for(self, memory: Memory) -> threading.Lock:
        with self._open_lock:
            return self._locks.setdefault(memory.namespace, threading.Lock())


def build_mcp_server(memory: MemorySource) -> MCPServer:
    """An MCP server exposing the memory tools.

    Args:
        memory: a `Memory`, or a zero-argument factory that opens one on the first tool call (so
            the client's handshake is not kept waiting while models load).

    Returns:
        The `MCPServer`; call `.run("stdio")` or `.run("streamable-http", host=..., port=...)`.

    Example:
        >>> server = build_mcp_server(lambda: Memory.open("memory.db", namespace="me"))
        >>> server.run("stdio")
    """
    memories = _Memories(memory)
    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS)

    def call(namespace: str | None, action: Callable[[Memory], Any]) -> Any:
        # Our errors are the caller's to fix (bad date, unknown entity): pass their message on.
        # Anything else stays a crash, whose details the SDK keeps on the server.
        try:
            memory = memories.get(namespace)
            with memories.lock_for(memory):
                return action(memory)
        except SimpleMemError as e:
            raise ToolError(f"{type(e).__name__}: {e}") from e

    @server.tool()
    def remember(
        text: str,
        speaker: str = "user",
        session: str = "default",
        time: str | None = None,
        namespace: str | None = None,
        agent: str | None = None,
    ) -> dict[str, Any]:
        """Store one conversation turn (or agent action) in long-term memory.

        Args:
            text: what was said or done, verbatim.
            speaker: who said it (a name, or "user"/"assistant").
            session: conversation id; turns of one session are chained in order.
            time: when it was said, ISO 8601 (default now); relative dates are resolved from it.
            namespace: memory to write to (default: the server's).
            agent: which agent writes it, when several agents share one memory.
        """
        when = _parse_datetime(time, "time")
        events = call(
            namespace, lambda m: m.add(text, speaker=speaker, session=session, time=when, agent=agent)
        )
        return {"events": [{"id": e.id, "text": e.text} for e in events]}

    @server.tool()
    def search_memory(
        query: str, k: int = 5, at: str | None = None, namespace: str | None = None, agent: str | None = None
    ) -> dict[str, Any]:
        """Find the memories most relevant to a question, with their time, score and sources.

        Args:
            query: the question or topic, in any words (English or Chinese).
            k: how many memories to return (1-20).
            at: when the question is asked, ISO 8601 (anchors "last week"; default now).
            namespace: memory to read (default: the server's).
            agent: only memories written by this agent (several agents sharing one memory).
        """
        if not 1 <= k <= 20:
            raise ToolError(f"search_memory: k must be between 1 and 20, got {k}")
        asked_at = _parse_datetime(at, "at")

        def search(m: Memory) -> dict[str, Any]:
            result = m.search(query, k=k, at=asked_at, agent=agent)
            # A namespace nothing was written to answers nothing: say so, a typo should show.
            return {**result.as_dict(), "namespace_exists": bool(result.hits) or m.exists()}

        return call(namespace, search)

    @server.tool()
    def feedback(
        query: str,
        helpful: list[str],
        shown: list[str] | None = None,
        at: str | None = None,
        namespace: str | None = None,
    ) -> dict[str, Any]:
        """Say which memories helped answer a question, after using `search_memory`: this
        memory's reranker is retrained from such feedback (`simplemem-graph train-reranker`).

        Args:
            query: the question, as it was passed to `search_memory`.
            helpful: ids of the memories (results of `search_memory`) that helped the answer.
            shown: ids of all the memories that were returned; the shown ones that did not help
                teach what ranks too high. Default: every memory recall finds counts as shown.
            at: when the question was asked, ISO 8601, as passed to `search_memory` (default now).
            namespace: memory to write to (default: the server's).
        """
        asked_at = _parse_datetime(at, "at")
        record = call(namespace, lambda m: m.feedback(query, helpful, shown, at=asked_at))
        return record.public_dict()

    @server.tool()
    def entity_timeline(
        entity: str, date_from: str | None = None, date_to: str | None = None, namespace: str | None = None
    ) -> dict[str, Any]:
        """Everything remembered about one person, organisation, place or thing, oldest first.

        Args:
            entity: its name or any alias.
            date_from: first date to include, YYYY-MM-DD.
            date_to: last date to include, YYYY-MM-DD.
            namespace: memory to read (default: the server's).
        """
        first, last = _parse_date(date_from, "date_from"), _parse_date(date_to, "date_to")
        hits = call(namespace, lambda m: m.timeline(entity, date_from=first, date_to=last))
        return {"entity": entity, "results": [hit.public_dict() for hit in hits]}

    @server.tool()
    def open_questions(limit: int = 10, namespace: str | None = None) -> dict[str, Any]:
        """What to ask the user next: tasks, meetings and commitments that lack a deadline, an owner,
        an amount, a place or a time, most important first. Answering in a later turn closes them.

        Args:
            limit: how many questions to return (1-50).
            namespace: memory to read (default: the server's).
        """
        if not 1 <= limit <= 50:
            raise ToolError(f"open_questions: limit must be between 1 and 50, got {limit}")
        found = call(namespace, lambda m: m.questions(limit=limit))
        return {"questions": [q.public_dict() for q in found]}

    @server.tool()
    def list_patterns(namespace: str | None = None) -> dict[str, Any]:
        """Regularities remembered across many events ("meets Acme on Mondays, 8 of 9 times"), each
        with its count, rate and the ids of the events it was counted from.

        Args:
            namespace: memory to read (default: the server's).
        """
        found = call(namespace, lambda m: m.patterns())
        return {"patterns": [{**p.public_dict(), "evidence": [e.id for e in events]} for p, events in found]}

    @server.tool()
    def replay_log(
        log_path: str, slices: str = "week", queries_path: str | None = None, sample: str | None = None
    ) -> dict[str, Any]:
        """Replay a timestamped log (LoCoMo, LongMemEval, or JSON Lines turns with a queries file)
        slice by slice into scratch memory, asking the questions whose evidence is in the past.

        Args:
            log_path: the log file, in the folder the server was given for replays
                (SIMPLEMEM_REPLAY_DIR); no other file is read.
            slices: day, week or month.
            queries_path: JSON Lines {"id", "query", "evidence": [turn ids]} (needed for JSON Lines logs).
            sample: the LoCoMo conversation or LongMemEval question id (default: the first).
        """
        from simplemem_graph.replay import SLICES, load_replay_log, replay_scratch, replay_server_store

        if slices not in SLICES:
            raise ToolError(f"replay_log: slices must be one of {list(SLICES)}, got {slices!r}")
        base = call(None, lambda m: m)
        folder = base.settings.replay_dir
        try:
            log = load_replay_log(
                _in_folder(folder, log_path, "log_path"),
                queries=None if queries_path is None else _in_folder(folder, queries_path, "queries_path"),
                sample=sample,
            )
        except SimpleMemError as e:
            raise ToolError(f"replay_log: {e}") from e
        configs = [("default", base.settings)]
        reports = replay_scratch(
            log, embedder=base.embedder, configs=configs, slices=slices, store=replay_server_store(base.store)
        )
        return {"slices": [r.as_dict() for r in reports]}

    @server.tool()
    def list_conflicts(namespace: str | None = None) -> dict[str, Any]:
        """Pairs of remembered facts that contradict each other and should be clarified with the user.

        Args:
            namespace: memory to read (default: the server's).
        """
        found = call(namespace, lambda m: m.conflicts())
        return {"conflicts": [conflict.as_dict() for conflict in found]}

    @server.tool()
    def forget(
        event_id: str | None = None,
        entity: str | None = None,
        turn_id: str | None = None,
        dry_run: bool = False,
        namespace: str | None = None,
    ) -> dict[str, Any]:
        """Erase a memory for good: one memory (by event id) with the turns it was made from, one
        turn, or everything about one entity (by name): every turn that names it and every memory
        that mentions it. Nothing of the erased text stays in the store.

        Args:
            event_id: id of a memory, as returned by `search_memory`.
            entity: name of a person, organisation or thing.
            turn_id: id of a turn of the conversation log.
            dry_run: only list what would be erased (with its text), change nothing.
            namespace: memory to change (default: the server's).
        """
        if sum(x is not None for x in (event_id, entity, turn_id)) != 1:
            raise ToolError("forget: give exactly one of event_id, entity or turn_id")
        erasure = call(
            namespace, lambda m: m.forget(event_id=event_id, entity=entity, turn_id=turn_id, dry_run=dry_run)
        )
        return erasure.as_dict()

    @server.tool()
    def retry_failed(namespace: str | None = None) -> dict[str, Any]:
        """Consolidate again the turns set aside because their consolidation failed (see `jobs`);
        those that fail again stay aside, listed with their error.

        Args:
            namespace: memory to change (default: the server's).
        """
        report = call(namespace, lambda m: m.retry_failed())
        return {k: v for k, v in report.as_dict().items() if k != "compress"}

    @server.tool()
    def jobs(kind: str | None = None, limit: int = 20, namespace: str | None = None) -> dict[str, Any]:
        """The background worker's runs, newest first: did consolidation of pending turns and the
        global pass work, how many turns they processed, how many are still pending.

        Args:
            kind: "consolidate" or "global_pass" (default both).
            limit: how many runs (1-200).
            namespace: memory to read (default: the server's).
        """
        if kind is not None and kind not in ("consolidate", "global_pass"):
            raise ToolError(f"jobs: kind must be consolidate or global_pass, got {kind!r}")
        if not 1 <= limit <= 200:
            raise ToolError(f"jobs: limit must be between 1 and 200, got {limit}")
        runs = call(namespace, lambda m: m.store.list_jobs(m.namespace, kind=kind, limit=limit))
        return {"jobs": [run.model_dump(mode="json") for run in runs]}

    return server


def _parse_datetime(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError as e:
        raise ToolError(
            f"{name}: {value!r} is not an ISO 8601 date-time (e.g. 2026-03-02T10:15:00+08:00)"
        ) from e


def _in_folder(folder: str | None, name: str, option: str) -> Path:
    """`name` (relative to the replay folder, or absolute) as a file inside the folder. Any other
    path is refused with one message whether or not it exists, so the tool cannot probe files."""
    if not folder:
        raise ToolError(
            "replay_log: this server reads no log files; start it with SIMPLEMEM_REPLAY_DIR set to the "
            "folder holding the logs"
        )
    refusal = ToolError(f"replay_log: {option} must name a file in the replay folder (SIMPLEMEM_REPLAY_DIR)")
    root = Path(folder).resolve()
    try:
        path = (root / name).resolve()  # symlinks followed: one pointing out of the folder is refused
        inside = path.is_relative_to(root) and path.is_file()
    except (OSError, ValueError):  # a NUL byte, a name too long...: refused like any other
        raise refusal from None
    if not inside:
        raise refusal
    return path


def _parse_date(value: str | None, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as e:
        raise ToolError(f"{name}: {value!r} is not an ISO date (YYYY-MM-DD)") from e


def run_mcp(
    memory_factory: MemorySource,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    *,
    insecure: bool = False,
) -> None:
    """Serve the memory tools until the client disconnects (stdio) or the process is stopped (http).

    Args:
        memory_factory: a `Memory` or a zero-argument callable opening one.
        transport: "stdio" (spawned by a desktop client) or "http" (streamable HTTP at /mcp).
        host: interface for "http"; the MCP endpoint has no authentication, so anything but
            loopback needs `insecure`.
        port: TCP port for "http".
        insecure: allow a non-loopback host.

    Raises:
        ConfigError: an unknown transport, or a non-loopback host without `insecure`.
    """
    server = build_mcp_server(memory_factory)
    if transport == "stdio":
        server.run("stdio")
        return
    if transport != "http":
        raise ConfigError(f"mcp: unknown transport {transport!r}; use 'stdio' or 'http'")
    if not _is_loopback(host) and not insecure:
        raise ConfigError(
            f"mcp: refusing to serve unauthenticated MCP on {host!r}; bind to 127.0.0.1 or pass --insecure"
        )
    server.run("streamable-http", host=host, port=port)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv: list[str] | None = None) -> None:
    """`python -m simplemem_graph.mcp_server`: the same as `simplemem-graph mcp`."""
    parser = argparse.ArgumentParser(
        prog="python -m simplemem_graph.mcp_server", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--store", help="store path or URI (default: SIMPLEMEM_STORE or the user data dir)")
    parser.add_argument("--namespace", help="default namespace (default: SIMPLEMEM_NAMESPACE or 'default')")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--insecure", action="store_true", help="allow a non-loopback host for http")
    args = parser.parse_args(argv)
    try:
        run_mcp(
            lambda: Memory.open(args.store, namespace=args.namespace),
            transport=args.transport,
            host=args.host,
            port=args.port,
            insecure=args.insecure,
        )
    except ConfigError as e:
        parser.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
