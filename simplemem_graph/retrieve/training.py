"""Learning the rerank weights: one logistic-regression fit, and cross-validation on feedback.

`fit_scorer` is the one fit: `bench/train_reranker.py` uses it on the dev data (the shipped
weights), `Memory.train_reranker` on a namespace's recorded feedback (the seed's 5.3:
retrain from labelled use as the memory grows more varied).

Feedback is re-featurised here, not stored with its features: each labelled search's candidate
pool is rebuilt from the store with today's recall and features, as `search` would see it at the
question's time, so a changed or new feature is trained on the same labels.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression

from simplemem_graph.config import DecayPolicy
from simplemem_graph.embedding import Embedder
from simplemem_graph.errors import InputError
from simplemem_graph.models import Feedback
from simplemem_graph.retrieve.plans import DEFAULT_PLAN, RetrievalPlan
from simplemem_graph.retrieve.rerank import DEFAULT_SCORER, FEATURES, LinearScorer, Scored
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.text import detect_lang

# Features designed so that more means more relevant: a negative learned weight for one of them
# is an artefact of the training data (on LoCoMo every question names a speaker who is in half the
# events, so entity overlap cannot separate), not something to ship. They are refitted at 0.
MONOTONE = frozenset({"dense", "dense_rank", "lexical", "entity", "time", "fused", "channels"})
# Features labels cannot teach honestly. On the dev data nothing is archived (status), nothing was
# retrieved before (access) and questions are about any time (recency). On feedback, access and
# last retrieval are read today, *after* the labelled searches touched what they showed, so they
# would leak the label. They keep their hand-set weights.
HAND_SET = frozenset({"status", "access", "recency"})
# On LoCoMo the fused rank absorbs dense and lexical similarity (they come out <= 0), but a scorer
# blind to them misranks plainly semantic questions: they keep a small floor. The value was chosen
# among {0, 0.25, 0.5} on the dev split (R@5 1.283x / 1.254x / 1.248x BM25).
FLOORS = {"dense": 0.25, "lexical": 0.25}

# The English dev data (LoCoMo: two people talking, no agent) has no agent replies, so all it can
# teach of "asked_or_replied" is that a question event is often the evidence, which put a positive
# weight on it (0.98) and lifted an agent's lists above the user's own words on LongMemEval (its
# preference question). Unlearned, the weight is 0 and the fixed discount for a question about the
# asker applies (`discount_agent_replies`).
UNLEARNED_ENGLISH = frozenset({"asked_or_replied"})

RANK_CUTOFF = 5  # R@5: the design's final list
MIN_QUERIES_PER_FOLD = 2  # fewer and one query decides a fold's gain


def fit_scorer(
    rows: Sequence[Mapping[str, float]],
    labels: Sequence[int],
    name: str,
    unlearned: frozenset[str] = frozenset(),
) -> LinearScorer:
    """Logistic regression on the learnable features (see MONOTONE, HAND_SET, FLOORS); the
    hand-set features add their default weight and the bias absorbs their mean over the rows.

    Args:
        rows: one FEATURES mapping per candidate.
        labels: 1 when the candidate is relevant, 0 when it is not; both must occur.
        name: the scorer's name.
        unlearned: features these rows cannot teach (see UNLEARNED_ENGLISH): weighed 0.

    Raises:
        InputError: no rows, or only one class.
    """
    matrix = np.asarray([[row.get(f, 0.0) for f in FEATURES] for row in rows], dtype=float)
    y = np.asarray(labels, dtype=int)
    if len(matrix) == 0 or len(set(y.tolist())) < 2:
        raise InputError("rerank training: the labels need both relevant and irrelevant candidates")
    learned = [f for f in FEATURES if f not in HAND_SET and f not in unlearned]
    # When every learnable weight is refitted away, the bias alone gives the base rate.
    coefficients: dict[str, float] = {}
    intercept = math.log(y.mean() / (1 - y.mean()))
    while learned:
        columns = [FEATURES.index(f) for f in learned]
        model = LogisticRegression(C=1.0, max_iter=2000)
        model.fit(matrix[:, columns], y)
        fitted = dict(zip(learned, model.coef_[0], strict=True))
        wrong_sign = [f for f, w in fitted.items() if f in MONOTONE and w < 0]
        if not wrong_sign:
            coefficients, intercept = fitted, float(model.intercept_[0])
            break
        learned = [f for f in learned if f not in wrong_sign]
    weights = {f: float(coefficients.get(f, 0.0)) for f in FEATURES}
    for feature, floor in FLOORS.items():
        weights[feature] = max(weights[feature], floor)
    bias = intercept
    for feature in HAND_SET:
        weights[feature] = DEFAULT_SCORER.weights.get(feature, 0.0)
        bias -= weights[feature] * float(matrix[:, FEATURES.index(feature)].mean())
    return LinearScorer(weights={f: round(w, 4) for f, w in weights.items()}, bias=round(bias, 4), name=name)


# ---- feedback -> labelled candidate pools ------------------------------------------------------------
@dataclass
class FeedbackPool:
    """One labelled search, re-featurised: every candidate today's recall finds for it.

    labels[i] is 1 for a helpful candidate, 0 for one the caller saw and did not find helpful
    (every other candidate, when the feedback did not say what was shown), None for one the caller
    never saw: it is ranked, but not learned from.
    """

    feedback: Feedback
    scored: list[Scored]
    labels: list[int | None]
    helpful_outside_pool: int = 0  # helpful ids today's recall no longer finds (deleted, outranked)

    @property
    def group(self) -> str:
        """Cross-validation keeps repeats of one question in one fold (else it is tested on itself)."""
        return " ".join(self.feedback.query.casefold().split())

    @property
    def evaluable(self) -> bool:
        return 1 in self.labels

    @property
    def lang(self) -> str:
        """The question's language: which shipped weights `search` ranked it with."""
        return detect_lang(self.feedback.query)

    def training_rows(self) -> tuple[list[dict[str, float]], list[int]]:
        kept = [(s.features, y) for s, y in zip(self.scored, self.labels, strict=True) if y is not None]
        return [f for f, _ in kept], [y for _, y in kept]


