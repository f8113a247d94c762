"""Stage 3, retrieval: a question in, the 3-5 memories that matter out, each with the path that
found it.

    query analysis -> recall (vector + fulltext + entity, fused) -> association-chain completion
    -> rerank (light features, linear scorer) -> diverse top k -> context pack

`retrieve` only reads the store; `Memory.search` records the access afterwards (refresh).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from simplemem_graph.config import DecayPolicy
from simplemem_graph.embedding import Embedder, encode_passages_cached, encode_query
from simplemem_graph.errors import ConfigError, InputError
from simplemem_graph.models import DEFAULT_STATUSES, Event, EventStatus, Hit, Link, LinkKind, Pattern
from simplemem_graph.retrieve.context import build_context
from simplemem_graph.retrieve.expand import ExpandStep, attach_context, expand_candidates, neighbouring_turn
from simplemem_graph.retrieve.plans import (
    DEFAULT_PLAN,
    EXPAND_2HOP_RRF,
    HAND_WEIGHTS,
    PLANS,
    RECALL_ONLY,
    RetrievalPlan,
)
from simplemem_graph.retrieve.query import QueryAnalysis, analyze_query, event_in_range
from simplemem_graph.retrieve.recall import Candidate, RecallFilter, fuse_rrf, recall_candidates
from simplemem_graph.retrieve.rerank import (
    DEFAULT_SCORER,
    LinearScorer,
    Scored,
    compute_features,
    discount_agent_replies,
    is_agent_reply,
    is_question,
    learned_scorer,
    score_candidates,
    select_diverse,
)
from simplemem_graph.retrieve.timerange import TimeRange, parse_time_range
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, SessionChains, Subgraph, TextQuery
from simplemem_graph.text import clause_window, count_tokens, detect_lang, token_prefix, tokenize

__all__ = [
    "DEFAULT_PLAN",
    "EXPAND_2HOP_RRF",
    "HAND_WEIGHTS",
    "PLANS",
    "RECALL_ONLY",
    "CandidatePool",
    "ExpandStep",
    "QueryAnalysis",
    "RetrievalPlan",
    "RetrievalResult",
    "TimeRange",
    "analyze_query",
    "build_context",
    "fuse_rrf",
    "gather_candidates",
    "parse_time_range",
    "retrieve",
]

_ARCHIVED_STATUSES = (EventStatus.ARCHIVED, EventStatus.SUPERSEDED)
_MIN_MEMORY_TOKENS = 10  # sizing the candidate list for a token budget
_MAX_BUDGET_RECALL = 60


_Picked = TypeVar("_Picked", Scored, Hit)


def fill_budget(
    chosen: Sequence[_Picked],
    budget: int,
    query: str = "",
    cut_share: float = DEFAULT_PLAN.budget_context_share,
    *,
    dated: bool = False,
) -> list[_Picked]:
    """The picked memories, best first, while they fit in `budget` tokens of text, each spending
    tokens only on something new: a memory whose words were all shown already (an echo, a second
    restatement of the same fact) is left out. The first confident memory (scoring at least
    `cut_share` of the best) too long for what is left is cut to its whole clauses that fit and
    hold most of the query's words (marked "…", its path saying so: the full text is one `get`
    away), when at least `_MIN_CUT_ROOM` tokens are left; any other memory too long is skipped so
    that a shorter later one may still fit. A confident pick's part about what was asked usually
    carries more of the answer than a weaker memory shown whole; a weak pick's part does not
    (MemoryBank-cn dev, docs/retrieval.md). With `dated` (a question asking when), each memory
    opens with the day it was said (`_dated`), paid for from the budget, a cut one too."""
    terms = set(tokenize(query))
    floor = cut_share * chosen[0].score if chosen else 0.0
    kept, used, shown, cut_once = [], 0, set(), False
    for item in chosen:
        label = _day_label(item) if dated else ""
        cost = count_tokens(label + item.event.text)
        words = set(tokenize(item.event.text))
        if words and words <= shown:
            continue
        if used + cost > budget:
            room = budget - used - count_tokens(label)
            cuttable = not cut_once and room >= _MIN_CUT_ROOM and item.score >= floor
            part = clause_window(item.event.text, room, terms) if cuttable else ""
            if not part or set(tokenize(part)) <= shown:
                continue
            cut_once = True
            item = _cut(item, part, f"cut to fit ({budget} tokens)")
            cost = count_tokens(label + part)
            words = set(tokenize(part))
        kept.append(_dated(item, label))
        used += cost
        shown |= words
    return kept


def _cut(item: _Picked, text: str, step: str) -> _Picked:
    """`item` showing `text` in place of its memory's text (a part of it, or it dated), `step`
    added to its path."""
    event = item.event.model_copy(update={"text": text})
    if isinstance(item, Hit):
        return item.model_copy(update={"event": event, "path": [*item.path, step]})
    return Scored(
        replace(item.candidate, path=[*item.candidate.path, step]), event, item.features, item.score
    )


def _day_label(item: _Picked) -> str:
    """ "[2023-05-06] ", the day `item` was said, or "" when its text names that day already.

    Asked "when", the day of a memory is often the answer ("我是哪天说要去准备骑行的？"), and a
    restatement names a day only when its turn did ("今天", "last Friday"). A memory naming another
    day is dated too: LoCoMo's answers count from the day something was said ("the week before 9
    June 2023"); dating only the memories that name no day lost 0.026 of answer coverage on LoCoMo
    conv-30 at 100 tokens (0.595 -> 0.569)."""
    day = item.event.time.date().isoformat()
    return "" if day in item.event.text else f"[{day}] "


def _dated(item: _Picked, label: str) -> _Picked:
    """`item` opening with `label` (`_day_label`); the label is part of the text so that a token
    budget pays for it, and `context.format_memory` does not repeat it."""
    if not label:
        return item
    return _cut(item, label + item.event.text, "dated: the question asks when")


# Tokens left below which a memory is skipped rather than cut: a clause or two of a restatement.
_MIN_CUT_ROOM = 8


@dataclass
class RetrievalResult:
    """The answer to one query: hits best first, timing, and the query analysis behind it."""

    query: str
    hits: list[Hit]
    took_ms: float
    context_tokens: int
    analysis: QueryAnalysis
    plan: str = DEFAULT_PLAN.name
    patterns: list[Pattern] = field(default_factory=list)  # regularities above the hits
    tiers: list[str] = field(default_factory=list)  # the tiers the vector channel read (hot first)

    def as_dict(self, id: str | None = None) -> dict[str, Any]:
        """The `search --json` object of FORMATS.md, plus the query analysis and plan name."""
        return {
            "id": id,
            "query": self.query,
            "took_ms": round(self.took_ms, 2),
            "results": [h.public_dict() for h in self.hits],
            "context_tokens": self.context_tokens,
            "analysis": self.analysis.as_dict(),
            "plan": self.plan,
            "patterns": [p.public_dict() for p in self.patterns],
        }


@dataclass
class CandidatePool:
    """Everything recall and expansion found for one query, before scoring."""

    analysis: QueryAnalysis
    candidates: list[Candidate]
    events: dict[str, Event]
    features: list[dict[str, float]]
    range_fallback: bool = False  # too little inside the asked range: recalled without it too
    tiers: list[str] = field(default_factory=list)  # the tiers the vector channel read
    supersedes: list[Link] = field(default_factory=list)  # SUPERSEDES links between pool events


def _statuses(include_archived: bool) -> tuple[str, ...]:
    return (*DEFAULT_STATUSES, *_ARCHIVED_STATUSES) if include_archived else DEFAULT_STATUSES


def _scorer(plan: RetrievalPlan, lang: str) -> LinearScorer | None:
    if plan.scorer == "learned":
        return learned_scorer(lang)
    if plan.scorer == "default":
        return DEFAULT_SCORER
    if plan.scorer == "rrf":
        return None
    raise ConfigError(
        f"retrieve: plan {plan.name!r} has unknown scorer {plan.scorer!r}; use learned, default or rrf"
    )


def _anchor_lookup(store: GraphStore, namespace: str, statuses: Sequence[str]):
    """`phrase -> date` of the best lexical match, for "before the launch"."""

    def lookup(phrase: str) -> date | None:
        hits = store.text_search(namespace, TextQuery(phrase, 1, filter=RecallFilter(statuses=statuses)))
        events = store.events(namespace, EventQuery(ids=[h.id for h in hits]))
        return events[0].time.date() if events else None

    return lookup


def gather_candidates(
    query: str,
    store: GraphStore,
    *,
    namespace: str,
    embedder: Embedder,
    at: datetime,
    k: int = 5,
    recall_k: int = 15,
    include_archived: bool = False,
    session: str | None = None,
    decay: DecayPolicy = DecayPolicy(),
    plan: RetrievalPlan = DEFAULT_PLAN,
) -> CandidatePool:
    """Query analysis, recall, fusion and expansion, with rerank features: all but the ranking.

    `retrieve` scores this pool; `bench/train_reranker.py` learns weights from it. Arguments are
    those of `retrieve`.
    """
    statuses = _statuses(include_archived)
    analysis = analyze_query(
        query,
        store,
        namespace=namespace,
        at=at,
        session=session,
        anchor_lookup=_anchor_lookup(store, namespace, statuses),
    )
    vector = encode_query(embedder, [query])[0]
    time_range = analysis.time_range
    where = RecallFilter(
        statuses, time_range.start if time_range else None, time_range.end if time_range else None
    )

    tiers: list[str] = []
    turn_memories: dict[str, Event] = {}  # verbatim memories of hit turns that made no event
    weights = (
        plan.zh_channel_weights
        if plan.zh_channel_weights and detect_lang(query) == "zh"
        else plan.channel_weights
    )

    def recall(filter_: RecallFilter) -> list[Candidate]:
        searched: list[str] = []
        found = recall_candidates(
            store,
            namespace,
            # The lexical channels search the question's content words: its grammar matches chat.
            query=analysis.content or query,
            vector=vector,
            entities=analysis.all_entities,
            k=recall_k,
            where=filter_,
            channels=plan.channels,
            rrf_k=plan.rrf_k,
            weights=weights or None,
            hot_first=plan.hot_first,
            cold_evidence_top=plan.cold_evidence_top,
            searched_tiers=searched,
            turn_memories=turn_memories,
        )
        tiers.extend(t for t in searched if t not in tiers)
        return found

    candidates = recall(where)
    range_filtered = time_range is not None
    range_fallback = False
    if time_range is not None and plan.time_fallback and (len(candidates) < k or time_range.named_only):
        # Too little inside the range (or the range was misread): recall without it and let the
        # time feature prefer what is inside. A `named_only` range always: the store's filter
        # also lets in what was merely said on those days.
        seen = {c.event_id for c in candidates}
        candidates += [c for c in recall(where.unbounded()) if c.event_id not in seen]
        range_filtered = False
        range_fallback = True
    if plan.expand:
        candidates += expand_candidates(
            store, namespace, candidates, plan.expand, seeds=plan.expand_seeds, statuses=statuses
        )
    # The pool's events and which of them SUPERSEDES which (for _with_earlier_value), in one call.
    found, supersedes = store.walk(
        namespace, Subgraph([c.event_id for c in candidates], [LinkKind.SUPERSEDES])
    )
    events = {e.id: e for e in found}
    events.update((i, m) for i, m in turn_memories.items() if i not in events)
    candidates = [c for c in candidates if c.event_id in events]
    if range_filtered:
        # Walks ignore dates; keep the range the question asked for.
        candidates = [
            c for c in candidates if c.distance == 0 or event_in_range(events[c.event_id], time_range)
        ]
    _fill_missing_embeddings(events, embedder, query)
    features = compute_features(candidates, events, analysis, vector, at=at, decay=decay)
    return CandidatePool(analysis, candidates, events, features, range_fallback, tiers, supersedes)


# Atoms that carry a fact (a negation or a condition alone does not make two memories the same).
_ECHO_KINDS = frozenset(
    {"date", "time", "money", "quantity", "number", "duration", "person", "org", "place", "product"}
)


def _fact_atoms(event: Event) -> set[tuple[str, str]]:
    return {(a.kind, a.value) for a in event.atoms if a.kind in _ECHO_KINDS}


def _repeats(later: Event, earlier: Event) -> bool:
    """`later` only repeats what another speaker said in `earlier`, earlier in the same session."""
    atoms = _fact_atoms(later)
    return (
        bool(atoms)
        and later.speaker != earlier.speaker
        and later.session == earlier.session
        and earlier.time <= later.time
        and atoms <= _fact_atoms(earlier)
    )


def _echoed_whole(echo: Event, said: Event) -> bool:
    """`echo` repeats `said`, and `said` holds nothing more: each of its atoms is one of the echo's
    or written in the echo's text (stage 1 may tag a name in one and not the other)."""
    if not _repeats(echo, said):
        return False
    theirs, text = _fact_atoms(echo), echo.text.casefold()
    return all(atom in theirs or atom[1].casefold() in text for atom in _fact_atoms(said))


