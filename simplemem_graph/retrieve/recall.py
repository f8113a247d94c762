"""Recall channels (vector, fulltext, turn fulltext, entity) and reciprocal rank fusion.

Each channel returns event ids best first, filtered by namespace, status and time range. The
channels disagree usefully: the vector channel finds paraphrases, the fulltext channel finds rare
exact words (names, numbers, product codes), the turn fulltext channel finds them in the raw log
(whole turns, every word that was said, whatever stage 1 kept or split) and the entity channel
finds the storyline of whoever the question names, even when the wording differs. Reciprocal rank fusion
combines ranks rather than scores, because the channels' scores are not on one scale.

Hot first (the seed's 3.3): the indexed channels read every tier through their indexes and run
first; the vector channel then reads only the hot tier (recent or often used, a few thousand
events: `plan_decay`) unless their best events include a cold one, which says the question is
about the long tail (`recall_candidates`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from simplemem_graph.models import Entity, Event
from simplemem_graph.stores.base import RECORD_SESSION_PREFIX, GraphStore, in_date_range, turn_memory
from simplemem_graph.stores.queries import RankedStorylines, RecallFilter, TextQuery, TurnQuery, TurnRecall
from simplemem_graph.text import tokenize, weight_of_terms

VECTOR = "vector"
FULLTEXT = "fulltext"
TURN_FULLTEXT = "turn-fulltext"
ENTITY = "entity"
CHANNELS = (VECTOR, FULLTEXT, TURN_FULLTEXT, ENTITY)
HOT, COLD = "hot", "cold"
# How many of an indexed channel's best events are looked at for a cold one (reaches_cold_tier).
# Measured on LoCoMo dev tiered at the asking time (half the events cold; bench/locomo.py --tiers):
# the best event only: 31% of searches read the hot tier alone, R@5 0.522 against 0.519 reading
# every tier (no category lower); the best 5: 4% hot alone, R@5 0.519. Chosen there: in-sample.
COLD_EVIDENCE_TOP = 1
# A hit turn whose events left out this many of its content words also comes back whole
# (`_with_lost_words`). Chosen on MemoryBank-cn users 1-3 (bench/zh_dev.py --users 1-3): 1 and 2
# scored the same there; 2 so that a dropped greeting word alone ("谢谢") brings no copy.
LOST_WORDS_MIN = 2
# The id prefix of a verbatim memory of a turn stage 1 made no event from (stores.base.turn_memory).
TURN_MEMORY_PREFIX = "turn-"


@dataclass
class Candidate:
    """An event on its way to the final list, with how each channel and walk ranked it.

    Attributes:
        event_id: the event.
        ranks: channel name -> 0-based rank in that channel.
        path: the steps that first brought it in, e.g. ["vector"] or ["entity Acme", "NEXT"].
        distance: graph hops from a recalled event (0 = recalled directly).
        fused: reciprocal-rank-fusion score (for expanded events: inherited from the seed).
    """

    event_id: str
    ranks: dict[str, int] = field(default_factory=dict)
    path: list[str] = field(default_factory=list)
    distance: int = 0
    fused: float = 0.0


def recall_vector(
    store: GraphStore,
    namespace: str,
    vector: np.ndarray,
    k: int,
    where: RecallFilter,
    *,
    reaches_cold: bool | None = None,
    searched_tiers: list[str] | None = None,
) -> list[str]:
    """Event ids nearest to the query embedding, best first.

    With `reaches_cold` given, the tiers of `plan_decay` are used: when it is False the hot tier
    (recent or often used, a few thousand events) is searched alone, and returns what it holds
    (the cold tier stays reachable through the indexed channels); when True, the whole namespace
    is searched, as without tiers. A date range is always searched whole: the store scores only
    the events its day index finds. `searched_tiers` receives the tiers read.
    """
    dated = where.time_from is not None or where.time_to is not None
    tiers = [HOT] if reaches_cold is False and not dated else [HOT, COLD]
    if searched_tiers is not None:
        searched_tiers[:] = tiers
    tier = HOT if tiers == [HOT] else None
    return [h.id for h in store.vector_search(namespace, vector.tolist(), k, filter=where, tier=tier)]


def reaches_cold_tier(events: Sequence[Event], top: int = COLD_EVIDENCE_TOP) -> bool:
    """Whether an indexed channel's best events (best first) include a cold one: the question is
    about the long tail, so the vector channel searches every tier too."""
    return any(event.tier != HOT for event in events[:top])


def recall_fulltext(store: GraphStore, namespace: str, query: str, k: int, where: RecallFilter) -> list[str]:
    """Event ids by lexical relevance to the query text, best first."""
    hits = store.text_search(namespace, TextQuery(query, k, filter=where))
    return [h.id for h in hits]


def recall_turns(store: GraphStore, namespace: str, query: str, k: int, where: RecallFilter) -> list[str]:
    """Event ids made from the turns most lexically relevant to the query, best turn first.

    Searching whole raw turns matches the way the question was asked better than searching the
    clause events stage 1 splits them into (the words of one answer stay together). Each hit turn
    brings every event made from it (the FROM links of provenance).
    """
    return [e.id for e in recall_turn_events(store, namespace, query, k, where)]


def recall_turn_events(
    store: GraphStore,
    namespace: str,
    query: str,
    k: int,
    where: RecallFilter,
    verbatim: dict[str, Event] | None = None,
) -> list[Event]:
    """`recall_turns`, as the events themselves (`TurnRecall`: one store call).

    With `verbatim` (a dict to fill), a hit turn that stage 1 made no event from comes back too, as
    a verbatim memory of the whole turn (`stores.base.turn_memory`), at its turn's rank, and is
    added to `verbatim` by id (the store does not hold it): a turn the keep rule dropped by mistake
    can lose rank, never the fact.
    """
    events = store.text_search(namespace, TurnRecall(query, k, filter=where, bare_turns=verbatim is not None))
    events = _asked_event_first(events, query)
    if verbatim is not None:
        events = _with_lost_words(store, namespace, events, where, LOST_WORDS_MIN)
        verbatim.update((e.id, e) for e in events if e.id.startswith(TURN_MEMORY_PREFIX))
    return events


def _asked_event_first(events: list[Event], query: str) -> list[Event]:
    """`events` (a hit turn's events together, best turn first) with each turn's events ordered by
    how much of the query they hold, the store's id order breaking ties.

    The turn channel ranks turns; the events of one turn share its rank only in list order, so
    the event first in id order took the turn's rank whatever it said. In a long turn that is
    often a clause beside the one asked about ("Seeing how passionate these pros were…" ranked
    first for "What was discussed in the LGBTQ+ counseling workshop?", the clause naming the
    workshop 15th)."""
    terms = set(tokenize(query))
    if not terms or len(events) < 2:
        return events
    blocks: list[list[Event]] = []
    for event in events:
        if blocks and set(event.source_ids) & set(blocks[-1][0].source_ids):
            blocks[-1].append(event)
        else:
            blocks.append([event])
    return [
        event
        for block in blocks
        for event in sorted(block, key=lambda e: -weight_of_terms(set(tokenize(e.text)), terms))
    ]


def _with_lost_words(
    store: GraphStore, namespace: str, events: list[Event], where: RecallFilter, min_lost: int
) -> list[Event]:
    """`events` (best turn first) with, right after the events of a hit turn, the turn itself as
    a verbatim memory when its events left out `min_lost` or more of its content words: a list
    stage 1 cut at a comma ("像滑板、攀岩和街舞等等" kept as "像滑板") loses no item at retrieval."""
    made: dict[str, list[Event]] = {}
    for event in events:
        if len(event.source_ids) == 1 and not event.id.startswith(TURN_MEMORY_PREFIX):
            made.setdefault(event.source_ids[0], []).append(event)
    if not made:
        return events
    whole: dict[str, Event] = {}
    for turn in store.turns(namespace, TurnQuery(ids=list(made))):
        if (turn.session or "").startswith(RECORD_SESSION_PREFIX):
            continue
        kept = {w for e in made[turn.id] for w in tokenize(e.text)}
        lost = set(tokenize(turn.text)) - kept
        memory = turn_memory(turn)
        if len(lost) >= min_lost and in_date_range(memory, where.time_from, where.time_to):
            whole[turn.id] = memory
    if not whole:
        return events
    out: list[Event] = []
    for i, event in enumerate(events):
        out.append(event)
        turn_id = event.source_ids[0] if len(event.source_ids) == 1 else None
        last_of_turn = turn_id in whole and not any(
            len(e.source_ids) == 1 and e.source_ids[0] == turn_id for e in events[i + 1 :]
        )
        if turn_id is not None and last_of_turn:
            out.append(whole[turn_id])
    return out


def recall_entities(
    store: GraphStore,
    namespace: str,
    entities: Sequence[Entity],
    vector: np.ndarray,
    k: int,
    where: RecallFilter,
) -> list[tuple[Event, str]]:
    """Events mentioning the query's entities, as (event, entity name), best first.

    A storyline can hold hundreds of events (every turn of a speaker), so they are ranked in the
    store, in one call for every entity: events naming more of the query's entities first, then by
    cosine similarity to the query (`RankedStorylines`).
    """
    if not entities:
        return []
    groups = [[entity.id] for entity in entities]
    ranked = store.events(namespace, RankedStorylines(groups, vector, limit=k, filter=where))
    return [(event, entities[named_by[0]].name) for event, named_by in ranked]


def fuse_rrf(
    rankings: Mapping[str, Sequence[str]], *, k: int = 60, weights: Mapping[str, float] | None = None
) -> list[tuple[str, float]]:
    """Reciprocal rank fusion: score(id) = sum over channels of weight / (k + rank + 1).

    Args:
        rankings: channel name -> ids best first.
        k: the RRF constant; larger flattens the advantage of the very top ranks.
        weights: optional per-channel weights (default 1.0).

    Returns:
        (id, score) pairs, best first; ties keep first-seen order.

    Example:
        >>> fuse_rrf({"vector": ["a", "b"], "fulltext": ["b", "c"]})[0][0]
        'b'
    """
    scores: dict[str, float] = {}
    for channel, ids in rankings.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, item in enumerate(ids):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank + 1)
    return sorted(scores.items(), key=lambda pair: pair[1], reverse=True)


def recall_candidates(
    store: GraphStore,
    namespace: str,
    *,
    query: str,
    vector: np.ndarray,
    entities: Sequence[Entity],
    k: int,
    where: RecallFilter,
    channels: Sequence[str] = CHANNELS,
    rrf_k: int = 60,
    weights: Mapping[str, float] | None = None,
    hot_first: bool = True,
    cold_evidence_top: int = COLD_EVIDENCE_TOP,
    searched_tiers: list[str] | None = None,
    turn_memories: dict[str, Event] | None = None,
) -> list[Candidate]:
    """Run the channels, fuse them, and return candidates best first with their first path.

    The path of a candidate names the best-ranked channel that found it ("vector", "fulltext",
    "turn-fulltext" or "entity <name>").

    Tiers (`hot_first`): the indexed channels (fulltext, turn fulltext, entity storylines, date
    ranges) read every tier through their indexes and run first; the vector channel then searches
    the hot tier alone unless their best `cold_evidence_top` events include a cold one
    (`reaches_cold_tier`).
    Without the turn fulltext or entity channel, or when
    they find nothing, there is no evidence either way, and every tier is searched.
    `searched_tiers` receives the tiers the vector channel read; `turn_memories` the verbatim
    memories of hit turns that made no event (`recall_turn_events`), which the store does not hold.
    """
    found: dict[str, list[str]] = {}
    evidence: list[list[Event]] = []
    entity_names: dict[str, str] = {}
    if FULLTEXT in channels:
        found[FULLTEXT] = recall_fulltext(store, namespace, query, k, where)
    if TURN_FULLTEXT in channels:
        turn_events = recall_turn_events(store, namespace, query, k, where, turn_memories)
        found[TURN_FULLTEXT] = [e.id for e in turn_events]
        evidence.append(turn_events)
    if ENTITY in channels:
        storyline = recall_entities(store, namespace, entities, vector, k, where)
        found[ENTITY] = [e.id for e, _ in storyline]
        entity_names = {e.id: name for e, name in storyline}
        evidence.append([e for e, _ in storyline])
    if VECTOR in channels:
        reaches_cold = None  # no evidence either way: every tier
        if hot_first and evidence:
            # Nothing found through the indexes leaves the vector channel alone: every tier too.
            reaches_cold = not any(evidence) or any(
                reaches_cold_tier(events, cold_evidence_top) for events in evidence
            )
        found[VECTOR] = recall_vector(
            store, namespace, vector, k, where, reaches_cold=reaches_cold, searched_tiers=searched_tiers
        )
    # Fused in CHANNELS order, whatever order they ran in (fusion keeps first-seen order on ties).
    rankings = {channel: found[channel] for channel in CHANNELS if channel in found}
    positions = {ch: {event_id: rank for rank, event_id in enumerate(ids)} for ch, ids in rankings.items()}
    candidates: list[Candidate] = []
    for event_id, score in fuse_rrf(rankings, k=rrf_k, weights=weights):
        ranks = {ch: pos[event_id] for ch, pos in positions.items() if event_id in pos}
        first = min(ranks, key=lambda ch: (ranks[ch], CHANNELS.index(ch)))
        label = f"{ENTITY} {entity_names[event_id]}" if first == ENTITY else first
        candidates.append(Candidate(event_id, ranks=ranks, path=[label], fused=score))
    return candidates
