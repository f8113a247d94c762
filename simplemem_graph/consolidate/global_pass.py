"""The global pass: what incremental consolidation cannot see batch by batch.

1. Merge duplicate events across sessions (same statement, same values), keeping the earliest.
2. Resolve aliases with the whole namespace in view (a nickname heard before the full name), and
   add MENTIONS for known names that events named before the name was known.
3. Re-cluster topics with community detection over the events' similarity graph.
4. Decay: move events between the hot and cold tiers; count archive candidates.
5. Archive done tasks older than the archive horizon.

Reported, never silent: it returns counts and raises ConsolidationError when a step fails.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime

import networkx as nx
import numpy as np

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate.aliases import is_abbreviation, nickname_surname, normalise_name
from simplemem_graph.consolidate.entities import GENERIC_SPEAKERS, EntityIndex, EntityResolver, name_occurs
from simplemem_graph.consolidate.rederive import rederive_implied_mentions, rederive_next_chains
from simplemem_graph.consolidate.topics import (
    TOPIC_KEYWORDS,
    TOPIC_MIN_COSINE,
    event_keywords,
    label_from_keywords,
)
from simplemem_graph.consolidate.updates import attribute_values
from simplemem_graph.embedding import Embedder
from simplemem_graph.errors import ConsolidationError, SimpleMemError
from simplemem_graph.models import Event, EventStatus, Link, LinkKind, Topic, stable_id
from simplemem_graph.stores.base import GraphStore

DUPLICATE_MIN_COSINE = 0.97
NEIGHBOURS_PER_EVENT = 10  # edges kept per event in the re-clustering graph
_PUNCTUATION = re.compile(r"[\W_]+", re.UNICODE)


def consolidate_pass(
    store: GraphStore, namespace: str, *, now: datetime, embedder: Embedder | None, decay: DecayPolicy
) -> dict[str, int]:
    """Run the global pass over one namespace.

    Args:
        store: the graph store.
        namespace: the tenant to consolidate.
        now: the reference time for ages (timezone-aware).
        embedder: embeds events that lack a vector (needed for duplicates and topics); optional.
        decay: the namespace's DecayPolicy (full weight, archive horizon, hot access count).

    Returns:
        Counts: duplicates_merged, aliases, candidate_aliases, mentions_added, implied_added,
        implied_removed, next_added, next_removed (re-derived in time order, see rederive.py), topics,
        topics_deleted, tier_hot, tier_cold, archive_candidates, tasks_archived.

    Raises:
        ConsolidationError: a step failed; the message names it.

    Example:
        >>> consolidate_pass(store, "demo", now=datetime.now(UTC), embedder=None, decay=DecayPolicy())
        {'duplicates_merged': 0, 'aliases': 1, ...}
    """
    counts: dict[str, int] = {}
    steps = (
        ("duplicates", lambda: merge_duplicates(store, namespace, embedder)),
        ("aliases", lambda: resolve_aliases(store, namespace)),
        ("implied", lambda: rederive_implied_mentions(store, namespace)),
        ("chains", lambda: rederive_next_chains(store, namespace)),
        ("topics", lambda: recluster_topics(store, namespace)),
        ("decay", lambda: apply_decay(store, namespace, now=now, decay=decay)),
    )
    for name, step in steps:
        try:
            counts.update(step())
        except SimpleMemError:
            raise
        except Exception as e:
            raise ConsolidationError(
                f"consolidate pass: step {name!r} failed in namespace {namespace!r}: {e}"
            ) from e
    return counts


def merge_duplicates(store: GraphStore, namespace: str, embedder: Embedder | None) -> dict[str, int]:
    """Fold each later copy of a statement made in another session into the earliest one."""
    events = store.list_events(namespace, statuses=[EventStatus.ACTIVE, EventStatus.DONE])
    if embedder is not None and any(e.embedding is None for e in events):
        missing = [e for e in events if e.embedding is None]
        vectors = embedder.encode([e.text for e in missing])
        store.upsert_events(
            [e.model_copy(update={"embedding": v.tolist()}) for e, v in zip(missing, vectors, strict=True)]
        )
        events = store.list_events(namespace, statuses=[EventStatus.ACTIVE, EventStatus.DONE])
    keep_of: dict[str, Event] = {}
    by_text: dict[str, Event] = {}
    with_vectors = [e for e in events if e.embedding is not None]
    matrix = np.asarray([e.embedding for e in with_vectors], dtype=np.float32) if with_vectors else None
    position = {e.id: i for i, e in enumerate(with_vectors)}
    for event in events:  # oldest first: the first of a group is kept
        key = _PUNCTUATION.sub("", normalise_name(event.text))
        original = by_text.get(key)
        if original is None and matrix is not None and event.id in position:
            scores = matrix[: position[event.id]] @ matrix[position[event.id]]
            for j in np.flatnonzero(scores >= DUPLICATE_MIN_COSINE):
                candidate = with_vectors[int(j)]
                if candidate.id not in keep_of and attribute_values(candidate) == attribute_values(event):
                    original = candidate
                    break
        if original is not None and original.session != event.session and original.id not in keep_of:
            keep_of[event.id] = original
        else:
            by_text.setdefault(key, event)
    if not keep_of:
        return {"duplicates_merged": 0}
    kept: dict[str, Event] = {}
    moved: list[Link] = []
    for duplicate_id, original in keep_of.items():
        target = kept.get(original.id, original)
        duplicate = next(e for e in events if e.id == duplicate_id)
        kept[original.id] = target.model_copy(
            update={
                "source_ids": list(dict.fromkeys([*target.source_ids, *duplicate.source_ids])),
                "access_count": target.access_count + duplicate.access_count,
            }
        )
        for link in store.list_links(namespace, node_ids=[duplicate_id]):
            source = original.id if link.source == duplicate_id else link.source
            target_id = original.id if link.target == duplicate_id else link.target
            if source != target_id:
                moved.append(link.model_copy(update={"source": source, "target": target_id}))
    store.upsert_events(list(kept.values()))
    store.add_links(moved)
    # The store keeps entities tied by ALIAS_OF / CANDIDATE_ALIAS / WORKS_AT to a mentioned one.
    store.delete_events(namespace, list(keep_of))
    return {"duplicates_merged": len(keep_of)}


def resolve_aliases(store: GraphStore, namespace: str) -> dict[str, int]:
    """Resolve nickname and short-name entities now that the whole namespace is known."""
    index = EntityIndex.load(store, namespace)
    mentions = store.list_links(namespace, kinds=[LinkKind.MENTIONS])
    events = {e.id: e for e in store.list_events(namespace)}
    sessions_of: dict[str, set[str]] = defaultdict(set)
    for link in mentions:
        if link.source in events:
            sessions_of[link.target].add(events[link.source].session)
    resolver = EntityResolver(index)
    for entity in sorted(index.canonical_entities(), key=lambda e: e.name):
        if entity.id in index.canonical_of or normalise_name(entity.name) in GENERIC_SPEAKERS:
            continue
        target = _strong_alias_target(entity, index, sessions_of)
        if target is not None and resolver.make_alias(entity.name, target, "global-pass"):
            stale = Link(kind=LinkKind.CANDIDATE_ALIAS, source=entity.id, target=target, namespace=namespace)
            store.remove_links([stale])
    result = resolver.result
    store.upsert_entities(list(result.changed.values()))
    store.add_links(result.links)
    repoint_mentions(store, namespace, result.repoint)

    mentioned = defaultdict(set)
    for link in store.list_links(namespace, kinds=[LinkKind.MENTIONS]):
        mentioned[link.source].add(link.target)
    added = [
        Link(
            kind=LinkKind.MENTIONS,
            source=event.id,
            target=canonical_id,
            namespace=namespace,
            props={"role": "mention", "surface": name},
        )
        for event in events.values()
        for name, _type, canonical_id in index.known_names()
        if canonical_id not in mentioned[event.id] and name_occurs(name, event.text)
    ]
    store.add_links(list({(link.source, link.target): link for link in added}.values()))
    return {
        "aliases": result.counts["aliases"],
        "candidate_aliases": len(store.list_links(namespace, kinds=[LinkKind.CANDIDATE_ALIAS])),
        "mentions_added": len({(link.source, link.target) for link in added}),
    }


def _strong_alias_target(entity, index: EntityIndex, sessions_of: dict[str, set[str]]) -> str | None:
    """The one canonical entity this one is a form of, when the evidence is strong, else None."""
    surname = nickname_surname(entity.name)
    if surname and entity.type in ("person", "other"):
        people = index.persons_with_surname(surname)
        if len(people) != 1:
            return None
        person = people[0]
        shared_session = sessions_of.get(entity.id, set()) & sessions_of.get(person.id, set())
        shared_org = index.works_at.get(entity.id, set()) & index.works_at.get(person.id, set())
        return person.id if shared_session or shared_org else None
    if entity.type == "person" and not entity.name.isascii():
        return None  # 邱敏 is not a short form of 邱敏刚: Chinese personal names only alias by nickname
    longer = [
        e
        for e in index.canonical_entities()
        if e.id != entity.id and e.type in (entity.type, "other") and is_abbreviation(entity.name, e.name)
    ]
    return longer[0].id if len(longer) == 1 else None


def repoint_mentions(store: GraphStore, namespace: str, moves: Sequence[tuple[str, str]]) -> None:
    """Events that mentioned an entity now known to be an alias mention its canonical entity instead."""
    added, removed = mention_moves(store, namespace, moves)
    store.add_links(added)
    store.remove_links(removed)


def mention_moves(
    store: GraphStore, namespace: str, moves: Sequence[tuple[str, str]]
) -> tuple[list[Link], list[Link]]:
    """The MENTIONS links to add and to remove so that mentions of each old entity point at its
    canonical one (read only: the caller writes them, e.g. in one delta)."""
    added: list[Link] = []
    removed: list[Link] = []
    for old, canonical in moves:
        links = store.list_links(namespace, kinds=[LinkKind.MENTIONS], node_ids=[old])
        links = [link for link in links if link.target == old]
        added += [link.model_copy(update={"target": canonical}) for link in links]
        removed += links
    return added, removed


def recluster_topics(store: GraphStore, namespace: str) -> dict[str, int]:
    """Rebuild topics as Louvain communities of the events' nearest-neighbour similarity graph.

    A community keeps the id of the old topic it shares most members with, so IN_TOPIC links of
    stable clusters do not churn.
    """
    events = [e for e in store.list_events(namespace) if e.embedding is not None]
    if not events:
        return {"topics": len(store.list_topics(namespace))}
    matrix = np.asarray([e.embedding for e in events], dtype=np.float32)
    similarity = matrix @ matrix.T
    graph = nx.Graph()
    graph.add_nodes_from(range(len(events)))
    for i in range(len(events)):
        order = np.argsort(-similarity[i])[: NEIGHBOURS_PER_EVENT + 1]
        for j in order:
            if j != i and similarity[i, j] >= TOPIC_MIN_COSINE:
                graph.add_edge(i, int(j), weight=float(similarity[i, j]))
    communities = nx.community.louvain_communities(graph, weight="weight", seed=0)
    old_links = store.list_links(namespace, kinds=[LinkKind.IN_TOPIC])
    old_topic_of = {link.source: link.target for link in old_links}
    used: set[str] = set()
    topics, links = [], []
    for members in sorted(communities, key=lambda c: min(events[i].time for i in c)):
        member_events = [events[i] for i in sorted(members)]
        votes = Counter(old_topic_of.get(e.id) for e in member_events if old_topic_of.get(e.id) not in used)
        votes.pop(None, None)
        topic_id = votes.most_common(1)[0][0] if votes else stable_id("tp", namespace, member_events[0].id)
        used.add(topic_id)
        centroid = matrix[sorted(members)].mean(axis=0)
        keywords = [
            k
            for k, _ in Counter(k for e in member_events for k in event_keywords(e)).most_common(
                TOPIC_KEYWORDS
            )
        ]
        topics.append(
            Topic(
                id=topic_id,
                namespace=namespace,
                label=label_from_keywords(keywords),
                keywords=keywords,
                centroid=(centroid / (np.linalg.norm(centroid) or 1.0)).tolist(),
                size=len(members),
            )
        )
        links += [
            Link(kind=LinkKind.IN_TOPIC, source=e.id, target=topic_id, namespace=namespace)
            for e in member_events
        ]
    emptied = [t.id for t in store.list_topics(namespace) if t.id not in used]
    store.remove_links(
        [
            link
            for link in old_links
            if (link.source, link.target) not in {(x.source, x.target) for x in links}
        ]
    )
    store.upsert_topics(topics)
    store.add_links(links)
    if emptied:  # topics no community kept: nothing is IN them any more
        store.delete_topics(namespace, emptied)
    return {"topics": len(topics), "topics_deleted": len(emptied)}


def apply_decay(store: GraphStore, namespace: str, *, now: datetime, decay: DecayPolicy) -> dict[str, int]:
    """Hot/cold tiers from age (since the event or its last access) and use; archive old done tasks.

    Hot: touched within `full_days`, or retrieved at least `hot_access_count` times. Cold: the
    rest. Beyond `archive_days` without access an event is an archive candidate (kept, counted).
    """
    counts = {"tier_hot": 0, "tier_cold": 0, "archive_candidates": 0, "tasks_archived": 0}
    moves: dict[str, list[str]] = defaultdict(list)
    archived_tasks = []
    for event in store.list_events(namespace):
        last_touch = max(event.time, event.last_accessed or event.time)
        age_days = (now - last_touch).total_seconds() / 86400
        hot = age_days <= decay.full_days or event.access_count >= decay.hot_access_count
        tier = "hot" if hot else "cold"
        if tier != event.tier:
            moves[tier].append(event.id)
            counts[f"tier_{tier}"] += 1
        if age_days > decay.archive_days:
            counts["archive_candidates"] += 1
            if event.is_task and event.status == EventStatus.DONE:
                archived_tasks.append(event.id)
    for tier, ids in moves.items():
        store.update_events(namespace, ids, {"tier": tier})
    if archived_tasks:
        store.update_events(namespace, archived_tasks, {"status": EventStatus.ARCHIVED})
        counts["tasks_archived"] = len(archived_tasks)
    return counts