def _without_echoes(scored: Sequence[Scored]) -> list[Scored]:
    """One slot per fact: of a memory and its echo (the assistant confirming "Noted: Atlas migration
    for Brightwave, due April 30" after the user said it), the better-ranked one keeps its slot and
    names the other in its path ("echo <id>"); the other takes no second slot, unless it says more
    than the better-ranked echo of it."""
    kept: list[Scored] = []
    for item in scored:
        # Not a memory that holds more than the echo ranked above it ("谢谢你跟我分享这一部电影"
        # above "是一部叫做《摔跤吧！爸爸》的电影"): the name would be lost.
        twin = next(
            (k for k in kept if _repeats(item.event, k.event) or _echoed_whole(k.event, item.event)), None
        )
        if twin is None:
            kept.append(item)
        else:
            twin.candidate.path = [*twin.candidate.path, f"echo {item.event.id}"]
    return kept


def _with_earlier_value(
    chosen: list[Scored], scored: Sequence[Scored], supersedes: Sequence[Link], k: int
) -> list[Scored]:
    """The best memory's earlier value right after it, when the history walk brought it in:
    "取快递改到5月22号了" comes with "约了5月18号去取快递". A changed fact answers both "when is
    it now?" and "what was it before?"; ranked on its own a superseded value loses to any current
    memory, however unrelated (its status feature), and the change would read without its past."""
    if k < 2 or not chosen or chosen[0].event.status == EventStatus.SUPERSEDED:
        return chosen
    top = chosen[0].event.id
    earlier = [link.target for link in supersedes if link.source == top]
    in_pool = {s.event.id: s for s in scored}
    found = next((in_pool[e] for e in earlier if e in in_pool), None)
    if found is None:
        return chosen
    rest = [s for s in chosen[1:] if s.event.id != found.event.id]
    return [chosen[0], found, *rest][:k]


