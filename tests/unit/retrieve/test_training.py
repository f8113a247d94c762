"""The one reranker fit (`fit_scorer`, shared by bench/train_reranker.py and `train-reranker`)."""

import numpy as np
import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.retrieve.rerank import DEFAULT_SCORER, FEATURES
from simplemem_graph.retrieve.training import FLOORS, HAND_SET, fit_scorer


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
