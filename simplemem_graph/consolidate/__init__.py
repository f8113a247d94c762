"""Stage 2, consolidation: weave freshly compressed events into the memory graph.

`consolidate` plans each ingest batch (incremental) as a `GraphDelta` that the ingest orchestrator
writes; `consolidate_pass` is the periodic global pass, each of its steps planned as a delta and
written in one transaction. Both read only through the `GraphStore` contract. See docs/consolidation.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from simplemem_graph.consolidate.calibration import EmbedderCalibration, calibrated, calibration_for
from simplemem_graph.consolidate.causal_links import link_causal
from simplemem_graph.consolidate.entities import EntityResolution, EntityResolver
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.focus import focus_from_stored, infer_subjects
from simplemem_graph.consolidate.global_pass import consolidate_pass
from simplemem_graph.consolidate.name_matching import GENERIC_SPEAKERS
from simplemem_graph.consolidate.questions import track_questions
from simplemem_graph.consolidate.similarity import content_terms
from simplemem_graph.consolidate.snapshot import Snapshot, gather, gather_entities, mention_moves
from simplemem_graph.consolidate.tasks import track_tasks
from simplemem_graph.consolidate.time_links import link_days, link_next, link_sources
from simplemem_graph.consolidate.topics import assign_topics
from simplemem_graph.consolidate.updates import (
    EXPLICIT_CHANGE,
    SUBJECT_MIN_CONTAINMENT,
    Conflict,
    change_subject,
    change_subject_text,
    detect_updates,
    list_conflicts,
)
from simplemem_graph.embedding import Embedder, stored_model
from simplemem_graph.errors import ConsolidationError, InputError, SimpleMemError
from simplemem_graph.models import (
    DEFAULT_NAMESPACE,
    Event,
    EventPatch,
    EventStatus,
    GraphDelta,
    Link,
    LinkKind,
)
from simplemem_graph.stores.base import GraphStore

__all__ = ["Conflict", "consolidate", "consolidate_pass", "list_conflicts"]


def consolidate(
    events: Sequence[Event],
    store: GraphStore,
    *,
    index: EntityIndex | None = None,
    embedder: Embedder | None = None,
    turns_done: Sequence[str] = (),
    namespace: str | None = None,
    calibration: EmbedderCalibration | None = None,
) -> GraphDelta:
    """Compute how new events weave into the graph: their entities, topics and links. Writes nothing.

    The store is only read, for context (the batch's sessions, its turns, its entities' storylines).
    The returned delta is applied by the caller in one transaction (`ingest.consolidate_batch` does,
    together with marking `turns_done` done), so a crash leaves the store as before the batch or as
    after it. `namespace` is needed only when `events` may be empty (a batch of chit-chat) and
    `turns_done` is not.

    Args:
        events: freshly compressed events of one namespace (embedded by stage 1; missing
            embeddings are filled in with `embedder` when one is given).
        store: where the graph lives; read for context, never written.
        index: the namespace's entity index, updated in place to hold what the delta writes (the
            caller may keep it for the next batch once the delta is written); default: read from
            the store.
        embedder: embeds entity names and events that lack a vector; optional.
        calibration: the cosine thresholds; default: the shipped set of the embedder's model (or
            of the model the store records, without an embedder).

    Returns:
        The GraphDelta to write, with counts: entities_new, aliases, candidate_aliases,
        works_at, implied_employer / implied_turn / implied_session / implied_pronoun (implied
        subjects, see focus.py), topics_new, MENTIONS, IN_TOPIC, ON, DUE, NEXT, CAUSES, SUPERSEDES,
        CONTRADICTS, tasks_done, tasks_archived, tasks_revived.

    Raises:
        InputError: the events belong to several namespaces, or a batch without events has
            turns to mark done but no namespace.
        ConsolidationError: anything failed; the message names the stage step and the cause.

    Example:
        >>> delta = consolidate(compress(turns, embedder=embedder), store, embedder=embedder)
        >>> store.apply_delta(delta)
    """
    namespaces = sorted({e.namespace for e in events})
    if len(namespaces) > 1:
        raise InputError(f"consolidate: one namespace per batch, got {namespaces}")
    if not events:
        # Pure chit-chat: nothing to weave in, but its turns are consumed all the same.
        if turns_done and namespace is None:
            raise InputError("consolidate: a batch without events needs `namespace` for its turns_done")
        return GraphDelta(namespace=namespace or DEFAULT_NAMESPACE, turns_done=list(turns_done))
    namespace = namespaces[0]
    try:
        if index is None:
            index = EntityIndex.load(store, namespace)
            index.revision = store.entity_revision(namespace)
        model = embedder.name if embedder is not None else stored_model(store)
        with calibrated(calibration or calibration_for(model)):
            delta = _consolidate(_with_embeddings(list(events), embedder), store, index, embedder)
        delta.turns_done = list(turns_done)
        return delta
    except SimpleMemError:
        raise
    except Exception as e:
        raise ConsolidationError(
            f"consolidate: failed on a batch of {len(events)} events in namespace {namespace!r}: {e}"
        ) from e


def _consolidate(
    events: list[Event], store: GraphStore, index: EntityIndex, embedder: Embedder | None
) -> GraphDelta:
    """Read the batch's snapshot in two steps (before and after its names are resolved), then weave
    it in without touching the store."""
    snapshot = gather(store, index.namespace, events)
    resolution, storyline_entities = _resolve(events, snapshot, index, embedder)
    gather_entities(store, snapshot, storyline_entities, [old for old, _canonical in resolution.repoint])
    return _weave(events, snapshot, index, resolution, storyline_entities)


def _resolve(
    events: list[Event], snapshot: Snapshot, index: EntityIndex, embedder: Embedder | None
) -> tuple[EntityResolution, set[str]]:
    """The batch's entities (updating `index` in place), with the subjects its events imply, and
    the entities whose storylines the batch joins."""
    resolver = EntityResolver(index, session_entities=snapshot.session_entities, embedder=embedder)
    resolution = resolver.resolve(events, snapshot.turn_texts)
    ties: list[Link] = []
    resolution.counts.update(
        infer_subjects(
            events,
            resolution.mentions,
            index,
            turn_texts=snapshot.turn_texts,
            stored_focus=lambda session: focus_from_stored(
                snapshot.session_events(session), snapshot.recent_mentions, index
            ),
            ties=ties,
        )
    )
    resolution.links += ties
    resolution.counts["works_at"] += len(ties)
    storyline_entities = {
        i
        for ids in resolution.mentions.values()
        for i in ids
        if index.entities[i].name.strip().lower() not in GENERIC_SPEAKERS
    }
    return resolution, storyline_entities


def _weave(
    events: list[Event],
    snapshot: Snapshot,
    index: EntityIndex,
    resolution: EntityResolution,
    storyline_entities: set[str],
) -> GraphDelta:
    """The batch's delta, computed from the snapshot alone."""
    namespace = index.namespace
    links: list[Link] = resolution.links + [
        Link(kind=LinkKind.MENTIONS, source=event_id, target=entity, namespace=namespace, props=props)
        for event_id, mentioned in resolution.mentions.items()
        for entity, props in mentioned.items()
    ]
    topics = assign_topics(events, snapshot.topics)
    links += topics.links + link_sources(events) + link_days(events)
    next_links, unlinked = link_next(
        events,
        session_chain=snapshot.session_events,
        entity_chain=snapshot.storyline,
        mentions=resolution.mentions,
        storyline_entities=storyline_entities,
    )
    links += next_links
    links += link_causal(events, {s: snapshot.session_tail(s) for s in {e.session for e in events}})

    earlier, shared = _earlier_related(events, snapshot, resolution.mentions, storyline_entities)
    updates = detect_updates(events, earlier, shared)
    tasks = track_tasks(events, {i: [e for e in related if e.is_task] for i, related in earlier.items()})
    links += updates.links
    questions = track_questions(events, earlier)

    # Status changes land on the batch's own events before they are written, and on stored ones after.
    status = {**tasks.status, **dict.fromkeys(updates.superseded, EventStatus.SUPERSEDED)}
    batch = {e.id: e for e in events}
    for event_id, new_status in status.items():
        if event_id in batch:
            update = {"status": new_status}
            if event_id in updates.superseded:
                update["valid_to"] = updates.superseded[event_id]
            batch[event_id] = batch[event_id].model_copy(update=update)
    repointed, unpointed = mention_moves(resolution.repoint, snapshot.mentions_of)
    for event_id, slots in questions.batch.items():
        if slots or batch[event_id].open_slots:
            batch[event_id] = batch[event_id].model_copy(update={"open_slots": slots})
    stored_changes: dict[tuple, list[str]] = defaultdict(list)
    for event_id, new_status in status.items():
        if event_id not in batch:
            stored_changes[(new_status, updates.superseded.get(event_id))].append(event_id)
    patches = [
        EventPatch(ids=ids, fields={"status": new_status, **({"valid_to": valid_to} if valid_to else {})})
        for (new_status, valid_to), ids in stored_changes.items()
    ]
    # A later turn filled a slot: the earlier event's question closes in this batch's transaction.
    patches += [EventPatch(ids=[i], fields={"open_slots": slots}) for i, slots in questions.stored.items()]

    counts = {
        "events": len(events),
        "topics_new": topics.opened,
        **resolution.counts,
        **updates.counts,
        **tasks.counts,
        **questions.counts,
    }
    for kind in (
        LinkKind.FROM,
        LinkKind.MENTIONS,
        LinkKind.IN_TOPIC,
        LinkKind.ON,
        LinkKind.DUE,
        LinkKind.NEXT,
        LinkKind.CAUSES,
        LinkKind.ALIAS_OF,
        LinkKind.CANDIDATE_ALIAS,
        LinkKind.WORKS_AT,
    ):
        counts[kind.value] = sum(1 for link in links if link.kind == kind)
    for key in ("entities_new", "aliases", "candidate_aliases", "works_at"):
        counts.setdefault(key, 0)
    return GraphDelta(
        namespace=namespace,
        events=list(batch.values()),
        entities=list(resolution.changed.values()),
        topics=list(topics.topics.values()),
        links=links + repointed,
        removed_links=unpointed + unlinked,
        event_patches=patches,
        counts=counts,
        entity_revision=index.revision,
    )