def feedback_pool(
    feedback: Feedback,
    store: GraphStore,
    *,
    embedder: Embedder,
    k: int,
    recall_k: int,
    decay: DecayPolicy = DecayPolicy(),
    plan: RetrievalPlan = DEFAULT_PLAN,
) -> FeedbackPool:
    """Rebuild a feedback's candidate pool (`gather_candidates`, as `search` asked at `feedback.at`)."""
    from simplemem_graph.retrieve import gather_candidates  # the package imports this module

    pool = gather_candidates(
        feedback.query,
        store,
        namespace=feedback.namespace,
        embedder=embedder,
        at=feedback.at,
        k=k,
        recall_k=recall_k,
        decay=decay,
        plan=plan,
    )
    scored = [
        Scored(c, pool.events[c.event_id], f, 0.0)
        for c, f in zip(pool.candidates, pool.features, strict=True)
    ]
    helpful, shown = set(feedback.helpful), None if feedback.shown is None else set(feedback.shown)
    labels: list[int | None] = []
    for item in scored:
        if item.event.id in helpful:
            labels.append(1)
        elif shown is None or item.event.id in shown:
            labels.append(0)
        else:
            labels.append(None)
    outside = len(helpful - {s.event.id for s in scored})
    return FeedbackPool(feedback, scored, labels, outside)


def rank_metrics(pool: FeedbackPool, scorer: LinearScorer) -> tuple[float, float]:
    """(MRR of the first helpful candidate, share of helpful candidates in the top RANK_CUTOFF),
    ranking the whole pool by the scorer alone, as `search` ranks before picking."""
    scores = [scorer.score(s.features) for s in pool.scored]
    # Stable sort: ties keep recall order, as in `score_candidates`.
    order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    ranks = [rank for rank, i in enumerate(order, 1) if pool.labels[i] == 1]
    if not ranks:
        return 0.0, 0.0
    return 1.0 / ranks[0], sum(r <= RANK_CUTOFF for r in ranks) / len(ranks)


# ---- cross-validation ----------------------------------------------------------------------------
@dataclass
class FoldResult:
    fold: int
    train_queries: int
    test_queries: int
    current: dict[str, float]
    retrained: dict[str, float]

    @property
    def gain(self) -> float:
        return self.retrained["mrr"] - self.current["mrr"]

    def as_dict(self) -> dict[str, Any]:
        return {
            "fold": self.fold,
            "train_queries": self.train_queries,
            "test_queries": self.test_queries,
            "current": self.current,
            "retrained": self.retrained,
            "gain_mrr": round(self.gain, 4),
        }