def _context_widener(
    store: GraphStore,
    namespace: str,
    context: str,
    statuses: Sequence[str],
    prefetch: Sequence[str] = (),
) -> Callable[[Event], Event] | None:
    """A function attaching each picked event's neighbouring turn(s), per the plan's `context`.

    The session chains of the `prefetch` ids (the likely picks) are read in one store call per
    direction on first use, so widening k events costs 2 calls, not 2k.
    """
    if context == "none":
        return None
    if context not in ("after", "both"):
        raise ConfigError(f"retrieve: unknown context {context!r}; use none, after or both")
    chains: dict[bool, dict[str, list[Event]]] = {True: {}, False: {}}

    def chain(event_id: str, forward: bool) -> list[Event]:
        known = chains[forward]
        if event_id not in known:
            wanted = [event_id, *(i for i in prefetch if i not in known and i != event_id)]
            known.update(store.walk(namespace, SessionChains(wanted, forward=forward)))
        return known.get(event_id, [])

    def widen(event: Event) -> Event:
        after = neighbouring_turn(
            store, namespace, event, forward=True, statuses=statuses, chain=chain(event.id, True)
        )
        before = (
            neighbouring_turn(
                store, namespace, event, forward=False, statuses=statuses, chain=chain(event.id, False)
            )
            if context == "both"
            else []
        )
        return attach_context(event, before, after)

    return widen


