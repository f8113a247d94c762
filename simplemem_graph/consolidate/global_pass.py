"""The global pass: what incremental consolidation cannot see batch by batch.

1. Merge duplicate events across sessions (same statement, same values), keeping the earliest.
   Then resolve every event's names again in time order (rederive.py): entity types, aliases and
   mentions do not depend on the order batches arrived in.
2. Resolve aliases with the whole namespace in view (a nickname heard before the full name), and
   add MENTIONS for known names that events named before the name was known.
   Then SUPERSEDES / CONTRADICTS and statuses again in time order (rederive.py).
3. Re-cluster topics with community detection over the events' similarity graph.
4. Decay: move events between the hot and cold tiers (ages on the namespace's own clock); count
   archive candidates.
5. Archive done tasks older than the archive horizon.
6. Pattern memories: re-mine regularities, write new ones, retire broken ones (patterns.py).

Reported, never silent: it returns counts and raises ConsolidationError when a step fails.

Crash-safe like ingest: every step only reads and returns its changes as one `GraphDelta`
(`plan_duplicates`, `plan_entities` / `plan_implied_mentions` / `plan_updates` / `plan_next_chains` in
rederive.py, `plan_aliases`, `plan_topics` in communities.py, `plan_decay`, `plan_patterns` in
patterns.py); the pass writes each with one `GraphStore.apply_delta` (`run_step`), one transaction.
Killed anywhere, the graph holds whole steps only, and the next pass (each step a function of the
graph it reads) ends where an uninterrupted one ends (tests/integration/test_crash_and_concurrency.py
kills it at each transaction).

Cost: no N x N matrix, no N x N time. Duplicates and topic communities come from each
event's nearest neighbours (`nearest_neighbours`: exact up to 10k events, a seeded faiss IVF index
beyond, O(N^1.5)); the vectors are read as one float32 matrix (`EventVectors`) and the
events without theirs (`EventQuery(embeddings=False)`), so memory is O(N) without 384 Python floats
per event. Alias targets come from indexes of names by surname, first word and character pair
instead of comparing every entity with every other; names are found in event texts with one
Aho-Corasick automaton. Measured: `bench/scale.py --global-pass-only` (100k events in minutes).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate.aliases import (
    initials,
    initials_form,
    is_abbreviation,
    is_chinese_full_name,
    nickname_surname,
    normalise_name,
)
from simplemem_graph.consolidate.calibration import (
    EmbedderCalibration,
    calibrated,
    calibration,
    calibration_for,
)
from simplemem_graph.consolidate.communities import plan_topics
from simplemem_graph.consolidate.entities import EntityResolver
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.name_matching import GENERIC_SPEAKERS, NameFinder, contrasted, name_occurs
from simplemem_graph.consolidate.neighbours import nearest_neighbours
from simplemem_graph.consolidate.patterns import plan_patterns
from simplemem_graph.consolidate.rederive import (
    plan_entities,
    plan_implied_mentions,
    plan_next_chains,
    plan_updates,
)
from simplemem_graph.consolidate.snapshot import mention_moves, read_mentions
from simplemem_graph.consolidate.updates import attribute_values
from simplemem_graph.embedding import Embedder, stored_model
from simplemem_graph.errors import ConsolidationError, SimpleMemError
from simplemem_graph.lexicon import CONTRAST_MARKER, CONTRAST_ROLE
from simplemem_graph.models import (
    Event,
    EventPatch,
    EventStatus,
    GraphDelta,
    Link,
    LinkKind,
)
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, EventVectors, RecallFilter, TurnQuery
from simplemem_graph.text import is_latin
from simplemem_graph.vectors import unit_rows

DUPLICATE_NEIGHBOURS = 16  # nearest neighbours searched for an earlier copy of an event
_PUNCTUATION = re.compile(r"[\W_]+", re.UNICODE)


def run_step(store: GraphStore, delta: GraphDelta) -> dict[str, int]:
    """Write one planned step of the pass in one transaction; its counts. An empty plan is written
    too (a transaction that changes nothing), so every pass makes the same transactions in the same
    order whatever an interrupted pass before it already wrote."""
    store.apply_delta(delta)
    return dict(delta.counts)


def consolidate_pass(
    store: GraphStore,
    namespace: str,
    *,
    now: datetime,
    embedder: Embedder | None,
    decay: DecayPolicy,
    calibration: EmbedderCalibration | None = None,
) -> dict[str, int]:
    """Run the global pass over one namespace.

    Args:
        store: the graph store.
        namespace: the tenant to consolidate.
        now: the reference time for ages (timezone-aware).
        embedder: embeds events that lack a vector (needed for duplicates and topics); optional.
        decay: the namespace's DecayPolicy (full weight, archive horizon, hot access count).
        calibration: the cosine thresholds; default: the shipped set of the embedder's model (or
            of the model the store records, without an embedder).

    Returns:
        Counts: duplicates_merged, entities_changed, entities_deleted, entity_links_added,
        entity_links_removed, mentions_rederived_added, mentions_rederived_removed (entities
        re-resolved in time order), updates_added, updates_removed, statuses_changed (updates
        re-derived in time order), aliases, candidate_aliases, mentions_added, implied_added,
        implied_removed, next_added, next_removed (re-derived in time order, see rederive.py), topics,
        topics_deleted, tier_hot, tier_cold (moves), hot_events, cold_events (tier sizes), tier_events,
        archive_candidates, tasks_archived, patterns_active,
        patterns_new, patterns_retired.

    Raises:
        ConsolidationError: a step failed; the message names it.

    Example:
        >>> consolidate_pass(store, "demo", now=datetime.now(UTC), embedder=None, decay=DecayPolicy())
        {'duplicates_merged': 0, 'aliases': 1, ...}
    """
    counts: dict[str, int] = {}
    # Each step plans a delta from what the store holds after the steps before it; the pass writes
    # it, in one transaction per step.
    steps = (
        ("duplicates", lambda: plan_duplicates(store, namespace, embedder)),
        ("entities", lambda: plan_entities(store, namespace, embedder)),
        ("aliases", lambda: plan_aliases(store, namespace)),
        ("implied", lambda: plan_implied_mentions(store, namespace)),
        ("updates", lambda: plan_updates(store, namespace)),
        ("chains", lambda: plan_next_chains(store, namespace)),
        ("topics", lambda: plan_topics(store, namespace)),
        ("decay", lambda: plan_decay(store, namespace, now=now, decay=decay)),
        ("patterns", lambda: plan_patterns(store, namespace, now=now, embedder=embedder)),
    )
    current = calibration or calibration_for(embedder.name if embedder is not None else stored_model(store))
    for name, plan in steps:
        try:
            with calibrated(current):
                counts.update(run_step(store, plan()))
            if name == "aliases":
                candidates = store.links(namespace, kinds=[LinkKind.CANDIDATE_ALIAS])
                counts["candidate_aliases"] = len(candidates)
        except SimpleMemError:
            raise
        except Exception as e:
            raise ConsolidationError(
                f"consolidate pass: step {name!r} failed in namespace {namespace!r}: {e}"
            ) from e
    return counts


def plan_duplicates(store: GraphStore, namespace: str, embedder: Embedder | None) -> GraphDelta:
    """The merge of duplicate events, as a delta (reads only): each later copy of a statement made
    in another session folds into the earliest one. Events that lack a vector get one in the same
    delta (the embedder's), so they take part.

    Superseded events take part too: which copies are the same statement does not depend on
    which updates were detected when (with several writers that depends on arrival order), so the
    same copies are merged in every run. A merged event stays visible if any copy was."""
    statuses = [EventStatus.ACTIVE, EventStatus.DONE, EventStatus.SUPERSEDED]
    events = store.events(namespace, EventQuery(filter=RecallFilter(statuses=statuses), embeddings=False))
    vector_ids, matrix = store.events(namespace, EventVectors(statuses=statuses))
    filled: dict[str, Event] = {}
    if embedder is not None and len(vector_ids) < len(events):
        embedded = set(vector_ids)
        missing = [e for e in events if e.id not in embedded]  # they have no embedding to lose
        vectors = embedder.encode([e.text for e in missing])
        filled = {
            e.id: e.model_copy(update={"embedding": v.tolist()})
            for e, v in zip(missing, vectors, strict=True)
        }
        vector_ids, matrix = _with_filled(events, vector_ids, matrix, filled)
    order = {e.id: i for i, e in enumerate(events)}  # oldest first: the first of a group is kept
    row_of = {event_id: row for row, event_id in enumerate(vector_ids)}
    neighbours, scores = nearest_neighbours(matrix, DUPLICATE_NEIGHBOURS)
    keep_of: dict[str, Event] = {}
    by_text: dict[str, Event] = {}
    for event in events:
        key = _PUNCTUATION.sub("", normalise_name(event.text))
        original = by_text.get(key)
        if original is None and event.id in row_of:
            row, mine = row_of[event.id], order[event.id]
            found = zip(neighbours[row].tolist(), scores[row].tolist(), strict=True)
            similar = [
                order.get(vector_ids[j], mine)
                for j, score in found
                if score >= calibration().duplicate_min_cosine
            ]
            # Earlier events among its nearest neighbours, oldest first, as the full scan had them.
            for position in sorted(p for p in similar if p < mine):
                candidate = events[position]
                if candidate.id not in keep_of and attribute_values(candidate) == attribute_values(event):
                    original = candidate
                    break
        if original is not None and original.session != event.session and original.id not in keep_of:
            keep_of[event.id] = original
        else:
            by_text.setdefault(key, event)
    delta = GraphDelta(namespace=namespace, counts={"duplicates_merged": len(keep_of)})
    if keep_of:
        delta = _fold_duplicates(store, delta, keep_of, {e.id: e for e in events}, filled)
    # Copies that go need no vector; the originals carry theirs in the fold.
    written = {e.id for e in delta.events} | set(keep_of)
    delta.events = [e for i, e in filled.items() if i not in written] + delta.events
    return delta


def _with_filled(
    events: Sequence[Event], vector_ids: list[str], matrix: np.ndarray, filled: dict[str, Event]
) -> tuple[list[str], np.ndarray]:
    """The vectors `EventVectors` would read once the `filled` events are stored with theirs:
    one unit row per event that has one, in the events' order (oldest first)."""
    stored = dict(zip(vector_ids, range(len(vector_ids)), strict=True))
    fresh = {i: unit_rows(np.asarray([e.embedding], dtype=np.float32))[0] for i, e in filled.items()}
    ids = [e.id for e in events if e.id in stored or e.id in fresh]
    if not ids:
        return [], np.zeros((0, 0), dtype=np.float32)
    rows = [matrix[stored[i]] if i in stored else fresh[i] for i in ids]
    return ids, np.vstack(rows).astype(np.float32, copy=False)


def _fold_duplicates(
    store: GraphStore,
    delta: GraphDelta,
    keep_of: dict[str, Event],
    events: dict[str, Event],
    filled: dict[str, Event],
) -> GraphDelta:
    """The merge: each original takes its copies' sources, accesses and visibility, their links
    move to it, and the copies are deleted. Reads the originals whole (they are written back with
    their embeddings) and every copy's links in one call."""
    namespace = delta.namespace
    stored = store.events(namespace, EventQuery(ids=sorted({o.id for o in keep_of.values()})))
    originals = {e.id: _with_vector(e, filled) for e in stored}
    links_of: dict[str, list[Link]] = defaultdict(list)
    for link in store.links(namespace, node_ids=list(keep_of)):
        for end in dict.fromkeys((link.source, link.target)):
            if end in keep_of:
                links_of[end].append(link)
    kept: dict[str, Event] = {}
    moved: list[Link] = []
    for duplicate_id, original in keep_of.items():
        target = kept.get(original.id, originals[original.id])
        duplicate = events[duplicate_id]
        visible = target.status if target.status != EventStatus.SUPERSEDED else duplicate.status
        kept[original.id] = target.model_copy(
            update={
                "source_ids": list(dict.fromkeys([*target.source_ids, *duplicate.source_ids])),
                "access_count": target.access_count + duplicate.access_count,
                "status": visible,
            }
        )
        for link in links_of[duplicate_id]:
            source = original.id if link.source == duplicate_id else link.source
            target_id = original.id if link.target == duplicate_id else link.target
            if source != target_id:
                update = {"source": source, "target": target_id}
                if link.kind == LinkKind.MENTIONS and link.source == duplicate_id:
                    # The copy is gone: re-deriving the entities (rederive.py) keeps what it named.
                    update["props"] = {**link.props, "merged_from": duplicate_id}
                moved.append(link.model_copy(update=update))
    # The store keeps entities tied by ALIAS_OF / CANDIDATE_ALIAS / WORKS_AT to a mentioned one.
    return delta.model_copy(
        update={"events": list(kept.values()), "links": moved, "deleted_events": list(keep_of)}
    )


def _with_vector(event: Event, filled: dict[str, Event]) -> Event:
    """The event with the vector the pass gave it, when it was stored without one."""
    if event.embedding is not None or event.id not in filled:
        return event
    return event.model_copy(update={"embedding": filled[event.id].embedding})


class _NameIndex:
    """The namespace's canonical entities by Chinese surname, first word and character pair, so
    alias targets are looked up among a few candidates instead of every entity."""

    def __init__(self, index: EntityIndex):
        self.index = index
        self.by_key: dict[str, set[str]] = defaultdict(set)
        for entity in index.canonical_entities():
            for key in self._keys(entity.name):
                self.by_key[key].add(entity.id)

    @staticmethod
    def _keys(name: str) -> set[str]:
        key = normalise_name(name)
        keys = {f"w:{key.split()[0]}"} if key.split() else set()
        keys |= {f"p:{key[i : i + 2]}" for i in range(len(key) - 1)}
        if key:
            keys.add(f"s:{key[0]}")
        if initials(name):
            keys.add(f"i:{initials(name)}")
        return keys

    def canonical(self, key: str) -> list:
        entities = self.index.entities
        return [
            entities[i]
            for i in sorted(self.by_key.get(key, ()))
            if i in entities and i not in self.index.canonical_of
        ]

    def persons_with_surname(self, surname: str) -> list:
        return [
            e for e in self.canonical(f"s:{surname}") if e.type == "person" and is_chinese_full_name(e.name)
        ]

    def longer_names(self, short: str) -> list:
        """Canonical entities whose name could have `short` as a short form (is_abbreviation)."""
        key = normalise_name(short)
        if not key:
            return []
        if initials_form(short):
            return [*self.canonical(f"w:{key}"), *self.canonical(f"i:{initials_form(short)}")]
        if is_latin(key):
            return self.canonical(f"w:{key.split()[0]}") if key.split() else []
        return self.canonical(f"p:{key[:2]}") if len(key) >= 2 else []


def _names_in_texts(names: Sequence[tuple[str, str, str]], events: Sequence[Event]) -> dict[str, set[str]]:
    """event id -> canonical ids whose name occurs in its text (name_occurs), by one automaton."""
    finder = NameFinder(names)
    found: dict[str, set[str]] = defaultdict(set)
    for event in events:
        for _name, canonical_id in finder.find(event.text):
            found[event.id].add(canonical_id)
    return found


def plan_aliases(store: GraphStore, namespace: str) -> GraphDelta:
    """The aliases found with the whole namespace in view, as a delta (reads only): entities made
    aliases, their mentions moved to the canonical entity, stale CANDIDATE_ALIAS links removed, and
    MENTIONS added where an event's text names a known entity it does not mention yet."""
    index = EntityIndex.load(store, namespace)
    events = {e.id: e for e in store.events(namespace, EventQuery(embeddings=False))}
    pairs, contrast_pairs = _mention_pairs(store, namespace)
    sessions_of: dict[str, set[str]] = defaultdict(set)
    for source, target in pairs:
        if source in events:
            sessions_of[target].add(events[source].session)
    resolver = EntityResolver(index)
    names = _NameIndex(index)
    stale: list[Link] = []
    for entity in sorted(index.canonical_entities(), key=lambda e: e.name):
        if entity.id in index.canonical_of or normalise_name(entity.name) in GENERIC_SPEAKERS:
            continue
        target = _strong_alias_target(entity, index, sessions_of, names)
        if target is not None and resolver.make_alias(entity.name, target, "global-pass"):
            stale.append(
                Link(kind=LinkKind.CANDIDATE_ALIAS, source=entity.id, target=target, namespace=namespace)
            )
    # A description set beside a name in a turn where the name was not known yet (the first turn
    # about a client, before any turn resolved it): with every name known, it is read now.
    turn_ids = sorted({s for e in events.values() for s in e.source_ids})
    turn_texts = {t.id: t.text for t in store.turns(namespace, TurnQuery(ids=turn_ids))}
    for event in sorted(events.values(), key=Event.log_order):
        sources = (turn_texts[s] for s in event.source_ids if s in turn_texts)
        for text in dict.fromkeys([event.text, *sources]):
            orgs = [(n, "org") for n, i in index.names_in(text) if index.entities[i].type == "org"]
            if orgs:
                resolver.appositions(text, orgs)
    result = resolver.result
    repointed, unpointed = mention_moves(
        result.repoint, read_mentions(store, namespace, [old for old, _canonical in result.repoint])
    )

    # The mentions as they stand once the moves are applied.
    moved_away = {(link.source, link.target) for link in unpointed}
    mentioned = defaultdict(set)
    written = [link for link in [*result.links, *repointed] if link.kind == LinkKind.MENTIONS]
    for source, target in [*pairs, *((link.source, link.target) for link in written)]:
        if (source, target) not in moved_away:
            mentioned[source].add(target)
    known = index.known_names()
    names_of: dict[str, list[str]] = defaultdict(list)  # canonical id -> its names, in known_names order
    for name, _type, canonical_id in known:
        names_of[canonical_id].append(name)
    occurring = _names_in_texts(known, list(events.values()))

    def mention(event: Event, canonical_id: str, role: str) -> Link:
        surface = _last_surface(names_of[canonical_id], event.text)
        return Link(
            kind=LinkKind.MENTIONS,
            source=event.id,
            target=canonical_id,
            namespace=namespace,
            props={"role": role, "surface": surface},
        )

    contrasts = {
        event.id: _contrasted_in(event, mentioned, occurring, names_of, index) for event in events.values()
    }
    added = [
        mention(event, canonical_id, CONTRAST_ROLE if canonical_id in contrasts[event.id] else "mention")
        for event in events.values()
        for canonical_id in sorted(occurring.get(event.id, ()))
        if canonical_id not in mentioned[event.id]
    ]
    # A mention made before the other name was known ("跟QL就差一个字" resolved before 栖澜 was a
    # name) is marked a contrast now that both are.
    remarked = [
        mention(event, canonical_id, CONTRAST_ROLE)
        for event in events.values()
        for canonical_id in sorted(contrasts[event.id])
        if canonical_id in mentioned[event.id] and (event.id, canonical_id) not in contrast_pairs
    ]
    found = list({(link.source, link.target): link for link in [*added, *remarked]}.values())
    return GraphDelta(
        namespace=namespace,
        entities=list(result.changed.values()),
        links=[*result.links, *repointed, *found],
        removed_links=[*stale, *unpointed],
        counts={"aliases": result.counts["aliases"], "mentions_added": len(found)},
    )


def _contrasted_in(
    event: Event,
    mentioned: dict[str, set[str]],
    occurring: dict[str, set[str]],
    names_of: dict[str, list[str]],
    index: EntityIndex,
) -> set[str]:
    """The firms the event's text names only as what another is not (see `contrasted`)."""
    if CONTRAST_MARKER.search(event.text) is None:
        return set()
    ids = mentioned[event.id] | occurring.get(event.id, set())
    at = {
        i: min((p for n in names_of.get(i, []) if (p := event.text.find(n)) >= 0), default=-1)
        for i in ids
        if i in index.entities
    }
    return contrasted(event.text, at, index.type_of)


def _mention_pairs(store: GraphStore, namespace: str) -> tuple[list[tuple[str, str]], set[tuple[str, str]]]:
    """(event, entity) of every MENTIONS link, and those of them that are contrasts: the links
    themselves (~1.5 KB each) are let go."""
    pairs, contrasts = [], set()
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS]):
        pairs.append((link.source, link.target))
        if link.props.get("role") == CONTRAST_ROLE:
            contrasts.add((link.source, link.target))
    return pairs, contrasts


