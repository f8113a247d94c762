"""Association-chain completion: from recalled events, walk the graph to the events they imply.

A question about "why the price dropped" recalls the price event; the cause sits one CAUSES hop
away, the follow-up one NEXT hop away, and the rest of the supplier's story one MENTIONS hop away
(through the shared entity). The store does the walking (`GraphStore.walk`); this module picks
the seeds, runs one walk per `ExpandStep` of the plan and turns the neighbours into candidates
whose path explains the chain: the seed's recall path followed by the hops, e.g.
["vector", "MENTIONS Acme Corp", "NEXT"].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simplemem_graph.models import Event, LinkKind, Walk
from simplemem_graph.retrieve.recall import Candidate
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import SessionChains, Walks


@dataclass(frozen=True)
class ExpandStep:
    """One walk: which links to follow, how far, and how many events it may add.

    `also_statuses`: statuses this walk may reach beyond the query's. ("superseded",) on a
    SUPERSEDES walk brings the earlier values of a recalled fact: "见房东改到5月21号" carries
    "约了5月20号去见房东" as its history, while a superseded event is never recalled on its own."""

    kinds: tuple[LinkKind, ...]
    hops: int = 1
    limit: int = 20
    also_statuses: tuple[str, ...] = ()


def expand_candidates(
    store: GraphStore,
    namespace: str,
    candidates: Sequence[Candidate],
    steps: Sequence[ExpandStep],
    *,
    seeds: int,
    statuses: Sequence[str] | None,
    inherit: float = 0.5,
) -> list[Candidate]:
    """New candidates reached from the top `seeds` candidates by the plan's walks.

    Args:
        store: the graph store that walks.
        namespace: the tenant.
        candidates: recalled candidates, best first (they are not returned again).
        steps: the walks to run, in order; an event found by an earlier walk is kept from it.
        seeds: how many of the best candidates to start from.
        statuses: statuses an expanded event may have.
        inherit: share of the seed's fused score an event gets per hop (score * inherit**hops),
            so that expanded events rank below their seed unless the reranker finds them better.

    Returns:
        Expanded candidates, nearest and best-seeded first, each with distance >= 1.

    Example:
        >>> steps = [ExpandStep((LinkKind.NEXT, LinkKind.CAUSES), hops=1, limit=10)]
        >>> [c.path for c in expand_candidates(store, "demo", recalled, steps, seeds=5, statuses=None)]
        [["vector", "NEXT"], ["entity Acme", "CAUSES"]]
    """
    by_id = {c.event_id: c for c in candidates}
    seed_ids = [c.event_id for c in candidates[:seeds]]
    if not seed_ids:
        return []
    found: dict[str, Candidate] = {}
    walks = [
        Walk(
            kinds=list(step.kinds),
            hops=step.hops,
            statuses=None if statuses is None else [*statuses, *step.also_statuses],
            limit=step.limit,
        )
        for step in steps
    ]
    for neighbours in store.walk(namespace, Walks(seed_ids, walks)):  # one store call for every walk
        for neighbour in neighbours:
            if neighbour.id in by_id or neighbour.id in found:
                continue
            seed = by_id.get(neighbour.seed)
            seed_path = seed.path if seed else []
            seed_score = seed.fused if seed else 0.0
            found[neighbour.id] = Candidate(
                neighbour.id,
                path=[*seed_path, *neighbour.path],
                distance=neighbour.distance,
                fused=seed_score * inherit**neighbour.distance,
            )
    return sorted(found.values(), key=lambda c: (c.distance, -c.fused))


def neighbouring_turn(
    store: GraphStore,
    namespace: str,
    event: Event,
    *,
    forward: bool,
    statuses: Sequence[str] | None,
    max_steps: int = 8,
    chain: Sequence[Event] | None = None,
) -> list[Event]:
    """Events of the session next to `event`, in session order: the rest of its own turn, then
    every event of the next (or previous) turn. One turn often yields several events (one per
    clause), so "the turn after" may be a few NEXT steps away. `chain`: the session chain from
    `SessionChains` when the caller fetched it for several events at once."""
    if chain is None:
        chain = store.walk(namespace, SessionChains([event.id], forward=forward, steps=max_steps))[event.id]
    own_turns = set(event.source_ids)
    other_turn: set[str] | None = None
    found: list[Event] = []
    for neighbour in chain[:max_steps]:
        new_turns = set(neighbour.source_ids) - own_turns
        if new_turns and other_turn is not None and not new_turns <= other_turn:
            break  # a second new turn: far enough
        if new_turns and other_turn is None:
            other_turn = new_turns
        if statuses is None or neighbour.status in statuses:
            found.append(neighbour)
    return found if forward else found[::-1]


def attach_context(event: Event, before: Sequence[Event], after: Sequence[Event]) -> Event:
    """The event as a memory with its conversational neighbours: the turn before it (often the
    question it answers) and the turn after it (often the answer or the follow-up). The text and
    `source_ids` then cover every turn whose words the memory shows; the id stays the event's."""
    if not before and not after:
        return event
    parts = [*before, event, *after]
    sources = list(dict.fromkeys(s for part in parts for s in part.source_ids))
    return event.model_copy(update={"text": " / ".join(p.text for p in parts), "source_ids": sources})
