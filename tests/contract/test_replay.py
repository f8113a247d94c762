"""Replay (issue 14) on every store: a server store is replayed into scratch namespaces of its own,
which are gone afterwards; the per-slice reports are the same shape on both."""

from __future__ import annotations

from simplemem_graph.config import Settings
from simplemem_graph.models import Turn
from simplemem_graph.replay import ReplayLog, ReplayQuery, replay_scratch
from tests.contract.contract_data import T0
from tests.durability_support import HashEmbedder


def _log() -> ReplayLog:
    from datetime import timedelta

    texts = [
        ("a:1", 0, "Acme moved the kickoff to 2026-03-12 because their CTO is travelling"),
        ("a:2", 1, "Bolt Corp wants the revised quote by Friday"),
        ("b:1", 8, "We sent Bolt Corp the revised quote at $18,200"),
        ("b:2", 9, "Quinlo Freight asked for two extra pallets in Rotterdam"),
    ]
    turns = [
        Turn(id=tid, session=tid.split(":")[0], time=T0 + timedelta(days=day), speaker="Ana", text=text)
        for tid, day, text in texts
    ]
    queries = [
        ReplayQuery("q1", "when is the Acme kickoff?", ["a:1"]),
        ReplayQuery("q2", "what price did we quote Bolt Corp?", ["b:1"]),
        ReplayQuery("q3", "how many pallets did Quinlo Freight ask for?", ["b:2"]),
    ]
    return ReplayLog(turns, queries, "jsonl")


def test_replay_writes_only_scratch_namespaces_and_reports_every_slice(store, ns):
    before = set(store.namespaces())
    configs = [("default", Settings()), ("small-k", Settings(final_k=3))]
    reports = [
        r.as_dict()
        for r in replay_scratch(_log(), embedder=HashEmbedder(), configs=configs, slices="week", store=store)
    ]
    assert [(r["config"], r["turns"], r["questions"]) for r in reports] == [
        ("default", 2, 1),
        ("default", 2, 3),
        ("small-k", 2, 1),
        ("small-k", 2, 3),
    ]
    for first, second in zip(reports[0::2], reports[1::2], strict=True):
        assert second["events"] > first["events"] >= 2
        assert first["tokens@5"] > 0 and first["p95_ms"] is not None
    # The lone first-week question has a single evidence turn among two events: it must be found.
    assert reports[0]["recall@5"] == 1.0
    assert all(0.0 <= r["recall@5"] <= 1.0 for r in reports)
    assert set(store.namespaces()) == before, "replay left scratch namespaces behind"