def _last_surface(names: Sequence[str], text: str) -> str:
    """The last of an entity's names (in known_names order) that occurs in the text: the one the
    full scan kept (its later link replaced the earlier); its first name when none does."""
    return next((name for name in reversed(names) if name_occurs(name, text)), names[0])


def _strong_alias_target(
    entity, index: EntityIndex, sessions_of: dict[str, set[str]], names: _NameIndex
) -> str | None:
    """The one canonical entity this one is a form of, when the evidence is strong, else None."""
    surname = nickname_surname(entity.name)
    if surname and entity.type in ("person", "other"):
        people = names.persons_with_surname(surname)
        if len(people) != 1:
            return None
        person = people[0]
        shared_session = sessions_of.get(entity.id, set()) & sessions_of.get(person.id, set())
        shared_org = index.works_at.get(entity.id, set()) & index.works_at.get(person.id, set())
        return person.id if shared_session or shared_org else None
    if entity.type == "person" and not is_latin(entity.name):
        return None  # 邱敏 is not a short form of 邱敏刚: Chinese personal names only alias by nickname
    if entity.type in ("org", "other") and (initials_form(entity.name) or not is_latin(entity.name)):
        # PWL, CXW, 澄外: the one organisation the form abbreviates best (a tie: nobody).
        owner = index.abbreviated_org(entity.name)
        if owner is not None and owner != entity.id:
            return owner
    longer = [
        e
        for e in names.longer_names(entity.name)
        if e.id != entity.id and e.type in (entity.type, "other") and is_abbreviation(entity.name, e.name)
    ]
    return longer[0].id if len(longer) == 1 else None