@dataclass
class CrossValidation:
    """Per fold: MRR and R@5 of helpful memories on held-out queries, current vs retrained weights."""

    folds: list[FoldResult] = field(default_factory=list)

    @property
    def mean_gain(self) -> float:
        return float(np.mean([f.gain for f in self.folds])) if self.folds else 0.0

    @property
    def min_gain(self) -> float:
        return min((f.gain for f in self.folds), default=0.0)

    @property
    def improves(self) -> bool:
        """Better on average *and* worse on no held-out fold: a mean lifted by one lucky fold, as
        noise labels often give, does not replace the weights in use."""
        return self.mean_gain > 0 and self.min_gain >= 0

    def as_dict(self) -> dict[str, Any]:
        def mean(side: str, metric: str) -> float:
            return round(float(np.mean([getattr(f, side)[metric] for f in self.folds])), 4)

        return {
            "folds": [f.as_dict() for f in self.folds],
            "current": {"mrr": mean("current", "mrr"), "r@5": mean("current", "r@5")},
            "retrained": {"mrr": mean("retrained", "mrr"), "r@5": mean("retrained", "r@5")},
            "gain_mrr": {"mean": round(self.mean_gain, 4), "min": round(self.min_gain, 4)},
            "improves": self.improves,
        }


def _fold_of(pools: Sequence[FeedbackPool], folds: int) -> dict[str, int]:
    """Question group -> fold: evaluable groups dealt round-robin in a fixed pseudo-random order
    (a hash of the text, so the split is the same on every run and machine), then the others."""

    def key(group: str) -> str:
        return hashlib.sha1(group.encode("utf-8")).hexdigest()

    evaluable = sorted({p.group for p in pools if p.evaluable}, key=key)
    rest = sorted({p.group for p in pools} - set(evaluable), key=key)
    return {group: i % folds for i, group in enumerate([*evaluable, *rest])}


def _metrics(pools: Sequence[FeedbackPool], scorer_for: Callable[[str], LinearScorer]) -> dict[str, float]:
    pairs = [rank_metrics(p, scorer_for(p.lang)) for p in pools]
    return {
        "mrr": round(float(np.mean([m for m, _ in pairs])), 4),
        "r@5": round(float(np.mean([r for _, r in pairs])), 4),
    }


def _rows(pools: Sequence[FeedbackPool]) -> tuple[list[dict[str, float]], list[int]]:
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    for pool in pools:
        r, y = pool.training_rows()
        rows += r
        labels += y
    return rows, labels


def check_enough(pools: Sequence[FeedbackPool], folds: int, namespace: str) -> None:
    """InputError unless k-fold cross-validation has something to stand on."""
    if folds < 2:
        raise InputError(f"train-reranker: --folds must be at least 2, got {folds}")
    usable = len({p.group for p in pools if p.evaluable})
    needed = MIN_QUERIES_PER_FOLD * folds
    if usable < needed:
        raise InputError(
            f"train-reranker: {usable} distinct labelled queries in namespace {namespace!r} whose helpful "
            f"memories recall still finds ({len(pools)} feedback records); {folds}-fold cross-validation "
            f"needs at least {needed}. Record more with `feedback`, or lower --folds."
        )
    if 0 not in _rows(pools)[1]:
        raise InputError(
            "train-reranker: every labelled candidate is helpful; feedback needs memories that were "
            "shown and did not help (give --shown, or leave it out so every recalled memory counts)"
        )


def cross_validate(
    pools: Sequence[FeedbackPool],
    current: Callable[[str], LinearScorer],
    *,
    folds: int,
    namespace: str,
) -> CrossValidation:
    """k-fold cross-validation over questions: on each fold, weights fitted on the other folds
    against the weights in use, `current(lang)` for a question in `lang` (the shipped weights
    differ by language), both scored on the fold's held-out questions.

    Raises:
        InputError: too few labelled queries for `folds` (see `check_enough`).
    """
    check_enough(pools, folds, namespace)
    fold_of = _fold_of(pools, folds)
    result = CrossValidation()
    for fold in range(folds):
        train = [p for p in pools if fold_of[p.group] != fold]
        test = [p for p in pools if fold_of[p.group] == fold and p.evaluable]
        rows, labels = _rows(train)
        if len(set(labels)) < 2:
            raise InputError(
                f"train-reranker: fold {fold + 1} of {folds} has training labels of one kind only; "
                "record more varied feedback or lower --folds"
            )
        retrained = fit_scorer(rows, labels, f"feedback-fold-{fold + 1}")

        def fitted(_lang: str, weights: LinearScorer = retrained) -> LinearScorer:
            return weights  # one set of weights for every language, as applied weights are

        result.folds.append(
            FoldResult(
                fold=fold + 1,
                train_queries=len({p.group for p in train if p.evaluable}),
                test_queries=len(test),
                current=_metrics(test, current),
                retrained=_metrics(test, fitted),
            )
        )
    return result


def fit_feedback(pools: Sequence[FeedbackPool], name: str) -> LinearScorer:
    """The weights to apply: fitted on every labelled query."""
    rows, labels = _rows(pools)
    return fit_scorer(rows, labels, name)
