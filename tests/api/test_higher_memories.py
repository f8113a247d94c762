"""Open questions and pattern memories (issue 14) through REST and the CLI, on the real pipeline."""

from __future__ import annotations

import json
import subprocess
import sys

TURNS = [
    {
        "id": "s1:1",
        "session": "s1",
        "time": "2026-04-07T10:00:00+08:00",
        "speaker": "王敏",
        "text": "需要把合同发给Quorvex",
    },
    {
        "id": "s2:1",
        "session": "s2",
        "time": "2026-04-07T11:00:00+00:00",
        "speaker": "Dana",
        "text": "We need to meet Orsk",
    },
]
REPLY = {
    "id": "s2:2",
    "session": "s2",
    "time": "2026-04-07T11:05:00+00:00",
    "speaker": "Dana",
    "text": "It will be at the Kelbury office",
}


def test_questions_route_lists_open_slots_and_a_reply_closes_one(client):
    assert client.post("/v1/namespaces/q/turns", json=TURNS).status_code == 201
    items = client.get("/v1/namespaces/q/questions").json()["items"]
    assert {(q["event"]["source_ids"][0], q["slot"]) for q in items} == {
        ("s1:1", "deadline"),
        ("s1:1", "owner"),
        ("s2:1", "time"),
        ("s2:1", "place"),
    }
    first = items[0]
    assert set(first) >= {"id", "question", "slot", "event", "source_ids"}
    assert first["slot"] == "deadline" and first["question"] == "您希望什么时候完成？"
    assert client.post("/v1/namespaces/q/turns", json=REPLY).status_code == 201
    slots = {
        (q["event"]["source_ids"][0], q["slot"])
        for q in client.get("/v1/namespaces/q/questions").json()["items"]
    }
    assert ("s2:1", "place") not in slots and ("s2:1", "time") in slots
    context = client.post("/v1/namespaces/q/context", json={"query": "meeting with Orsk"}).json()["context"]
    assert "## Open questions" in context and "When is the meeting?" in context
    assert client.get("/v1/namespaces/q/questions", params={"limit": 0}).status_code == 422


def test_patterns_route_is_empty_before_the_global_pass_and_lists_evidence_after(client):
    turns = [
        {
            "id": f"w:{i}",
            "session": "w",
            "time": f"2026-03-{2 + 7 * i:02d}T09:00:00+00:00",
            "speaker": "Dana",
            "text": "Tomas Brenner met Orsk Holdings for the weekly review",
        }
        for i in range(4)
    ]
    assert client.post("/v1/namespaces/p/turns", json=turns).status_code == 201
    assert client.get("/v1/namespaces/p/patterns").json()["items"] == []
    assert client.post("/v1/namespaces/p/consolidate").status_code == 200
    items = client.get("/v1/namespaces/p/patterns").json()["items"]
    weekday = [p for p in items if p["kind"] == "weekday"]
    assert weekday and weekday[0]["value"] == "Monday" and weekday[0]["support"] == 4
    assert sorted(e["source_ids"][0] for e in weekday[0]["evidence"]) == [f"w:{i}" for i in range(4)]


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "simplemem_graph", *args], capture_output=True, text=True, timeout=300
    )


def test_cli_questions_json_and_bad_limit(tmp_path):
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in TURNS) + "\n", encoding="utf-8")
    db = str(tmp_path / "m.db")
    assert _cli("--store", db, "ingest", str(log)).returncode == 0
    result = _cli("--store", db, "questions", "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [q["slot"] for q in lines][:1] == ["deadline"] and len(lines) == 4
    bad = _cli("--store", db, "questions", "--limit", "0", "--json")
    assert bad.returncode == 2 and "limit" in bad.stderr
    assert _cli("--store", db, "patterns", "--json").returncode == 0


REPLAY_TURNS = [
    {
        "id": "a:1",
        "session": "a",
        "time": "2026-03-02T10:00:00+00:00",
        "speaker": "Ana",
        "text": "Acme moved the kickoff to 2026-03-12",
    },
    {
        "id": "b:1",
        "session": "b",
        "time": "2026-03-10T10:00:00+00:00",
        "speaker": "Ana",
        "text": "We sent Bolt Corp the revised quote at $18,200",
    },
]
REPLAY_QUERIES = [{"id": "q1", "query": "what price did we quote Bolt Corp?", "evidence": ["b:1"]}]


def test_replay_route_reports_each_slice_for_both_configs_and_leaves_the_namespace_alone(client):
    body = {
        "turns": REPLAY_TURNS,
        "queries": REPLAY_QUERIES,
        "slices": "week",
        "compare": {"name": "wide", "recall_k": 30},
    }
    response = client.post("/v1/namespaces/r/replay", json=body)
    assert response.status_code == 200, response.text
    rows = response.json()["slices"]
    assert [(r["config"], r["slice"], r["questions"]) for r in rows] == [
        ("default", "2026-W10", 0),
        ("default", "2026-W11", 1),
        ("wide", "2026-W10", 0),
        ("wide", "2026-W11", 1),
    ]
    assert rows[1]["recall@5"] == 1.0
    assert client.get("/v1/namespaces/r/stats").json()["turns"] == 0
    assert client.post("/v1/namespaces/r/replay", json={**body, "slices": "year"}).status_code == 422


def test_cli_replay_json_and_bad_input(tmp_path):
    log, queries = tmp_path / "t.jsonl", tmp_path / "q.jsonl"
    log.write_text("\n".join(json.dumps(t) for t in REPLAY_TURNS) + "\n", encoding="utf-8")
    queries.write_text("\n".join(json.dumps(q) for q in REPLAY_QUERIES) + "\n", encoding="utf-8")
    result = _cli("replay", str(log), "--queries", str(queries), "--slices", "week", "--json")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["slice"], r["turns"], r["questions"]) for r in rows] == [
        ("2026-W10", 1, 0),
        ("2026-W11", 1, 1),
    ]
    bad = _cli("replay", str(log), "--queries", str(queries), "--slices", "year")
    assert bad.returncode == 2 and "--slices" in bad.stderr
    config = tmp_path / "c.toml"
    config.write_text("nonsense = 1\n", encoding="utf-8")
    bad = _cli("replay", str(log), "--queries", str(queries), "--compare", str(config))
    assert bad.returncode == 2 and "unknown setting" in bad.stderr
