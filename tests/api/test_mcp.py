"""The MCP server through a real MCP client session: stdio (a spawned process) and streamable HTTP."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

REPO = Path(__file__).resolve().parents[2]
TOOLS = {
    "remember",
    "search_memory",
    "feedback",
    "entity_timeline",
    "list_conflicts",
    "forget",
    "jobs",
    "open_questions",
    "list_patterns",
    "replay_log",
    "retry_failed",
}
BIG_TURN = "word " * 940_000  # 4.7 MB: under the REST body limit, far over the turn limit
TURNS = [
    (
        "Maya Torres",
        "2026-03-03T14:00:00-05:00",
        "Northwind Foods wants the revised quote by Wednesday next week, "
        "and they said they will not accept anything above $18,500.",
    ),
    (
        "Maya Torres",
        "2026-03-12T09:30:00-05:00",
        "We sent Northwind Foods the revised quote yesterday at $18,200, so the deal is on track.",
    ),
]


def _payload(result) -> dict:
    """A tool result's JSON: the structured content, else the text block."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def _exercise(client: Client, *, http: bool = False) -> None:
    tools = await client.list_tools()
    assert {tool.name for tool in tools.tools} == TOOLS
    for tool in tools.tools:
        assert tool.description and tool.input_schema["type"] == "object"

    # One oversized turn is refused whole, and does not get in the way of the turns after it.
    try:
        too_big = await client.call_tool("remember", {"text": BIG_TURN, "speaker": "Maya Torres"})
    except MCPError as e:
        # Over HTTP the SDK's own 4 MiB request limit answers first (413), before the tool runs.
        assert http, e
    else:
        assert too_big.is_error and "TurnTooLargeError" in too_big.content[0].text
        assert "at most 100,000" in too_big.content[0].text

    for speaker, when, text in TURNS:
        stored = _payload(
            await client.call_tool("remember", {"text": text, "speaker": speaker, "time": when})
        )
        assert stored["events"] and all(e["id"].startswith("ev-") for e in stored["events"])

    found = _payload(
        await client.call_tool(
            "search_memory", {"query": "Northwind price ceiling", "k": 3, "at": "2026-03-20T09:00:00+08:00"}
        )
    )
    assert 1 <= len(found["results"]) <= 3
    assert any("18,500" in hit["text"] or "18500" in hit["text"] for hit in found["results"])

    shown = [hit["id"] for hit in found["results"]]
    labelled = _payload(
        await client.call_tool(
            "feedback",
            {
                "query": "Northwind price ceiling",
                "helpful": shown[:1],
                "shown": shown,
                "at": "2026-03-20T09:00:00+08:00",
            },
        )
    )
    assert labelled["id"].startswith("fb-")
    assert labelled["helpful"] == shown[:1] and labelled["shown"] == shown
    unknown_id = await client.call_tool("feedback", {"query": "Northwind", "helpful": ["ev-nope"]})
    assert unknown_id.is_error and "InputError" in unknown_id.content[0].text
    assert "ev-nope" in unknown_id.content[0].text

    story = _payload(await client.call_tool("entity_timeline", {"entity": "Northwind Foods"}))
    assert len(story["results"]) >= 2
    assert _payload(await client.call_tool("list_conflicts", {}))["conflicts"] == []
    questions = _payload(await client.call_tool("open_questions", {"limit": 5}))["questions"]
    assert all({"id", "question", "slot", "event", "source_ids"} <= set(q) for q in questions)
    assert _payload(await client.call_tool("list_patterns", {}))["patterns"] == []

    other_ns = _payload(
        await client.call_tool("search_memory", {"query": "Northwind", "namespace": "elsewhere"})
    )
    assert other_ns["results"] == [] and other_ns["namespace_exists"] is False
    assert found["namespace_exists"] is True

    # replay_log reads only the configured folder; any other path gets one answer, existing or not.
    refusals = [
        await client.call_tool("replay_log", {"log_path": path})
        for path in ("/etc/passwd", "/etc/no-such-file", "../../etc/passwd", "nothing-here.jsonl")
    ]
    assert all(r.is_error for r in refusals)
    assert len({r.content[0].text for r in refusals}) == 1, [r.content[0].text for r in refusals]
    assert "replay folder" in refusals[0].content[0].text

    unknown = await client.call_tool("entity_timeline", {"entity": "Nobody Inc"})
    assert unknown.is_error and "NotFoundError" in unknown.content[0].text
    bad_date = await client.call_tool("entity_timeline", {"entity": "Northwind Foods", "date_from": "soon"})
    assert bad_date.is_error and "date_from" in bad_date.content[0].text
    both = await client.call_tool("forget", {})
    assert both.is_error and "exactly one" in both.content[0].text

    event_id = found["results"][0]["id"]
    preview = _payload(await client.call_tool("forget", {"event_id": event_id, "dry_run": True}))
    assert preview["dry_run"] and event_id in [e["id"] for e in preview["events"]]
    erased = _payload(await client.call_tool("forget", {"event_id": event_id}))
    assert erased["events_deleted"] >= 1 and erased["turns_erased"] == 1
    assert event_id in erased["events"] and erased["turns"] == [t["id"] for t in preview["turns"]]
    again = await client.call_tool("forget", {"event_id": event_id})
    assert again.is_error and event_id in again.content[0].text


