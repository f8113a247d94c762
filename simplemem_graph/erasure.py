"""Erasure: `forget` an event, a turn, an entity or a whole namespace, leaving no copy of what was
said in the log, the graph, the indexes or a topic's description."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simplemem_graph.consolidate.global_pass import tier_pass_key
from simplemem_graph.consolidate.topics import TOPIC_KEYWORDS, event_keywords, label_from_keywords
from simplemem_graph.errors import (
    InputError,
    NotFoundError,
)
from simplemem_graph.models import (
    Event,
    GraphDelta,
    LinkKind,
    Topic,
    Turn,
)
from simplemem_graph.reranking import Reranking
from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter, TurnChange, TurnQuery
from simplemem_graph.text import is_latin
from simplemem_graph.vectors import unit


@dataclass
class Erasure:
    """What one `forget` call erased (or, with `dry_run`, would erase)."""

    namespace: str
    dry_run: bool = False
    everything: bool = False
    turns: list[dict[str, str]] = field(default_factory=list)  # {"id", "text"} (text before erasure)
    events: list[dict[str, str]] = field(default_factory=list)  # {"id", "text"}
    entities: list[str] = field(default_factory=list)  # canonical names
    entity_ids: list[str] = field(default_factory=list)
    event_count: int = 0

    def as_dict(self, *, texts: bool | None = None) -> dict[str, Any]:
        """JSON-ready; the texts are listed for a dry run only (unless `texts` says otherwise), so
        the report of an erasure does not carry what it erased."""
        texts = self.dry_run if texts is None else texts
        return {
            "namespace": self.namespace,
            "dry_run": self.dry_run,
            "everything": self.everything,
            "events_deleted": self.event_count,
            "turns_erased": len(self.turns),
            "entities": self.entities,
            "events": self.events if texts else [e["id"] for e in self.events],
            "turns": self.turns if texts else [t["id"] for t in self.turns],
        }


class Forgetting(Reranking):
    """What `forget` erases, and the erasing."""

    def forget(
        self,
        *,
        event_id: str | None = None,
        entity: str | None = None,
        turn_id: str | None = None,
        everything: bool = False,
        dry_run: bool = False,
    ) -> Erasure:
        """Erase what was said, so that nothing of it stays in the store: not in the raw log (its
        turns become tombstones that `rebuild` and a re-ingest of the same file honour), the
        events, their vectors, the fulltext indexes, the links, or a topic's keywords.

        - `event_id`: the event and the turns it was made from (an event restates its turns: the
          turns go, and with them every event made from them);
        - `turn_id`: the turn and every event made from it;
        - `entity` (a name or alias): every turn that names it (in its text or as its speaker),
          every event that mentions it, and the entity with its aliases' links;
        - `everything`: the whole namespace, raw log included.

        With `dry_run`, nothing is changed: the returned `Erasure` lists what would go.

        Raises:
            InputError: not exactly one of event_id, entity, turn_id, everything.
            NotFoundError: no such event, turn or entity in this namespace.
        """
        given = [
            x for x in (event_id, entity, turn_id, everything or None) if x is not None and x is not False
        ]
        if len(given) != 1:
            raise InputError("forget: give exactly one of event_id, entity, turn_id or everything=True")
        if everything:
            erasure = Erasure(namespace=self.namespace, dry_run=dry_run, everything=True)
            erasure.event_count = self.store.stats(self.namespace).get("events", 0)
            if not dry_run:
                self.store.delete_namespace(self.namespace)
                # The weights learned from the deleted feedback and the tier pass's record go too.
                meta = [self._reranker_key, tier_pass_key(self.namespace)]
                self.store.apply_delta(GraphDelta(namespace=self.namespace, deleted_meta=meta))
                self.store.scrub()
            return erasure
        erasure = self._erasure_plan(event_id=event_id, entity=entity, turn_id=turn_id, dry_run=dry_run)
        if not dry_run:
            with self._lease():  # no consolidation of this namespace writes meanwhile
                self._erase(erasure)
        return erasure

    def _erasure_plan(
        self, *, event_id: str | None, entity: str | None, turn_id: str | None, dry_run: bool
    ) -> Erasure:
        """The turns, events and entities one `forget` call erases."""
        erasure = Erasure(namespace=self.namespace, dry_run=dry_run)
        turns: list[Turn] = []
        events: list[Event] = []
        if event_id is not None:
            events = self.store.events(self.namespace, EventQuery(ids=[event_id]))
            if not events:
                raise NotFoundError(f"forget: no event {event_id!r} in namespace {self.namespace!r}")
            turns = self.store.turns(self.namespace, TurnQuery(ids=events[0].source_ids))
        elif turn_id is not None:
            turns = self.store.turns(self.namespace, TurnQuery(ids=[turn_id]))
            if not turns:
                raise NotFoundError(f"forget: no turn {turn_id!r} in namespace {self.namespace!r}")
        else:
            assert entity is not None
            matches = self.store.entities(self.namespace, EntityQuery(name=entity.strip()))
            if not matches:
                raise NotFoundError(f"forget: no entity named {entity!r} in namespace {self.namespace!r}")
            erasure.entities = sorted({m.name for m in matches})
            erasure.entity_ids = sorted({m.id for m in matches})
            events = self.store.events(
                self.namespace, EventQuery(entity_ids=erasure.entity_ids, filter=RecallFilter(None))
            )
            names = {n for m in matches for n in (m.name, *m.aliases)}
            named = _name_finder(names)
            sources = {source for e in events for source in e.source_ids}
            turns = [
                t
                for t in self.store.turns(self.namespace, TurnQuery())
                if t.id in sources or named(t.text) or named(t.speaker)
            ]
        # Every event made from an erased turn restates some of it: it goes too.
        turn_ids = sorted({t.id for t in turns})
        made = self.store.links(self.namespace, kinds=[LinkKind.FROM], node_ids=turn_ids) if turn_ids else []
        event_ids = {e.id for e in events} | {lk.source for lk in made if lk.target in set(turn_ids)}
        all_events = self.store.events(self.namespace, EventQuery(ids=sorted(event_ids)))
        erasure.turns = [{"id": t.id, "text": t.text} for t in sorted(turns, key=lambda t: (t.time, t.id))]
        erasure.events = [
            {"id": e.id, "text": e.text} for e in sorted(all_events, key=lambda e: (e.time, e.id))
        ]
        erasure.event_count = len(erasure.events)
        return erasure

    def _erase(self, erasure: Erasure) -> None:
        event_ids = [e["id"] for e in erasure.events]
        links = (
            self.store.links(
                self.namespace, kinds=[LinkKind.IN_TOPIC, LinkKind.EVIDENCED_BY], node_ids=event_ids
            )
            if event_ids
            else []
        )
        topics = sorted({lk.target for lk in links if lk.kind == LinkKind.IN_TOPIC})
        patterns = sorted({lk.source for lk in links if lk.kind == LinkKind.EVIDENCED_BY})
        # A pattern's text summarises its evidence: mined again by the global pass from what is left.
        # An entity's storyline is among `event_ids` (the plan read it): one delta takes the graph
        # part whole, then the raw log forgets the turns.
        self.store.apply_delta(
            GraphDelta(
                namespace=self.namespace,
                deleted_patterns=patterns,
                deleted_events=event_ids,
                deleted_entities=erasure.entity_ids,
            )
        )
        self.store.change_turns(self.namespace, TurnChange(forget=[t["id"] for t in erasure.turns]))
        self._redescribe_topics(topics)
        self.store.scrub()

    def _redescribe_topics(self, topic_ids: Sequence[str]) -> None:
        """Topics that lost members keep their other events, but their keywords, label and centroid
        were drawn from the erased ones too: recompute them from the members left."""
        if not topic_ids:
            return
        left = {t.id: t for t in self.store.topics(self.namespace) if t.id in set(topic_ids)}
        members: dict[str, list[str]] = {}
        for link in self.store.links(self.namespace, kinds=[LinkKind.IN_TOPIC], node_ids=list(left)):
            if link.target in left:
                members.setdefault(link.target, []).append(link.source)
        updated = [
            _describe_topic(
                topic, self.store.events(self.namespace, EventQuery(ids=members.get(topic.id, [])))
            )
            for topic in left.values()
        ]
        self.store.apply_delta(GraphDelta(namespace=self.namespace, topics=updated))


def _describe_topic(topic: Topic, members: Sequence[Event]) -> Topic:
    """A topic's keywords, label, centroid and size from its members alone (as the global pass
    describes a community)."""
    counts = Counter(k for e in members for k in event_keywords(e))
    keywords = [k for k, _ in counts.most_common(TOPIC_KEYWORDS)]
    vectors = [e.embedding for e in members if e.embedding is not None]
    centroid = unit(np.mean(np.asarray(vectors, dtype=np.float32), axis=0)) if vectors else None
    return topic.model_copy(
        update={
            "keywords": keywords,
            "label": label_from_keywords(keywords),
            "centroid": None if centroid is None else centroid.tolist(),
            "size": len(members),
        }
    )


def _name_finder(names: Iterable[str]) -> Callable[[str], bool]:
    """Whether a text names any of `names`, case-insensitively: as a whole word where a name is
    made of word characters at its ends in a script that separates words with spaces, anywhere in
    the text otherwise (Chinese has no spaces between words)."""
    patterns = []
    for name in sorted({n.strip() for n in names if n and n.strip()}):
        escaped = re.escape(name)
        if is_latin(name):
            escaped = r"(?<!\w)" + escaped + r"(?!\w)"
        patterns.append(escaped)
    if not patterns:
        return lambda text: False
    finder = re.compile("|".join(patterns), re.IGNORECASE)
    return lambda text: bool(text) and finder.search(text) is not None