def _earlier_related(
    events: list[Event],
    snapshot: Snapshot,
    mentions: dict[str, dict[str, dict[str, str]]],
    storyline_entities: set[str],
) -> tuple[dict[str, list[Event]], set[tuple[str, str]]]:
    """Per new event: earlier events (stored or in this batch) sharing a storyline entity or its
    session; for an explicit change, also those whose text names what it changes (fulltext index).

    Also returns the (new id, earlier id) pairs that share a storyline entity, not just the session.
    """
    related: dict[str, list[Event]] = {}
    shared: set[tuple[str, str]] = set()
    seen_in_batch: list[Event] = []
    terms: dict[str, frozenset[str]] = {}

    def terms_of(event: Event) -> frozenset[str]:
        if event.id not in terms:
            terms[event.id] = content_terms(event.text)
        return terms[event.id]

    for event in sorted(events, key=lambda e: e.time):
        entities = set(mentions.get(event.id, {})) & storyline_entities
        pool: dict[str, Event] = {e.id: e for e in snapshot.session_events(event.session)}
        for entity in sorted(entities):
            for earlier in snapshot.storyline(entity):
                pool[earlier.id] = earlier
                shared.add((event.id, earlier.id))
        subject = change_subject_text(event) if EXPLICIT_CHANGE.search(event.text) else ""
        for earlier in snapshot.lexically_related(subject) if subject else ():
            pool.setdefault(earlier.id, earlier)
        named = change_subject(event) if subject else set()
        for earlier in seen_in_batch:
            common = entities & set(mentions.get(earlier.id, {}))
            if earlier.session == event.session or common or (named and _names(terms_of(earlier), named)):
                pool[earlier.id] = earlier
            if common:
                shared.add((event.id, earlier.id))
        # Only what happened before: an event written late (another agent, an older log) must not
        # supersede what came after it.
        related[event.id] = sorted((e for e in pool.values() if e.time <= event.time), key=lambda e: e.time)
        seen_in_batch.append(event)
    return related, shared


def _names(terms: AbstractSet[str], subject: AbstractSet[str]) -> bool:
    """Text terms that name a change's subject as much as `detect_updates` will ask."""
    return len(terms & subject) >= SUBJECT_MIN_CONTAINMENT * len(subject)


def _with_embeddings(events: list[Event], embedder: Embedder | None) -> list[Event]:
    missing = [i for i, e in enumerate(events) if e.embedding is None]
    if not missing or embedder is None:
        return events
    vectors = embedder.encode([events[i].text for i in missing])
    for i, vector in zip(missing, vectors, strict=True):
        events[i] = events[i].model_copy(update={"embedding": vector.tolist()})
    return events