def _server_env(tmp_path: Path) -> dict[str, str]:
    """The server's environment: a replay folder of its own (empty), so replay_log has one."""
    (tmp_path / "replays").mkdir(exist_ok=True)
    return {**os.environ, "SIMPLEMEM_REPLAY_DIR": str(tmp_path / "replays")}


def test_stdio_server_through_a_client_session(tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simplemem_graph.mcp_server", "--store", str(tmp_path / "mcp.db"), "--namespace", "maya"],
        cwd=REPO,
        env=_server_env(tmp_path),
    )

    async def run() -> None:
        async with Client(params, read_timeout_seconds=240) as client:
            await _exercise(client)

    asyncio.run(run())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_mcp(tmp_path):
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simplemem_graph.mcp_server",
            "--store",
            str(tmp_path / "mcp.db"),
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        cwd=REPO,
        env=_server_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert process.poll() is None, process.stderr.read().decode()
        time.sleep(0.2)
    yield f"http://127.0.0.1:{port}/mcp"
    process.terminate()
    process.wait(timeout=20)


def test_streamable_http_server_through_a_client_session(http_mcp):
    async def run() -> None:
        async with Client(http_mcp, read_timeout_seconds=240) as client:
            await _exercise(client, http=True)

    asyncio.run(run())


def test_http_transport_refuses_a_public_host_without_insecure(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "simplemem_graph.mcp_server",
            "--store",
            str(tmp_path / "x.db"),
            "--transport",
            "http",
            "--host",
            "0.0.0.0",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "refusing to serve unauthenticated MCP on '0.0.0.0'" in done.stderr


def test_replay_log_paths_stay_inside_the_replay_folder(tmp_path):
    from mcp.server.mcpserver.exceptions import ToolError

    from simplemem_graph.mcp_server import _in_folder

    folder = tmp_path / "replays"
    folder.mkdir()
    (folder / "log.jsonl").write_text("{}\n", encoding="utf-8")
    outside = tmp_path / "secret.txt"
    outside.write_text("not yours\n", encoding="utf-8")
    (folder / "escape.jsonl").symlink_to(outside)
    assert _in_folder(str(folder), "log.jsonl", "log_path") == (folder / "log.jsonl").resolve()
    assert _in_folder(str(folder), str(folder / "log.jsonl"), "log_path") == (folder / "log.jsonl").resolve()
    answers = set()
    for name in ("escape.jsonl", str(outside), "../secret.txt", "missing.jsonl", "a\x00b", "x" * 5000, "."):
        with pytest.raises(ToolError) as refused:
            _in_folder(str(folder), name, "log_path")
        answers.add(str(refused.value))
    assert len(answers) == 1  # whether the file exists or not, the same answer
    with pytest.raises(ToolError, match="reads no log files"):
        _in_folder(None, "log.jsonl", "log_path")