def plan_decay(store: GraphStore, namespace: str, *, now: datetime, decay: DecayPolicy) -> GraphDelta:
    """The tier moves and archived tasks, as a delta (reads only): move events between the hot and
    cold tiers; count archive candidates; archive old done tasks.

    Ages are measured from the namespace's own clock: the earlier of `now` and its newest event.
    A conversation replayed or imported from 2023 keeps its last months hot instead of going cold
    all at once because the pass runs in 2026, and a namespace that falls silent keeps the working
    set it had; an event's age is the time since it happened or was last retrieved.

    Hot (searched first, `retrieve`): touched within `archive_days` (the seed's three months), or
    retrieved at least `hot_access_count` times, and at most `hot_limit` events (the seed keeps
    the hot tier at a few thousand): beyond it the often retrieved, then the most recently
    touched, stay hot. Cold: the rest, still found through the indexes. Beyond `archive_days`
    without access an event is also an archive candidate (kept, counted).

    Returns counts: tier_hot / tier_cold (events moved into each tier by this pass), hot_events /
    cold_events (tier sizes after it), tier_events (events aged), archive_candidates, tasks_archived. The
    moves are also recorded in the store's meta (`tier_pass_key`, in the same delta), which `stats`
    reports.
    """
    events = store.events(namespace, EventQuery(embeddings=False))
    reference = min(now, max((e.time for e in events), default=now))
    counts = {"tier_hot": 0, "tier_cold": 0, "archive_candidates": 0, "tasks_archived": 0}
    archived_tasks, hot_candidates = [], []
    for event in events:
        last_touch = max(event.time, event.last_accessed or event.time)
        age_days = (reference - last_touch).total_seconds() / 86400
        often_used = event.access_count >= decay.hot_access_count
        if age_days <= decay.archive_days or often_used:
            hot_candidates.append((often_used, last_touch, event.id))
        if age_days > decay.archive_days:
            counts["archive_candidates"] += 1
            if event.is_task and event.status == EventStatus.DONE:
                archived_tasks.append(event.id)
    hot = {event_id for *_, event_id in sorted(hot_candidates, reverse=True)[: decay.hot_limit]}
    moves: dict[str, list[str]] = defaultdict(list)
    for event in events:
        tier = "hot" if event.id in hot else "cold"
        if tier != event.tier:
            moves[tier].append(event.id)
    patches = []
    for tier, ids in moves.items():
        patches.append(EventPatch(ids=ids, fields={"tier": tier}))
        counts[f"tier_{tier}"] = len(ids)
    if archived_tasks:
        patches.append(EventPatch(ids=archived_tasks, fields={"status": EventStatus.ARCHIVED}))
        counts["tasks_archived"] = len(archived_tasks)
    counts.update(hot_events=len(hot), cold_events=len(events) - len(hot), tier_events=len(events))
    record = json.dumps(
        {
            "at": now.isoformat(),
            "reference": reference.isoformat(),
            "to_hot": counts["tier_hot"],
            "to_cold": counts["tier_cold"],
            "hot": counts["hot_events"],
            "cold": counts["cold_events"],
        }
    )
    return GraphDelta(
        namespace=namespace, event_patches=patches, meta={tier_pass_key(namespace): record}, counts=counts
    )


def tier_pass_key(namespace: str) -> str:
    """The store meta key holding the last tier pass of a namespace (what `stats` reports)."""
    return f"tier_pass/{namespace}"
