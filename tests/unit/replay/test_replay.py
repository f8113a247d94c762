"""Replay (issue 14): slicing, log readers, configurations, and per-slice reports on a real store."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from simplemem_graph.config import Settings
from simplemem_graph.errors import ConfigError, InputError
from simplemem_graph.memory import Memory
from simplemem_graph.replay import load_config, load_replay_log, replay, slice_key
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder

TURNS = [
    {
        "id": "a:1",
        "session": "a",
        "time": "2026-03-02T10:00:00+00:00",
        "speaker": "Ana",
        "text": "Acme moved the kickoff to 2026-03-12 because their CTO is travelling",
    },
    {
        "id": "a:2",
        "session": "a",
        "time": "2026-03-03T10:00:00+00:00",
        "speaker": "Ana",
        "text": "Bolt Corp wants the revised quote by Friday",
    },
    {
        "id": "b:1",
        "session": "b",
        "time": "2026-03-10T10:00:00+00:00",
        "speaker": "Ana",
        "text": "We sent Bolt Corp the revised quote at $18,200",
    },
]
QUERIES = [
    {"id": "q1", "query": "when is the Acme kickoff?", "evidence": ["a:1"]},
    {"id": "q2", "query": "what price did we quote Bolt Corp?", "evidence": ["b:1"]},
]


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_slice_keys():
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert [slice_key(when, s) for s in ("day", "week", "month")] == ["2023-05-08", "2023-W19", "2023-05"]
    with pytest.raises(InputError, match="day"):
        slice_key(when, "year")


def test_questions_are_asked_only_once_their_evidence_is_in_the_past(tmp_path):
    log = load_replay_log(_write(tmp_path / "t.jsonl", TURNS), queries=_write(tmp_path / "q.jsonl", QUERIES))
    memory = Memory(EmbeddedStore(":memory:"), namespace="r", embedder=HashEmbedder())
    reports = [r.as_dict() for r in replay(log, memory, slices="week")]
    assert [(r["slice"], r["turns"], r["questions"]) for r in reports] == [
        ("2026-W10", 2, 1),
        ("2026-W11", 1, 2),
    ]
    assert reports[0]["events"] >= 2 and reports[1]["events"] > reports[0]["events"]
    assert set(reports[0]) == {
        "config",
        "slice",
        "turns",
        "events",
        "questions",
        "recall@5",
        "tokens@5",
        "p95_ms",
    }
    assert 0.0 <= reports[1]["recall@5"] <= 1.0 and reports[1]["tokens@5"] > 0


def test_readers_for_locomo_and_longmemeval(tmp_path):
    locomo = [
        {
            "sample_id": "conv-x",
            "qa": [
                {"question": "Where did Mel go?", "answer": "Paris", "evidence": ["D1:2"], "category": 4},
                {"question": "no evidence", "evidence": []},
            ],
            "conversation": {
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Mel", "dia_id": "D1:1", "text": "Hi!"},
                    {"speaker": "Mel", "dia_id": "D1:2", "text": "I went to Paris."},
                ],
            },
        }
    ]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(locomo), encoding="utf-8")
    log = load_replay_log(path)
    assert log.source == "locomo" and [t.id for t in log.turns] == ["D1:1", "D1:2"]
    assert [(q.query, q.evidence) for q in log.queries] == [("Where did Mel go?", ["D1:2"])]
    record = {
        "question_id": "q7",
        "question_type": "single",
        "question": "Where are my sneakers?",
        "answer": "closet",
        "question_date": "2023/06/23 (Fri) 07:31",
        "answer_session_ids": ["s1"],
        "haystack_dates": ["2023/05/30 (Tue) 10:18"],
        "haystack_session_ids": ["s1"],
        "haystack_sessions": [
            [{"role": "user", "content": "My sneakers are in the closet", "has_answer": True}]
        ],
    }
    path = tmp_path / "lme.json"
    path.write_text(json.dumps([record]), encoding="utf-8")
    log = load_replay_log(path)
    assert log.source == "longmemeval" and [(q.id, q.evidence) for q in log.queries] == [("q7", ["s1:0"])]


def test_bad_logs_and_configs_are_refused(tmp_path):
    turns = _write(tmp_path / "t.jsonl", TURNS)
    with pytest.raises(InputError, match="--queries"):
        load_replay_log(turns)
    with pytest.raises(InputError, match=":1: a query needs"):
        load_replay_log(turns, queries=_write(tmp_path / "q.jsonl", [{"id": "x"}]))
    bad = tmp_path / "c.toml"
    bad.write_text('recall_k = 10\nplan = "x"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown setting\(s\) \['plan'\]"):
        load_config(bad, Settings())
    good = tmp_path / "g.toml"
    good.write_text('name = "wide"\nrecall_k = 30\n[decay]\nfull_days = 10\n', encoding="utf-8")
    name, settings = load_config(good, Settings())
    assert (name, settings.recall_k, settings.decay.full_days, settings.final_k) == ("wide", 30, 10, 5)
