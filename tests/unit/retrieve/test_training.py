"""The one reranker fit (`fit_scorer`, shared by bench/train_reranker.py and `train-reranker`)."""

import numpy as np
import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.retrieve.rerank import DEFAULT_SCORER, FEATURES
from simplemem_graph.retrieve.training import FLOORS, HAND_SET, UNLEARNED_ENGLISH, fit_scorer


def _rows(seed: int = 3, n: int = 400):
    rng = np.random.default_rng(seed)
    rows = [{f: float(rng.random()) for f in FEATURES} for _ in range(n)]
    # `time` predicts the label; `entity` predicts its opposite (a monotone feature must not
    # learn that); everything else is noise.
    labels = [int(r["time"] > 0.5 and r["entity"] < 0.6) for r in rows]
    return rows, labels


def test_the_predictive_feature_is_learned_and_a_wrong_sign_is_refitted_at_zero():
    rows, labels = _rows()
    scorer = fit_scorer(rows, labels, "t")
    assert scorer.weights["time"] > 2.0
    assert scorer.weights["entity"] == 0.0  # monotone: refitted away, never negative
    for feature, floor in FLOORS.items():
        assert scorer.weights[feature] >= floor
    for feature in HAND_SET:
        assert scorer.weights[feature] == DEFAULT_SCORER.weights[feature]
    assert set(scorer.weights) == set(FEATURES) and scorer.name == "t"
    positives = [scorer.score(r) for r, y in zip(rows, labels, strict=True) if y]
    negatives = [scorer.score(r) for r, y in zip(rows, labels, strict=True) if not y]
    assert np.mean(positives) > np.mean(negatives) + 0.2


def test_labels_of_one_kind_are_an_input_error():
    rows, _ = _rows(n=10)
    with pytest.raises(InputError, match="both relevant and irrelevant"):
        fit_scorer(rows, [1] * 10, "t")
    with pytest.raises(InputError):
        fit_scorer([], [], "t")


def test_cross_validation_scores_each_question_with_the_weights_search_used_for_its_language():
    """The shipped weights differ by language: a Chinese question's "current" ranking is the
    Chinese weights', an English one's the English weights'; retrained weights serve both."""
    from datetime import UTC, datetime

    from simplemem_graph.models import Event, Feedback
    from simplemem_graph.retrieve.recall import Candidate
    from simplemem_graph.retrieve.rerank import LinearScorer, Scored
    from simplemem_graph.retrieve.training import FeedbackPool, cross_validate

    at = datetime(2026, 5, 1, tzinfo=UTC)
    rng = np.random.default_rng(5)
    pools = []
    for n in range(12):
        query = f"我的第{n}个问题是什么？" if n % 2 else f"What is question {n}?"
        scored = []
        for i in range(6):
            event = Event(id=f"e{n}-{i}", text="x", source_ids=[f"t{i}"], session="s", speaker="u", time=at)
            features = {f: float(rng.random()) for f in FEATURES} | {"time": float(i == 0)}
            scored.append(Scored(Candidate(event.id), event, features, 0.0))
        feedback = Feedback(id=f"f{n}", query=query, at=at, helpful=[f"e{n}-0"])
        pools.append(FeedbackPool(feedback, scored, [1, 0, 0, 0, 0, 0]))
    asked: list[str] = []
    by_time = LinearScorer(weights={"time": 5.0})  # ranks the helpful memory first
    against = LinearScorer(weights={"time": -5.0})  # ranks it last

    def current(lang: str) -> LinearScorer:
        asked.append(lang)
        return by_time if lang == "zh" else against

    result = cross_validate(pools, current, folds=2, namespace="u").as_dict()
    assert set(asked) == {"zh", "en"} and asked.count("zh") == asked.count("en") == 6
    # the Chinese questions rank the helpful memory first (MRR 1), the English ones last (1/6)
    for fold in result["folds"]:
        assert 1 / 6 < fold["current"]["mrr"] < 1
    assert result["retrained"]["mrr"] == 1.0


def test_an_unlearned_feature_weighs_nothing_and_the_english_fit_leaves_asked_or_replied_out():
    """LoCoMo has no agent replies: what "asked_or_replied" would learn there (a question event is
    often the evidence) lifted an agent's lists over the user's own words on LongMemEval."""
    rows = [{"dense": 0.9 - 0.1 * (i % 3), "asked_or_replied": float(i % 2)} for i in range(40)]
    labels = [i % 2 for i in range(40)]  # the feature alone predicts the label
    assert fit_scorer(rows, labels, "all").weights["asked_or_replied"] > 0
    unlearned = fit_scorer(rows, labels, "en", UNLEARNED_ENGLISH)
    assert unlearned.weights["asked_or_replied"] == 0.0
    assert "asked_or_replied" in UNLEARNED_ENGLISH
