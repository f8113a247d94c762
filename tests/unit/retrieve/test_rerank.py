"""Rerank features, the decay schedule, the linear scorer and the diverse selection."""

import json
from datetime import timedelta

import numpy as np
import pytest

from simplemem_graph.config import DecayPolicy
from simplemem_graph.errors import ConfigError
from simplemem_graph.retrieve import fill_budget
from simplemem_graph.retrieve.query import QueryAnalysis
from simplemem_graph.retrieve.recall import Candidate
from simplemem_graph.retrieve.rerank import (
    DEFAULT_SCORER,
    FEATURES,
    LinearScorer,
    Scored,
    bm25_scores,
    compute_features,
    learned_scorer,
    score_candidates,
    select_diverse,
)
from simplemem_graph.retrieve.timerange import parse_time_range
from simplemem_graph.text import count_tokens

from .conftest import AT, ENTITIES, make_events


@pytest.fixture(scope="module")
def events(embedder):
    return {e.id: e for e in make_events(embedder)}


def features_for(events, embedder, query, candidates, at=AT, entities=(), decay=DecayPolicy()):
    analysis = QueryAnalysis(
        query=query,
        lang="en",
        tokens=query.lower().replace("?", "").split(),
        entities=list(entities),
        time_range=parse_time_range(query, at),
    )
    vector = embedder.encode([query])[0]
    return compute_features(candidates, events, analysis, vector, at=at, decay=decay)


def test_decay_schedule():
    decay = DecayPolicy()
    assert decay.weight(0) == decay.weight(30) == 1.0
    assert decay.weight(60) == pytest.approx(0.65)
    assert decay.weight(90) == decay.weight(400) == 0.3


def test_features_are_in_unit_range_and_named(events, embedder):
    candidates = [Candidate(i, ranks={"vector": n}, fused=1 / (61 + n)) for n, i in enumerate(events)]
    rows = features_for(events, embedder, "Globex bracket price last week?", candidates)
    for row in rows:
        assert set(row) == set(FEATURES)
        assert all(0.0 <= value <= 1.0 + 1e-6 for value in row.values()), row


def test_dense_rank_is_the_candidates_place_by_meaning_in_the_pool(events, embedder):
    """1 for the candidate nearest the question, 1/2 for the next...: the order of the cosines,
    which a model whose cosines all sit in a narrow band still separates."""
    candidates = [Candidate(i) for i in events]
    rows = features_for(events, embedder, "Globex bracket price", candidates)
    by_cosine = sorted(range(len(rows)), key=lambda i: -rows[i]["dense"])
    assert [rows[i]["dense_rank"] for i in by_cosine] == [1 / (1 + n) for n in range(len(rows))]
    assert rows[by_cosine[0]]["dense"] > rows[by_cosine[-1]]["dense"]


def test_recency_follows_the_decay_policy(events, embedder):
    candidates = [Candidate("standup"), Candidate("price_new"), Candidate("lunch"), Candidate("price_old")]
    rows = features_for(events, embedder, "what happened", candidates)
    recency = [row["recency"] for row in rows]
    # ages at AT: 7 days, 19 days, 65 days, 161 days
    assert recency[0] == recency[1] == 1.0
    assert recency[2] == pytest.approx(
        DecayPolicy().weight((AT - events["lunch"].time).total_seconds() / 86400)
    )
    assert recency[3] == 0.3
    # A stricter namespace policy decays sooner.
    strict = features_for(events, embedder, "what happened", candidates, decay=DecayPolicy(full_days=5))
    assert strict[0]["recency"] < 1.0


def test_a_recent_retrieval_refreshes_recency(events, embedder):
    old = events["lunch"]
    touched = {"lunch": old.model_copy(update={"last_accessed": AT - timedelta(days=1), "access_count": 4})}
    (fresh,) = features_for(touched, embedder, "lunch", [Candidate("lunch")])
    (stale,) = features_for(events, embedder, "lunch", [Candidate("lunch")])
    assert fresh["recency"] == 1.0 > stale["recency"]
    assert fresh["access"] > stale["access"] == 0.0