def _with_turn_context(
    store: GraphStore,
    namespace: str,
    chosen: list[Scored],
    budget: int,
    share: float,
    statuses: Sequence[str],
    about_self: bool = False,
    about_listener: bool = False,
) -> list[Scored]:
    """The confident picks (scoring at least `share` of the best) carry the rest of their turn and
    the next turn, while the budget allows; the other picks follow unchanged.

    With `about_self` (a question about the asker), an agent's reply gives its place to the
    asker's turn it replies to: the companion's "我也很喜欢你提到的这些爱好" ranks by the words it
    echoes and holds no fact of the asker; the statement it replies to is what was asked. With
    `about_listener` (a question about what the asker was told), the mirror: the asker's turn gives
    its place to the agent's reply after it ("那次在办公室热得不行，你让我怎么凉快下来来着？" matches
    "我现在在办公室里面，没有风扇或者空调"; the reply holds 洗脸、湿毛巾、棉质衣服).

    A memory that matches the question is often the question's setting, and the answer is the
    reply ("Here's a painting I did recently" / "Love the chilled-out sunset vibe"). Carrying
    every memory's neighbours costs ~5x the tokens; carrying only the confident ones spends what
    the weak tail of the ranking would have cost (LoCoMo dev, docs/retrieval.md)."""
    if not chosen:
        return chosen
    floor = share * chosen[0].score
    confident = [s for s in chosen if s.score >= floor]
    # An agent's question ("你有没有想过开一家餐馆呢？") is answered by the asker's next turn: it
    # carries that turn forward like any pick, rather than giving its place to the turn before.
    back = {
        s.event.id for s in confident if about_self and is_agent_reply(s.event) and not is_question(s.event)
    }
    # Asked what the listener said ("你让我怎么凉快下来来着？"), the asker's statement or question that
    # matches is the setting, and the reply after it holds what was said: the reply takes its place.
    # With no agent reply after it (two people talking) the pick is widened as any other.
    to_reply = {s.event.id for s in confident if about_listener and not is_agent_reply(s.event)}
    chains = store.walk(namespace, SessionChains([s.event.id for s in confident], forward=True))
    back_chains = store.walk(namespace, SessionChains(sorted(back), forward=False)) if back else {}
    used = sum(count_tokens(s.event.text) for s in confident)
    out: list[Scored] = []
    carried: set[str] = set()  # events already shown inside a pick: not shown again on their own
    for item in confident:
        if item.event.id in carried:
            used -= count_tokens(item.event.text)
            continue
        forward = item.event.id not in back
        near = [
            e
            for e in neighbouring_turn(
                store,
                namespace,
                item.event,
                forward=forward,
                statuses=statuses,
                chain=(chains if forward else back_chains).get(item.event.id, []),
            )
            if e.id not in carried and all(e.id != o.event.id for o in out)
        ]
        replies = [e for e in near if is_agent_reply(e)] if item.event.id in to_reply else []
        if replies:
            near = replies
            widened = attach_context(near[0], [], near[1:])
        elif forward:
            widened = attach_context(item.event, [], near)
        else:
            near = [e for e in near if not is_agent_reply(e) and not is_question(e)]
            widened = attach_context(near[0], [], near[1:]) if near else item.event
        # What the widened memory costs as shown (with its separators): counting the carried
        # turns alone can pass a pick over the budget, and `fill_budget` would then drop it whole.
        # A reply given back for the asker's statement is swapped whatever it costs: the reply
        # holds nothing asked, and `fill_budget` cuts what no longer fits.
        extra = count_tokens(widened.text) - count_tokens(item.event.text)
        if near and (used + extra <= budget or not forward or bool(replies)):
            used += extra
            carried.update(e.id for e in near)
            item = Scored(item.candidate, widened, item.features, item.score)
        out.append(item)
    return out + [s for s in chosen if s.score < floor and s.event.id not in carried]


