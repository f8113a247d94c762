"""What a new user trips on: --version, usage errors, a mistyped store path, an unreachable server,
unreadable output, a file with one bad line. Each through the real CLI process."""

import json
import socket
import sqlite3
from datetime import UTC, datetime

import pytest

from simplemem_graph.models import Event
from tests.unit.cli.test_cli_errors import run_cli, turn_count


def test_version_and_usage_errors_exit_like_click():
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("simplemem-graph ")
    for args in (["--bogus"], ["stats", "--bogus"], ["search", "q", "--k", "many"], ["no-such-verb"]):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr and "unexpected" not in result.stderr


def test_help_explains_relative_and_absolute_sqlite_uris():
    text = " ".join(run_cli("--help").stdout.split())
    assert "sqlite:///x.db is x.db relative to the current folder" in text
    assert "sqlite:////x.db (four slashes) is the absolute path" in text


@pytest.mark.parametrize(
    "verb",
    [
        ["stats"],
        ["search", "anything"],
        ["timeline", "Bob"],
        ["export"],
        ["jobs"],
        ["forget", "--entity", "Bob"],
    ],
)
def test_reads_of_a_missing_store_refuse_and_create_nothing(tmp_path, verb):
    for store in (str(tmp_path / "typo.db"), "sqlite:///typo.db"):
        result = run_cli("--store", store, *verb, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "no such store" in result.stderr and "Traceback" not in result.stderr
        assert list(tmp_path.iterdir()) == []  # nothing was created


def test_unopenable_store_and_unreachable_neo4j_exit_2_with_one_line(tmp_path):
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("these are my notes, not a database\n" * 100, encoding="utf-8")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for store in (str(not_a_db), f"neo4j://127.0.0.1:{port}"):
        result = run_cli("--store", store, "stats")
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


def test_event_repr_leaves_the_vector_out():
    event = Event(id="ev-1", text="hello", source_ids=["t1"], time=datetime(2026, 1, 1, tzinfo=UTC))
    event.embedding = [0.125] * 384
    shown = repr(event)
    assert "<384 floats>" in shown and "0.125" not in shown and len(shown) < 1500
    assert event.embedding == [0.125] * 384  # only the repr changed


def test_skip_invalid_ingests_the_good_lines_and_names_each_bad_one(tmp_path):
    when = "2026-03-02T10:00:00Z"
    lines = [
        {"id": f"t{i}", "text": f"Ana booked room {i} for the Q{i} review", "time": when} for i in range(1, 6)
    ]
    lines[2]["text"] = ""  # an empty message, as in an exported chat
    raw = [json.dumps(line) for line in lines]
    raw.insert(4, '{"text": "broken')
    source = tmp_path / "chat.jsonl"
    source.write_text("\n".join(raw) + "\n", encoding="utf-8")
    db = tmp_path / "m.db"

    strict = run_cli("--store", str(db), "ingest", str(source))
    assert strict.returncode == 2 and ":5: invalid JSON" in strict.stderr and turn_count(db) == 0

    lenient = run_cli("--store", str(db), "ingest", str(source), "--skip-invalid", "--json")
    assert lenient.returncode == 0, lenient.stderr
    assert f"skipped {source}:3: `text` is empty" in lenient.stderr
    assert f"skipped {source}:5: invalid JSON" in lenient.stderr
    report = json.loads(lenient.stdout)
    assert report["turns_new"] == 4 and turn_count(db) == 4
    assert sorted(s["where"] for s in report["invalid_skipped"]) == [f"{source}:3", f"{source}:5"]

    # The other verbs of the same store: readable text, and --json.
    stats = json.loads(run_cli("--store", str(db), "stats", "--json").stdout)
    assert stats["turns"] == 4 and stats["namespace_exists"] is True and stats["failed"] == 0
    for verb in (["consolidate"], ["rebuild"]):
        text = run_cli("--store", str(db), *verb)
        assert text.returncode == 0, text.stderr
        assert "{'" not in text.stdout and "namespace default" in text.stdout
        as_json = run_cli("--store", str(db), *verb, "--json")
        assert isinstance(json.loads(as_json.stdout), dict)
    exported = tmp_path / "export.jsonl"
    summary = run_cli("--store", str(db), "export", str(exported), "--json")
    assert json.loads(summary.stdout)["records"] == len(exported.read_text(encoding="utf-8").splitlines())
    imported = run_cli("--store", str(db), "--namespace", "copy", "import", str(exported))
    assert imported.returncode == 0 and imported.stdout.startswith("imported into copy: 4 turns")
    copy_stats = json.loads(run_cli("--store", str(db), "--namespace", "copy", "stats", "--json").stdout)
    assert copy_stats["namespaces"] == 2  # the store's, not 1 for "this one"
    typo = json.loads(run_cli("--store", str(db), "--namespace", "cpoy", "search", "room", "--json").stdout)
    assert typo["results"] == [] and typo["namespace_exists"] is False
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM turns WHERE namespace = 'cpoy'").fetchone()[0] == 0