def test_entity_time_graph_and_status_features(events, embedder):
    acme = next(e for e in ENTITIES if e.name == "Acme Corp")
    candidates = [Candidate("kickoff"), Candidate("invoice", distance=2), Candidate("price_old")]
    kickoff, invoice, price_old = features_for(
        events, embedder, "what did Acme do last week?", candidates, entities=[acme]
    )
    assert kickoff["entity"] == 1.0 and invoice["entity"] == 0.0
    assert kickoff["time"] == 1.0 and invoice["time"] == 0.0  # last week = 2026-03-02..08
    assert kickoff["graph"] == 1.0 and invoice["graph"] == pytest.approx(1 / 3)
    assert kickoff["status"] == 1.0 and price_old["status"] == 0.0


def test_dense_and_lexical_features_prefer_the_matching_event(events, embedder):
    rows = features_for(events, embedder, "invoice INV-4471 paid", [Candidate("invoice"), Candidate("lunch")])
    assert rows[0]["dense"] > rows[1]["dense"]
    assert rows[0]["lexical"] == 1.0 and rows[1]["lexical"] == 0.0


def test_bm25_prefers_rare_terms():
    docs = [["price", "bracket"], ["price", "invoice"], ["price", "lunch"]]
    scores = bm25_scores(["price", "invoice"], docs)
    assert scores[1] > scores[0] == scores[2] > 0


def test_scorer_orders_by_weighted_features(events, embedder):
    candidates = [
        Candidate("lunch", ranks={"vector": 1}, fused=0.01),
        Candidate("invoice", ranks={"vector": 0}, fused=0.02),
    ]
    rows = features_for(events, embedder, "Who did Ana have lunch with?", candidates)
    scored = score_candidates(candidates, events, rows, DEFAULT_SCORER, query="Who did Ana have lunch with?")
    assert [s.event.id for s in scored] == ["lunch", "invoice"]
    assert 0.0 < scored[1].score < scored[0].score < 1.0


def test_scorer_weights_are_monotone():
    base = dict.fromkeys(FEATURES, 0.5)
    for feature, weight in DEFAULT_SCORER.weights.items():
        higher = {**base, feature: 1.0}
        assert (DEFAULT_SCORER.score(higher) > DEFAULT_SCORER.score(base)) == (weight > 0), feature


def test_scorer_from_json_roundtrip_and_errors(tmp_path):
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"weights": {"dense": 2.0}, "bias": -1.0, "name": "tiny"}))
    scorer = LinearScorer.from_json(path)
    assert scorer.score({"dense": 0.5}) == pytest.approx(0.5)
    path.write_text(json.dumps({"weights": {"colour": 1.0}, "bias": 0}))
    with pytest.raises(ConfigError, match="colour"):
        LinearScorer.from_json(path)
    with pytest.raises(ConfigError, match="cannot read"):
        LinearScorer.from_json(tmp_path / "missing.json")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_shipped_learned_model_loads(lang):
    scorer = learned_scorer(lang)
    assert set(scorer.weights) <= set(FEATURES) and scorer.weights["dense"] > 0


def _scored(events, event_id, score, sources=None):
    event = events[event_id]
    if sources is not None:
        event = event.model_copy(update={"source_ids": sources})
    return Scored(Candidate(event_id), event, {}, score)


def test_select_skips_results_whose_sources_are_covered(events):
    ranked = [
        _scored(events, "kickoff", 0.9, ["t1", "t2"]),
        _scored(events, "cto", 0.8, ["t2"]),  # nothing new
        _scored(events, "lunch", 0.7, ["t3"]),
    ]
    assert [s.event.id for s in select_diverse(ranked, 2)] == ["kickoff", "lunch"]
    assert [s.event.id for s in select_diverse(ranked, 2, dedup_sources=False)] == ["kickoff", "cto"]