# The most of a memory encoded at query time. The verbatim memory of a whole turn has no stored
# vector, and an assistant's answer runs to hundreds of tokens: LongMemEval's pools held 16 such
# turns (27k characters), 17 s of encoding per query on 2 CPU cores. Its part about the question
# is what a budget shows of it (`fill_budget` cuts it the same way) and what its similarity is for.
_QUERY_TIME_EMBED_TOKENS = 64


def _fill_missing_embeddings(events: dict[str, Event], embedder: Embedder, query: str) -> None:
    """Events with no stored embedding get one on the fly: the verbatim memory of a turn (the
    store keeps no vector of a whole turn) and events imported or written by an older version. A
    long one is encoded as its clauses about the query (`_QUERY_TIME_EMBED_TOKENS`)."""
    missing = [e for e in events.values() if e.embedding is None]
    if missing:
        terms = set(tokenize(query))
        texts = [
            clause_window(e.text, _QUERY_TIME_EMBED_TOKENS, terms)
            or token_prefix(e.text, _QUERY_TIME_EMBED_TOKENS)  # one clause longer than that
            for e in missing
        ]
        vectors = encode_passages_cached(embedder, texts)
        for event, vector in zip(missing, vectors, strict=True):
            events[event.id] = event.model_copy(update={"embedding": vector.tolist()})


