"""Re-derive, in the global pass, what an incremental step infers from arrival order: entities,
implied subjects and NEXT chains. After the pass the graph is a function of the turns, not of the
order several writers happened to deliver them in.

Entities: ingest resolves each batch against the entities known when it arrives, so the first
mention seen fixes a name's type ("Pride" a person, or an organisation), and a short form seen
before or after its full name becomes an alias or its own entity. With several writers, batches
arrive in any order. The global pass resolves every event again, in time order (turn, then clause on
ties), from an empty index, a session's run of events at a time as ingest batches them, and makes
the stored entities, their types and aliases, ALIAS_OF / CANDIDATE_ALIAS / WORKS_AT and the
explicit MENTIONS what that resolution gives: what one writer in time order would have built.
Mentions a merged duplicate brought (`merged_from`) are kept, pointed at what their surface names.

Implied subjects:
During ingest, an event's implied MENTIONS (see focus.py: employer, turn, session focus,
pronoun) are inferred from what the store knew when its batch arrived. With several writers,
or an old log imported late, a session can be consolidated before the session where a person's
employer is stated, and the inference differs from a run in time order. The global pass re-infers
them from the final state: each session's events in time order, their explicit mentions, every
WORKS_AT link, and the raw turns; then it removes the implied links that no longer hold and adds
the missing ones, in one delta. Explicit mentions (a name in the text) are never touched.

NEXT chains: every session's events and every storyline entity's events (its MENTIONS, implied
ones included, generic speakers excluded) in event-time order; NEXT links that are in no chain go,
missing ones are added. The incremental step already inserts late events by time
(`time_links.link_next`); this catches chains whose membership changed afterwards.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import timedelta

from simplemem_graph.consolidate.entities import EntityResolver
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.focus import SessionFocus, infer_subjects
from simplemem_graph.consolidate.name_matching import GENERIC_SPEAKERS
from simplemem_graph.consolidate.questions import track_questions
from simplemem_graph.consolidate.snapshot import LEXICAL_LIMIT, RECENT_DAYS, SESSION_LIMIT, STORYLINE_LIMIT
from simplemem_graph.consolidate.tasks import track_tasks
from simplemem_graph.consolidate.time_links import chain_order, next_link
from simplemem_graph.consolidate.updates import EXPLICIT_CHANGE, change_subject_text, detect_updates
from simplemem_graph.embedding import Embedder
from simplemem_graph.models import Event, EventPatch, EventStatus, GraphDelta, Link, LinkKind
from simplemem_graph.stores.base import ENTITY_INDEX_LINKS, GraphStore
from simplemem_graph.stores.queries import (
    EntityQuery,
    EventQuery,
    EventVectors,
    RecallFilter,
    TextQuery,
    TurnQuery,
)

RESOLVE_CHUNK = 64  # events resolved together at most (ingest's batch): one session's run at a time


def plan_entities(store: GraphStore, namespace: str, embedder: Embedder | None = None) -> GraphDelta:
    """Resolve every event's names again in time order; make the stored entity layer match.

    Returns entities_changed, entities_deleted (made only by an earlier arrival order),
    entity_links_added / entity_links_removed (ALIAS_OF, CANDIDATE_ALIAS, WORKS_AT),
    mentions_rederived_added / mentions_rederived_removed (explicit MENTIONS).
    """
    events = sorted(
        store.events(namespace, EventQuery(embeddings=False)), key=Event.log_order
    )
    stored = {e.id: e for e in store.entities(namespace, EntityQuery())}
    if not events:
        return GraphDelta(namespace=namespace, counts={"entities_changed": 0})
    # Name vectors depend on the name only (one model per store): reuse the stored ones.
    vectors = {e.name: list(e.embedding) for e in stored.values() if e.embedding}
    turn_ids = sorted({s for e in events for s in e.source_ids})
    turn_texts = {t.id: t.text for t in store.turns(namespace, TurnQuery(ids=turn_ids))}
    index = EntityIndex(namespace)
    session_entities: dict[str, set[str]] = defaultdict(set)
    mentions: dict[str, dict[str, dict]] = {}
    entity_links: dict[tuple, Link] = {}
    resolved: list[Event] = []
    last_org: dict[str, str] = {}
    for chunk in _session_runs(events):
        resolver = EntityResolver(
            index,
            session_entities=session_entities,
            embedder=embedder,
            name_vectors=vectors,
            profiles=_profiles(resolved[-RESOLVE_CHUNK:], mentions, index),
            last_org=last_org,
        )
        result = resolver.resolve(chunk, turn_texts)
        session_entities = resolver.session_entities
        mentions.update(result.mentions)
        resolved += chunk
        for link in result.links:
            entity_links.setdefault((link.kind, link.source, link.target), link)

    wanted: dict[tuple[str, str], Link] = {}
    for event_id, mentioned in mentions.items():
        for entity, props in mentioned.items():
            key = (event_id, index.canonical(entity))
            if key not in wanted or wanted[key].props.get("role") == "mention":
                wanted[key] = Link(
                    kind=LinkKind.MENTIONS, source=key[0], target=key[1], namespace=namespace, props=props
                )
    present = [
        link for link in store.links(namespace, kinds=[LinkKind.MENTIONS])
        if link.props.get("role") != "implied"
    ]  # fmt: skip
    for link in present:  # a merged copy's mentions: the copy is gone, what it named is not
        if link.props.get("merged_from"):
            named = index.lookup(link.props.get("surface", ""))
            key = (link.source, named[0] if named else link.target)
            wanted.setdefault(key, link.model_copy(update={"target": key[1]}))
    mentions_removed, mentions_added = _replace(present, wanted)
    links_removed, links_added = _replace(
        store.links(namespace, kinds=sorted(ENTITY_INDEX_LINKS)),
        {(link.kind, link.source, link.target): link for link in entity_links.values()},
        key=lambda link: (link.kind, link.source, link.target),
    )
    changed = [
        entity
        for entity in index.entities.values()
        if entity.id not in stored or _entity_fields(stored[entity.id]) != _entity_fields(entity)
    ]
    # An entity only an earlier arrival order made (a candidate, a form resolved otherwise since)
    # goes with every link to it (implied mentions and storylines too, re-derived next).
    stale = sorted(set(stored) - set(index.entities))
    return GraphDelta(
        namespace=namespace,
        entities=changed,
        links=links_added + mentions_added,
        removed_links=links_removed + mentions_removed,
        deleted_entities=stale,
        counts={
            "entities_changed": len(changed),
            "entities_deleted": len(stale),
            "entity_links_added": len(links_added),
            "entity_links_removed": len(links_removed),
            "mentions_rederived_added": len(mentions_added),
            "mentions_rederived_removed": len(mentions_removed),
        },
    )


def _profiles(
    recent: list[Event], mentions: dict[str, dict[str, dict]], index: EntityIndex
) -> dict[str, list[str]]:
    """What the events just before a chunk say about each organisation they mention: ingest's batch
    holds the turns before an event as well, whose descriptions ("苏州那家") it resolves by them."""
    profiles: dict[str, list[str]] = defaultdict(list)
    for event in recent:
        for entity in mentions.get(event.id, {}):
            canonical = index.canonical(entity)
            if index.entities[canonical].type == "org":
                profiles[canonical].append(event.text)
    return profiles


def _session_runs(events: list[Event]) -> list[list[Event]]:
    """Consecutive events of one session, at most RESOLVE_CHUNK at a time."""
    runs: list[list[Event]] = []
    for event in events:
        if runs and runs[-1][-1].session == event.session and len(runs[-1]) < RESOLVE_CHUNK:
            runs[-1].append(event)
        else:
            runs.append([event])
    return runs


def _replace(present: list[Link], wanted: dict, key=lambda link: (link.source, link.target)):
    """(to remove, to add) so that the present links become the wanted ones, properties included."""
    by_key = {key(link): link for link in present}
    removed = [link for k, link in by_key.items() if k not in wanted]
    added = [link for k, link in wanted.items() if k not in by_key or by_key[k].props != link.props]
    return removed, added


def _entity_fields(entity) -> tuple:
    return (entity.name, entity.type, list(entity.aliases), entity.embedding is not None)


def plan_implied_mentions(store: GraphStore, namespace: str) -> GraphDelta:
    """Recompute every implied MENTIONS link of a namespace; return implied_added / implied_removed."""
    events = sorted(
        store.events(namespace, EventQuery(embeddings=False)), key=Event.log_order
    )
    if not events:
        return GraphDelta(namespace=namespace, counts={"implied_added": 0, "implied_removed": 0})
    index = EntityIndex.load(store, namespace)
    explicit: dict[str, dict[str, dict]] = defaultdict(dict)
    implied_now: dict[tuple[str, str], Link] = {}
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS]):
        if link.props.get("role") == "implied":
            implied_now[(link.source, link.target)] = link
        else:
            explicit[link.source][link.target] = dict(link.props)
    turn_ids = sorted({s for e in events for s in e.source_ids})
    turn_texts = {t.id: t.text for t in store.turns(namespace, TurnQuery(ids=turn_ids))}
    # One call for every session: infer_subjects keeps each session's focus apart, and builds its
    # organisation-name automaton once (once per session made the step O(sessions x entities)).
    mentions = {e.id: dict(explicit.get(e.id, {})) for e in events}
    ties: list[Link] = []
    infer_subjects(
        events, mentions, index, turn_texts=turn_texts, stored_focus=lambda _s: SessionFocus(), ties=ties
    )
    wanted: dict[tuple[str, str], Link] = {
        (event_id, entity): Link(
            kind=LinkKind.MENTIONS, source=event_id, target=entity, namespace=namespace, props=props
        )
        for event_id, mentioned in mentions.items()
        for entity, props in mentioned.items()
        if props.get("role") == "implied"
    }
    removed = [link for key, link in implied_now.items() if key not in wanted]
    added = [
        link for key, link in wanted.items() if key not in implied_now or implied_now[key].props != link.props
    ]
    # An explicit mention of the same pair wins: never replace it by an implied one.
    added = [link for link in added if link.target not in explicit.get(link.source, {})]
    # People and suppliers the focus ties (WORKS_AT) are kept: the index had every earlier tie, so
    # these are the new ones.
    counts = {"implied_added": len(added), "implied_removed": len(removed), "works_at_added": len(ties)}
    return GraphDelta(namespace=namespace, links=added + ties, removed_links=removed, counts=counts)


def plan_next_chains(store: GraphStore, namespace: str) -> GraphDelta:
    """Rebuild NEXT from the session chains and the entity storylines; return next_added / next_removed."""
    events = {e.id: e for e in store.events(namespace, EventQuery(embeddings=False))}
    if not events:
        return GraphDelta(namespace=namespace, counts={"next_added": 0, "next_removed": 0})
    names = {e.id: e.name for e in store.entities(namespace, EntityQuery())}
    chains: dict[str, list] = defaultdict(list)
    for event in events.values():
        chains[f"session:{event.session}"].append(event)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS]):
        name = names.get(link.target)
        if link.source in events and name is not None and name.strip().lower() not in GENERIC_SPEAKERS:
            chains[f"entity:{link.target}"].append(events[link.source])
    wanted: dict[tuple[str, str], Link] = {}
    # Session chains first: a pair linked by both scopes keeps the session scope, as in link_next.
    for scope in sorted(chains, key=lambda s: (not s.startswith("session:"), s)):
        members = sorted({e.id: e for e in chains[scope]}.values(), key=chain_order)
        for earlier, later in itertools.pairwise(members):
            wanted.setdefault((earlier.id, later.id), next_link(earlier, later, scope))
    present = {(lk.source, lk.target): lk for lk in store.links(namespace, kinds=[LinkKind.NEXT])}
    removed = [link for key, link in present.items() if key not in wanted]
    added = [link for key, link in wanted.items() if key not in present or present[key].props != link.props]
    counts = {"next_added": len(added), "next_removed": len(removed)}
    return GraphDelta(namespace=namespace, links=added, removed_links=removed, counts=counts)


def plan_updates(store: GraphStore, namespace: str) -> GraphDelta:
    """Re-derive SUPERSEDES / CONTRADICTS, the statuses updates and task words set, and open
    questions, in time order.

    Ingest compares each new event with the earlier events stored when it arrives: an event that
    arrives after a later one (another writer, an older log) is never revised by it, and a task's
    status depends on which of its updates came first. Here every event is compared, in time
    order, with the earlier events ingest would have compared it with (its session's last days, its
    storylines' tails, what its text names for an explicit change), from every event active. The
    links become what that gives; statuses, `valid_to` and `open_slots` follow. Returns
    updates_added / updates_removed (links), statuses_changed and open_slots_changed.
    """
    listed = store.events(namespace, EventQuery(embeddings=False))
    if not listed:
        return GraphDelta(
            namespace=namespace,
            counts={"updates_added": 0, "updates_removed": 0, "statuses_changed": 0, "open_slots_changed": 0},
        )
    vector_ids, matrix = store.events(namespace, EventVectors(statuses=None))
    row_of = {event_id: row for row, event_id in enumerate(vector_ids)}
    # Every event starts active, as compressed; the vectors are rows of one matrix (no float lists).
    base = {
        e.id: e.model_copy(
            update={
                "status": EventStatus.ACTIVE,
                "valid_to": None,
                "embedding": matrix[row_of[e.id]] if e.id in row_of else None,
            }
        )
        for e in listed
    }
    events = sorted(base.values(), key=Event.log_order)
    names = {e.id: e.name for e in store.entities(namespace, EntityQuery())}
    entities_of: dict[str, set[str]] = defaultdict(set)
    for link in store.links(namespace, kinds=[LinkKind.MENTIONS]):
        name = names.get(link.target)
        if link.source in base and name is not None and name.strip().lower() not in GENERIC_SPEAKERS:
            entities_of[link.source].add(link.target)
    related, shared = _earlier_in_time_order(store, namespace, events, entities_of, base)
    updates = detect_updates(events, related, shared)
    tasks = track_tasks(events, {i: [e for e in earlier if e.is_task] for i, earlier in related.items()})
    questions = track_questions(events, related)  # every event new: its open slots, as answered since

    kinds = [LinkKind.SUPERSEDES, LinkKind.CONTRADICTS]
    removed, added = _replace(
        store.links(namespace, kinds=kinds),
        {(link.kind, link.source, link.target): link for link in updates.links},
        key=lambda link: (link.kind, link.source, link.target),
    )
    wanted = {**tasks.status, **dict.fromkeys(updates.superseded, EventStatus.SUPERSEDED)}
    changes: dict[tuple, list[str]] = defaultdict(list)
    for event in listed:
        status = wanted.get(event.id, EventStatus.ACTIVE)
        valid_to = updates.superseded.get(event.id) if status == EventStatus.SUPERSEDED else None
        if (event.status, event.valid_to) != (status, valid_to):  # only updates set valid_to
            changes[(status, valid_to)].append(event.id)
    patches = [
        EventPatch(ids=ids, fields={"status": status, "valid_to": valid_to})
        for (status, valid_to), ids in changes.items()
    ]
    slots_changed: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for event in listed:
        slots = tuple(questions.batch.get(event.id, ()))
        if tuple(event.open_slots) != slots:
            slots_changed[slots].append(event.id)
    patches += [
        EventPatch(ids=ids, fields={"open_slots": list(slots)}) for slots, ids in slots_changed.items()
    ]
    counts = {
        "updates_added": len(added),
        "updates_removed": len(removed),
        "statuses_changed": sum(len(ids) for ids in changes.values()),
        "open_slots_changed": sum(len(ids) for ids in slots_changed.values()),
    }
    return GraphDelta(
        namespace=namespace, links=added, removed_links=removed, event_patches=patches, counts=counts
    )


def _earlier_in_time_order(
    store: GraphStore,
    namespace: str,
    events: list[Event],
    entities_of: dict[str, set[str]],
    by_id: dict[str, Event],
) -> tuple[dict[str, list[Event]], set[tuple[str, str]]]:
    """Per event (in time order): the earlier events ingest compares it with when the events arrive
    in time order (see `consolidate._earlier_related`), and the pairs that share a storyline entity."""
    related: dict[str, list[Event]] = {}
    shared: set[tuple[str, str]] = set()
    sessions: dict[str, list[Event]] = defaultdict(list)
    storylines: dict[str, list[Event]] = defaultdict(list)
    for event in events:
        since = event.time - timedelta(days=RECENT_DAYS)
        pool = {e.id: e for e in sessions[event.session][-SESSION_LIMIT:] if e.time >= since}
        for entity in sorted(entities_of.get(event.id, ())):
            for earlier in storylines[entity][-STORYLINE_LIMIT:]:
                pool[earlier.id] = earlier
                shared.add((event.id, earlier.id))
        subject = change_subject_text(event) if EXPLICIT_CHANGE.search(event.text) else ""
        if subject:
            # Every status: which events are active here must not depend on what ingest decided.
            hits = store.text_search(
                namespace, TextQuery(subject, 4 * LEXICAL_LIMIT, filter=RecallFilter(None))
            )
            earlier_hits = [by_id[h.id] for h in hits if h.id in by_id and by_id[h.id].time <= event.time]
            for earlier in earlier_hits[:LEXICAL_LIMIT]:
                pool.setdefault(earlier.id, earlier)
        pool.pop(event.id, None)
        related[event.id] = sorted((e for e in pool.values() if e.time <= event.time), key=lambda e: e.time)
        sessions[event.session].append(event)
        for entity in entities_of.get(event.id, ()):
            storylines[entity].append(event)
    return related, shared
