"""What consolidation reads from the store before linking a batch: recent events of the batch's
sessions, the raw turns the events came from, and entity storylines (read once per entity).

Every read is an indexed look-up bounded by the batch (its sessions, its turns, its entities and a
fixed tail of each), never a scan of the namespace: the cost of a batch does not grow with the
store (issue 11)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import timedelta

from simplemem_graph.models import Event, LinkKind
from simplemem_graph.stores.base import GraphStore
from simplemem_graph.stores.queries import EventQuery, StorylineTails, TextQuery, TurnQuery

# A session is one conversation: its earlier events are looked up this far back from the batch.
RECENT_DAYS = 7
STORYLINE_LIMIT = 200  # newest events of an entity's storyline compared with a new event
SESSION_LIMIT = 200  # newest events of a session read as its recent context


# Earlier events fetched by text for one explicit change: the plan it revises is among the best
# few lexical matches of its subject; more would only add look-alikes to compare.
LEXICAL_LIMIT = 10


class StoredContext:
    """Read-only view of the stored graph around a batch of new events."""

    def __init__(self, store: GraphStore, namespace: str, events: Sequence[Event]):
        self.store = store
        self.namespace = namespace
        batch_ids = {e.id for e in events}
        sessions = {e.session for e in events}
        since = min(e.time for e in events).date() - timedelta(days=RECENT_DAYS)
        stored = store.events(
            namespace, EventQuery(sessions=sorted(sessions), since=since, limit=SESSION_LIMIT)
        )
        self.recent = sorted((e for e in stored if e.id not in batch_ids), key=lambda e: e.time)
        turn_ids = sorted({s for e in events for s in e.source_ids})
        self.turn_texts = {t.id: t.text for t in store.turns(namespace, TurnQuery(ids=turn_ids))}
        self.session_entities: dict[str, set[str]] = defaultdict(set)
        # event id -> entity id -> MENTIONS props, for the recent session events (the session focus)
        self.recent_mentions: dict[str, dict[str, dict]] = defaultdict(dict)
        session_of = {e.id: e.session for e in self.recent}
        if session_of:
            for link in store.links(namespace, kinds=[LinkKind.MENTIONS], node_ids=sorted(session_of)):
                if link.source in session_of:
                    self.session_entities[session_of[link.source]].add(link.target)
                    self.recent_mentions[link.source][link.target] = link.props
        self._batch_ids = batch_ids
        self._storylines: dict[str, list[Event]] = {}

    def session_events(self, session: str) -> list[Event]:
        return [e for e in self.recent if e.session == session]

    def session_tail(self, session: str) -> Event | None:
        events = self.session_events(session)
        return events[-1] if events else None

    def prefetch_storylines(self, entity_ids: set[str]) -> None:
        """Read the storylines of all these entities in one store call."""
        wanted = sorted(set(entity_ids) - set(self._storylines))
        if wanted:
            # The batch's own events may already be stored (a re-run): read enough to drop them.
            tails = self.store.events(
                self.namespace, StorylineTails(wanted, limit=STORYLINE_LIMIT + len(self._batch_ids))
            )
            for entity_id in wanted:
                events = [e for e in tails.get(entity_id, []) if e.id not in self._batch_ids]
                self._storylines[entity_id] = events[-STORYLINE_LIMIT:]

    def storyline(self, entity_id: str) -> list[Event]:
        """Stored events mentioning the entity or its aliases (any status), oldest first: the
        newest STORYLINE_LIMIT of them."""
        self.prefetch_storylines({entity_id})
        return self._storylines[entity_id]

    def storyline_tail(self, entity_id: str) -> Event | None:
        events = self.storyline(entity_id)
        return events[-1] if events else None

    def lexically_related(self, text: str, k: int = LEXICAL_LIMIT) -> list[Event]:
        """Stored active events whose text matches `text` best (the store's fulltext index), for
        an explicit change whose subject ("见房东改到5月21号") is no entity and was said in another
        session than the plan it revises."""
        if not text.strip():
            return []
        hits = self.store.text_search(self.namespace, TextQuery(text, k))
        ids = [h.id for h in hits if h.id not in self._batch_ids]
        return self.store.events(self.namespace, EventQuery(ids=ids)) if ids else []
