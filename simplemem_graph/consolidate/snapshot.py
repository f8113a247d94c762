"""What consolidation reads from the store for one batch, gathered before it computes: recent events
of the batch's sessions and who they mention, the raw turns the events came from, the topics the
batch can join, the stored events an explicit change may revise, and (once the batch's names are
resolved) the storylines of its entities and the mentions to move to a canonical entity.

`gather` and `gather_entities` are the only two steps that read; everything consolidation computes
from the `Snapshot` touches no store. Every read is an indexed look-up bounded by the batch (its
sessions, its turns, its entities and a fixed tail of each), never a scan of the namespace: the cost
of a batch does not grow with the store."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from simplemem_graph.consolidate.topics import candidate_topics
from simplemem_graph.consolidate.updates import EXPLICIT_CHANGE, change_subject_text
from simplemem_graph.models import Event, Link, LinkKind, Topic
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, StorylineTails, TextQuery, TurnQuery

# A session is one conversation: its earlier events are looked up this far back from the batch.
RECENT_DAYS = 7
STORYLINE_LIMIT = 200  # newest events of an entity's storyline compared with a new event
SESSION_LIMIT = 200  # newest events of a session read as its recent context


# Earlier events fetched by text for one explicit change: the plan it revises is among the best
# few lexical matches of its subject; more would only add look-alikes to compare.
LEXICAL_LIMIT = 10


@dataclass
class Snapshot:
    """The stored graph around a batch of new events: read-only data, no store."""

    namespace: str
    batch_ids: set[str]
    recent: list[Event]  # earlier events of the batch's sessions, oldest first
    turn_texts: dict[str, str]  # turn id -> raw text, for the batch's source turns
    session_entities: dict[str, set[str]]  # session -> entities its recent events mention
    # event id -> entity id -> MENTIONS props, for the recent session events (the session focus)
    recent_mentions: dict[str, dict[str, dict]]
    topics: list[Topic]  # the stored topics the batch can join
    lexical: dict[str, list[Event]]  # change subject -> stored events whose text matches it best
    # Filled by `gather_entities` once names are resolved:
    storylines: dict[str, list[Event]] = field(default_factory=dict)  # entity -> its newest events
    mentions_of: dict[str, list[Link]] = field(default_factory=dict)  # entity -> MENTIONS links to it

    def session_events(self, session: str) -> list[Event]:
        return [e for e in self.recent if e.session == session]

    def session_tail(self, session: str) -> Event | None:
        events = self.session_events(session)
        return events[-1] if events else None

    def storyline(self, entity_id: str) -> list[Event]:
        """Stored events mentioning the entity or its aliases (any status), oldest first: the
        newest STORYLINE_LIMIT of them (gathered by `gather_entities`)."""
        return self.storylines.get(entity_id, [])

    def storyline_tail(self, entity_id: str) -> Event | None:
        events = self.storyline(entity_id)
        return events[-1] if events else None

    def lexically_related(self, subject: str) -> list[Event]:
        """Stored events whose text matches an explicit change's subject best (the store's
        fulltext index), for a change whose subject ("见房东改到5月21号") is no entity and was said
        in another session than the plan it revises."""
        return self.lexical.get(subject, [])


def change_subjects(events: Sequence[Event]) -> list[str]:
    """The subject text of every explicit change in the batch, each once, in order."""
    subjects = (change_subject_text(e) for e in events if EXPLICIT_CHANGE.search(e.text))
    return list(dict.fromkeys(s for s in subjects if s.strip()))


def gather(store: GraphStore, namespace: str, events: Sequence[Event]) -> Snapshot:
    """Read what the batch needs before its names are resolved."""
    batch_ids = {e.id for e in events}
    sessions = {e.session for e in events}
    since = min(e.time for e in events).date() - timedelta(days=RECENT_DAYS)
    stored = store.events(namespace, EventQuery(sessions=sorted(sessions), since=since, limit=SESSION_LIMIT))
    recent = sorted((e for e in stored if e.id not in batch_ids), key=lambda e: e.time)
    turn_ids = sorted({s for e in events for s in e.source_ids})
    turn_texts = {t.id: t.text for t in store.turns(namespace, TurnQuery(ids=turn_ids))}
    session_entities: dict[str, set[str]] = defaultdict(set)
    recent_mentions: dict[str, dict[str, dict]] = defaultdict(dict)
    session_of = {e.id: e.session for e in recent}
    if session_of:
        for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=sorted(session_of)):
            if link.source in session_of:
                session_entities[session_of[link.source]].add(link.target)
                recent_mentions[link.source][link.target] = link.props
    # One fulltext query per explicit change (the store has no batched fulltext), one read for all
    # the events they hit.
    hits = {
        subject: [
            h.id
            for h in store.text_search(namespace, TextQuery(subject, LEXICAL_LIMIT))
            if h.id not in batch_ids
        ]
        for subject in change_subjects(events)
    }
    wanted = sorted({i for ids in hits.values() for i in ids})
    found = {e.id: e for e in store.events(namespace, EventQuery(ids=wanted))} if wanted else {}
    lexical = {subject: [found[i] for i in ids if i in found] for subject, ids in hits.items()}
    return Snapshot(
        namespace=namespace,
        batch_ids=batch_ids,
        recent=recent,
        turn_texts=turn_texts,
        session_entities=session_entities,
        recent_mentions=recent_mentions,
        topics=candidate_topics(store, namespace, events),
        lexical=lexical,
    )


def gather_entities(
    store: GraphStore, snapshot: Snapshot, storyline_entities: set[str], moved: Sequence[str]
) -> None:
    """Read what the batch needs once its names are resolved: the storylines of its entities (one
    store call for all) and the MENTIONS links of entities that turned out to be aliases (`moved`),
    which are repointed to the canonical entity."""
    wanted = sorted(set(storyline_entities) - set(snapshot.storylines))
    if wanted:
        # The batch's own events may already be stored (a re-run): read enough to drop them.
        tails = store.events(
            snapshot.namespace, StorylineTails(wanted, limit=STORYLINE_LIMIT + len(snapshot.batch_ids))
        )
        for entity_id in wanted:
            events = [e for e in tails.get(entity_id, []) if e.id not in snapshot.batch_ids]
            snapshot.storylines[entity_id] = events[-STORYLINE_LIMIT:]
    snapshot.mentions_of.update(
        read_mentions(store, snapshot.namespace, set(moved) - set(snapshot.mentions_of))
    )


def read_mentions(store: GraphStore, namespace: str, entity_ids: Iterable[str]) -> dict[str, list[Link]]:
    """entity id -> the MENTIONS links that point at it, in one store call."""
    wanted = sorted(set(entity_ids))
    if not wanted:
        return {}
    links = store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=wanted)
    return {entity_id: [link for link in links if link.target == entity_id] for entity_id in wanted}


def mention_moves(
    moves: Sequence[tuple[str, str]], mentions_of: Mapping[str, Sequence[Link]]
) -> tuple[list[Link], list[Link]]:
    """The MENTIONS links to add and to remove so that mentions of each old entity point at its
    canonical one, given the links that point at each old entity (`read_mentions`)."""
    added: list[Link] = []
    removed: list[Link] = []
    for old, canonical in moves:
        links = list(mentions_of.get(old, ()))
        added += [link.model_copy(update={"target": canonical}) for link in links]
        removed += links
    return added, removed