def test_mmr_trades_score_for_diversity(events):
    twin = events["price_new"].model_copy(update={"id": "twin", "source_ids": ["x"]})
    ranked = [
        _scored(events, "price_new", 0.9),
        Scored(Candidate("twin"), twin, {}, 0.85),  # same embedding as price_new
        _scored(events, "lunch", 0.6),
    ]
    assert [s.event.id for s in select_diverse(ranked, 2)] == ["price_new", "twin"]
    assert np.isclose(np.dot(twin.embedding, events["price_new"].embedding), 1.0, atol=1e-4)
    # The penalty is lambda x cosine to what is picked, on the model's own scale: lunch overtakes
    # the twin once lambda x (1 - cos(lunch, price_new)) outweighs their score gap (0.25).
    cos = float(np.dot(events["lunch"].embedding, events["price_new"].embedding))
    even = 0.25 / (1 - cos)
    assert [s.event.id for s in select_diverse(ranked, 2, mmr_lambda=even * 1.1)] == ["price_new", "lunch"]
    assert [s.event.id for s in select_diverse(ranked, 2, mmr_lambda=even * 0.9)] == ["price_new", "twin"]


def test_a_budget_spends_no_tokens_on_a_memory_that_adds_no_new_word(events):
    echo = events["price_new"].model_copy(
        update={"id": "echo", "text": events["price_new"].text.rstrip("."), "source_ids": ["y"]}
    )
    ranked = [
        _scored(events, "price_new", 0.9),
        Scored(Candidate("echo"), echo, {}, 0.85),  # the same words again: an echo
        _scored(events, "lunch", 0.6),
    ]
    # Room for the best memory and one more: without the echo rule the echo would take it.
    room = count_tokens(events["price_new"].text) + count_tokens(echo.text)
    assert count_tokens(events["lunch"].text) <= count_tokens(echo.text)
    assert [s.event.id for s in fill_budget(ranked, room)] == ["price_new", "lunch"]


def _long_memory(events, event_id: str, text: str):
    return events["price_new"].model_copy(update={"id": event_id, "text": text, "source_ids": [event_id]})


def test_a_confident_memory_too_long_for_the_budget_shows_its_clauses_about_the_question(events):
    first = events["price_new"]
    long = _long_memory(
        events,
        "long",
        "Anneke had not been to the cinema for months, the tickets cost too much. "
        "As for thrillers, she recommended Silent Hill and The Grudge, both classics. "
        "She will go again in the spring.",
    )
    ranked = [_scored(events, "price_new", 0.9), Scored(Candidate("long"), long, {}, 0.8)]
    budget = count_tokens(first.text) + 20
    shown = fill_budget(ranked, budget, "Which thrillers did she recommend?")
    assert [s.event.id for s in shown] == ["price_new", "long"]
    part = shown[1].event.text
    assert "Silent Hill and The Grudge" in part and part.startswith("…") and part.endswith("…")
    assert "cinema" not in part
    assert shown[1].candidate.path[-1] == f"cut to fit ({budget} tokens)"
    assert sum(count_tokens(s.event.text) for s in shown) <= budget
    assert long.text.startswith("Anneke")  # the stored memory is untouched


def test_a_weak_memory_too_long_for_the_budget_is_skipped_for_a_shorter_one(events):
    long = _long_memory(
        events, "long", "Tickets, popcorn, parking and a late bus home: the evening cost a lot. " * 2
    )
    ranked = [
        _scored(events, "price_new", 0.9),
        Scored(Candidate("long"), long, {}, 0.3),  # below half the best score: not worth a cut
        _scored(events, "lunch", 0.2),
    ]
    budget = count_tokens(events["price_new"].text) + count_tokens(events["lunch"].text) + 2
    assert [s.event.id for s in fill_budget(ranked, budget, "evening cost")] == ["price_new", "lunch"]
