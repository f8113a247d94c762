"""Feedback and the namespace's reranker: labelled searches recorded, weights retrained from them
with cross-validation and kept in the store's meta, read back on every search."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from simplemem_graph.errors import (
    ConfigError,
    InputError,
)
from simplemem_graph.ingest import Ingest, _time_or_now
from simplemem_graph.models import (
    Feedback,
    GraphDelta,
    stable_id,
)
from simplemem_graph.retrieve.rerank import LinearScorer, learned_scorer

RERANKER_META_PREFIX = "reranker:"  # + namespace: weights `train-reranker --apply` wrote (store meta)
MAX_FEEDBACK_IDS = 200  # event ids per feedback list: far more than any result list


class Reranking(Ingest):
    """Feedback in, a namespace's reranker out."""

    def feedback(
        self,
        query: str,
        helpful: Sequence[str],
        shown: Sequence[str] | None = None,
        *,
        at: datetime | str | None = None,
    ) -> Feedback:
        """Record which memories helped answer `query`: labelled use for `train_reranker`.

        Args:
            query: the question as it was searched.
            helpful: ids of the events that helped the answer (may be empty when `shown` is given:
                nothing shown helped).
            shown: ids of the events the caller saw (e.g. the search results); the shown ones not
                in `helpful` are the negatives. None: every memory recall finds for the query counts
                as seen.
            at: when the question was asked, as passed to `search` (default now); naive is UTC.

        Returns:
            The recorded `Feedback`. Recording the same feedback twice keeps one record.

        Raises:
            InputError: an empty query, no ids at all, or an id that is not an event of this
                namespace (then nothing is written).
        """
        if not isinstance(query, str) or not query.strip():
            raise InputError("feedback: `query` must be a non-empty string")
        helpful_ids = _feedback_ids(helpful, "helpful")
        shown_ids = None if shown is None else _feedback_ids(shown, "shown")
        if not helpful_ids and not shown_ids:
            raise InputError("feedback: give the helpful event ids (or the shown ones, when none helped)")
        at = _time_or_now(at, "feedback: `at`")
        record = Feedback(
            id=stable_id(
                "fb",
                self.namespace,
                query,
                at.isoformat(),
                ",".join(helpful_ids),
                "\x00" if shown_ids is None else ",".join(shown_ids),
            ),
            namespace=self.namespace,
            query=query,
            at=at,
            helpful=helpful_ids,
            shown=shown_ids,
        )
        self.store.apply_delta(GraphDelta(namespace=self.namespace, feedback=[record]))
        return record

    @property
    def _reranker_key(self) -> str:
        return RERANKER_META_PREFIX + self.namespace

    def _stored_reranker(self) -> LinearScorer | None:
        """The weights `train_reranker` applied to this namespace, or None (the shipped ones).

        Read on every search (one key lookup), so weights applied by another process, e.g. the
        CLI while the server runs, take effect on the next search."""
        raw = self.store.get_meta(self._reranker_key)
        return None if raw is None else _scorer_from_meta(raw, self._reranker_key)

    def reranker(self, lang: str = "en") -> tuple[LinearScorer, str]:
        """The reranker `search` uses here for a question in `lang` and where it comes from: "store"
        (trained on this namespace's feedback, for every language) or "shipped" (the package's
        weights for that language)."""
        stored = self._stored_reranker()
        return (stored, "store") if stored is not None else (learned_scorer(lang), "shipped")

    def train_reranker(self, *, folds: int = 5, apply: bool = False) -> dict[str, Any]:
        """Retrain the reranker from this namespace's feedback, with k-fold cross-validation.

        Each feedback's candidate pool is rebuilt from the store as `search` would see it at the
        question's time, with today's features. On each fold, weights fitted on the other folds
        are compared with the weights in use on the fold's held-out questions (MRR of the first
        helpful memory, R@5 of helpful memories). With `apply`, weights fitted on all feedback
        replace the ones in use (in the store's meta, for this namespace) only when they are better
        on average and worse on no fold.

        Returns:
            The report: `train-reranker --json`.

        Raises:
            InputError: too few labelled queries for `folds`, or labels of one kind only.
        """
        from simplemem_graph.retrieve.training import cross_validate, feedback_pool, fit_feedback

        records = self.store.feedback(self.namespace)
        final_k = self.settings.final_k
        pools = [
            feedback_pool(
                record,
                self.store,
                embedder=self.embedder,
                k=final_k,
                recall_k=max(self.settings.recall_k, 3 * final_k),
                decay=self.settings.decay_for(self.namespace),
            )
            for record in records
        ]
        # the weights search used, per question: the shipped ones differ by language
        validation = cross_validate(
            pools, lambda lang: self.reranker(lang)[0], folds=folds, namespace=self.namespace
        )
        spoken = Counter(p.lang for p in pools).most_common(1)
        current, source = self.reranker(spoken[0][0] if spoken else "en")
        name = f"feedback-{self.namespace}"
        retrained = fit_feedback(pools, name)
        applied = bool(apply and validation.improves)
        if applied:
            self.store.apply_delta(
                GraphDelta(
                    namespace=self.namespace,
                    meta={
                        self._reranker_key: json.dumps(
                            {
                                "name": name,
                                "weights": retrained.weights,
                                "bias": retrained.bias,
                                "trained_at": datetime.now(UTC).isoformat(),
                                "feedback": len(records),
                                "folds": folds,
                                "cv_gain_mrr": round(validation.mean_gain, 4),
                            }
                        )
                    },
                )
            )
        return {
            "namespace": self.namespace,
            "feedback": len(records),
            "queries": sum(p.evaluable for p in pools),
            "helpful_outside_pool": sum(p.helpful_outside_pool for p in pools),
            "metric": "mrr",
            "current_source": source,
            **validation.as_dict(),  # per fold and mean: "current" / "retrained" MRR and R@5
            "current_weights": {"name": current.name, "weights": dict(current.weights), "bias": current.bias},
            "retrained_weights": {
                "name": retrained.name,
                "weights": dict(retrained.weights),
                "bias": retrained.bias,
            },
            "applied": applied,
        }

    def reset_reranker(self) -> bool:
        """Drop this namespace's trained weights (search goes back to the shipped ones); True when
        there were some."""
        had = self.store.get_meta(self._reranker_key) is not None
        self.store.apply_delta(GraphDelta(namespace=self.namespace, deleted_meta=[self._reranker_key]))
        return had


def _feedback_ids(ids: Sequence[str] | None, name: str) -> list[str]:
    """Validated, de-duplicated event ids (order kept)."""
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise InputError(f"feedback: `{name}` must be a list of event ids, got {type(ids).__name__}")
    if len(ids) > MAX_FEEDBACK_IDS:
        raise InputError(f"feedback: at most {MAX_FEEDBACK_IDS} `{name}` ids, got {len(ids)}")
    bad = [i for i in ids if not isinstance(i, str) or not i.strip()]
    if bad:
        raise InputError(f"feedback: `{name}` ids must be non-empty strings, got {bad[:5]}")
    return list(dict.fromkeys(ids))


@functools.lru_cache(maxsize=64)
def _scorer_from_meta(raw: str, key: str) -> LinearScorer:
    """Parsed once per distinct stored value: searches do not re-parse the JSON."""
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ConfigError(
            f"reranker: the weights stored under {key!r} are not JSON ({e}); "
            "`train-reranker --reset` removes them"
        ) from e
    return LinearScorer.from_dict(data, where=f"store meta {key!r}")
