"""The CLI as a user meets it: bad input gets one clear line, exit status 2, nothing written."""

import json
import sqlite3
import subprocess
import sys

import pytest


def run_cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "simplemem_graph", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def turn_count(db):
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM turns").fetchone()[0]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"text": "fine"}\n{"text": "oops"\n', ":2: invalid JSON"),
        ('{"text": "fine"}\n{"speaker": "x"}\n', ":2: missing required field `text`"),
        ('{"text": ["a"]}\n', ":1: `text` must be a string, got list"),
        ('{"text": "x", "time": "2026-13-45"}\n', "is not an ISO 8601 timestamp"),
        ("", "file is empty"),
    ],
)
def test_bad_ingest_exits_2_and_writes_nothing(tmp_path, content, expected):
    bad = tmp_path / "turns.jsonl"
    bad.write_text(content, encoding="utf-8")
    db = tmp_path / "m.db"
    result = run_cli("--store", str(db), "ingest", str(bad))
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr
    assert str(bad) in result.stderr
    assert "Traceback" not in result.stderr
    assert turn_count(db) == 0


def test_binary_and_huge_turn(tmp_path):
    binary = tmp_path / "blob.jsonl"
    binary.write_bytes(bytes(range(256)) * 10)
    huge = tmp_path / "huge.jsonl"
    huge.write_text(json.dumps({"text": "word " * 2_100_000}), encoding="utf-8")
    for path, expected in ((binary, "binary data"), (huge, "a turn may have at most")):
        result = run_cli("--store", str(tmp_path / "m.db"), "ingest", str(path))
        assert result.returncode == 2 and expected in result.stderr and "Traceback" not in result.stderr


def test_usage_errors_exit_2(tmp_path):
    assert run_cli("search").returncode == 2  # neither QUERY nor --queries
    assert run_cli("ingest", str(tmp_path / "nope.jsonl"), "--format", "csv").returncode == 2
    bad_ns = run_cli("--namespace", "a/b", "stats")
    assert bad_ns.returncode == 2 and "namespace" in bad_ns.stderr
    bad_store = run_cli("--store", "postgres://x", "stats")
    assert bad_store.returncode == 2 and "unsupported URI" in bad_store.stderr


def test_bad_queries_file(tmp_path):
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"id": "q1", "query": "ok"}\n{"id": "q2"}\n', encoding="utf-8")
    result = run_cli("--store", str(tmp_path / "m.db"), "search", "--queries", str(queries), "--json")
    assert result.returncode == 2
    assert "q.jsonl:2: expected an object with a non-empty string `query`" in result.stderr
    assert result.stdout == ""


def test_debug_shows_traceback(tmp_path):
    bad = tmp_path / "t.jsonl"
    bad.write_text("{", encoding="utf-8")
    result = run_cli("--debug", "--store", str(tmp_path / "m.db"), "ingest", str(bad))
    assert result.returncode != 0 and "Traceback" in result.stderr