def retrieve(
    query: str,
    store: GraphStore,
    *,
    namespace: str,
    embedder: Embedder,
    at: datetime,
    k: int = 5,
    recall_k: int = 15,
    include_archived: bool = False,
    session: str | None = None,
    decay: DecayPolicy = DecayPolicy(),
    plan: RetrievalPlan = DEFAULT_PLAN,
    scorer: LinearScorer | None = None,
    budget: int | None = None,
) -> RetrievalResult:
    """The k memories most useful for `query`, each with score, source turns and path.

    Args:
        query: the question, English or Chinese.
        store: any `GraphStore`; only read.
        namespace: the tenant.
        embedder: the sentence embedder the events were embedded with.
        at: when the question is asked; anchors "last week", 上周, the recent focus and recency.
        k: final results (3-5 is the design's range).
        recall_k: results per recall channel (the design's "3x the final count").
        include_archived: also return archived and superseded events.
        session: the conversation asking; references like "he" resolve to its entities first.
        decay: the namespace's decay policy (recency feature).
        plan: a named plan from `simplemem_graph.retrieve.plans`.
        scorer: overrides the plan's scorer (a reranker refitted elsewhere, e.g. cross-validation).
        budget: instead of k results, as many as fit in this many tokens of returned text
            (`count_tokens`), best first; a memory too long for what is left is skipped and a
            shorter later one may still fit.

    Returns:
        A `RetrievalResult`; `as_dict()` is the `search --json` object.

    Raises:
        InputError: an empty query, or k / recall_k below 1.
        ConfigError: a plan with an unknown scorer.

    Example:
        >>> result = retrieve("what did Acme say last week?", store, namespace="demo",
        ...                   embedder=embedder, at=datetime.now(UTC))
        >>> [(h.event.text, h.path) for h in result.hits]
    """
    if not isinstance(query, str) or not query.strip():
        raise InputError("retrieve: `query` must be a non-empty string")
    if k < 1 or recall_k < 1:
        raise InputError(f"retrieve: k and recall_k must be at least 1, got k={k}, recall_k={recall_k}")
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InputError(f"retrieve: budget must be a positive number of tokens, got {budget!r}")
        # Enough candidates to fill the budget with short memories (a restatement is ~15 tokens).
        k = max(k, budget // _MIN_MEMORY_TOKENS)
        recall_k = max(recall_k, min(2 * k, _MAX_BUDGET_RECALL))
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)  # event times are aware; a naive `at` is read as UTC
    scorer = scorer or _scorer(plan, detect_lang(query))
    started = time.perf_counter()
    pool = gather_candidates(
        query,
        store,
        namespace=namespace,
        embedder=embedder,
        at=at,
        k=k,
        recall_k=recall_k,
        include_archived=include_archived,
        session=session,
        decay=decay,
        plan=plan,
    )
    if scorer is None:
        # Recalled events in fused order, each seed's expansions after the recalled ones.
        scored = sorted(
            (
                Scored(c, pool.events[c.event_id], f, c.fused)
                for c, f in zip(pool.candidates, pool.features, strict=True)
            ),
            key=lambda s: s.score,
            reverse=True,
        )
    else:
        scored = score_candidates(
            pool.candidates,
            pool.events,
            pool.features,
            scorer,
            query=query,
            cross_encoder=plan.cross_encoder,
            cross_weight=plan.cross_weight,
        )
    scored = discount_agent_replies(scored, pool.analysis, scorer)
    if pool.range_fallback:
        # The question names a day or range and only a few memories fall inside it: those are
        # what was asked ("what did I do on 7月15号?"), ahead of lexically similar ones outside.
        time_range = pool.analysis.time_range
        scored = sorted(scored, key=lambda s: not event_in_range(s.event, time_range))
    scored = _without_echoes(scored)
    likely = [s.event.id for s in scored[: 2 * k]]
    widen = _context_widener(store, namespace, plan.context, _statuses(include_archived), likely)
    # At a token budget `fill_budget` spends tokens only on new words, so two memories of one turn
    # may both be shown: a second clause may hold what the first lacked ("像滑板" and "攀岩和街舞").
    chosen = select_diverse(
        scored,
        k,
        mmr_lambda=plan.mmr_lambda,
        dedup_sources=plan.dedup_sources and budget is None,
        widen=widen,
    )
    chosen = _with_earlier_value(chosen, scored, pool.supersedes, k)
    if budget is not None and plan.budget_context_share > 0:
        chosen = _with_turn_context(
            store,
            namespace,
            chosen,
            budget,
            plan.budget_context_share,
            _statuses(include_archived),
            about_self=pool.analysis.about_self,
            about_listener=pool.analysis.about_listener,
        )
    if budget is not None:
        chosen = fill_budget(chosen, budget, query, plan.budget_context_share, dated=pool.analysis.asks_when)
    elif pool.analysis.asks_when:
        chosen = [_dated(item, _day_label(item)) for item in chosen]
    hits = [Hit(event=s.event, score=s.score, path=s.candidate.path, features=s.features) for s in chosen]
    took_ms = (time.perf_counter() - started) * 1000
    return RetrievalResult(
        query=query,
        hits=hits,
        took_ms=took_ms,
        context_tokens=sum(count_tokens(h.event.text) for h in hits),
        analysis=pool.analysis,
        plan=plan.name,
        tiers=pool.tiers,
    )
