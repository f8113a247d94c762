"""Query objects: what a `GraphStore` read asks for, as one small frozen value per kind of answer.

A store has one public method per family of reads (`turns`, `events`, `entities`, `topics`,
`text_search`, `walk`); the query object says which read it is. Each family's base class carries
the type of its answer (`EventRead[list[Event]]`...), so `store.events(ns, EventQuery(ids=...))`
is typed `list[Event]` and `store.events(ns, StorylineTails(...))` `dict[str, list[Event]]`. A new
way to read is a new field or query class and a branch inside one store method, not a new method
of the contract.

Filters: reads (`EventQuery`) see every event unless given a `RecallFilter`; the recall channels
(`TextQuery`, `TurnRecall`, `RankedStorylines`, `GraphStore.vector_search`) keep active and done
events by default, as a search does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Generic, Literal, TypeVar

import numpy as np

from simplemem_graph.models import (
    DEFAULT_STATUSES,
    Entity,
    Event,
    Link,
    LinkKind,
    Neighbor,
    ScoredId,
    Turn,
    Walk,
)
from simplemem_graph.stores.helpers import in_date_range

# The type of a query's answer: a query class that answers a list of events answers a sequence.
R = TypeVar("R", covariant=True)


@dataclass(frozen=True)
class RecallFilter:
    """What every channel filters on: statuses (None: any) and an optional closed date range.

    An event passes the range when its `time` date, `deadline` or any of its `dates` falls in
    [time_from, time_to]; None means unbounded."""

    statuses: Sequence[str] | None = DEFAULT_STATUSES
    time_from: date | None = None
    time_to: date | None = None

    def unbounded(self) -> RecallFilter:
        return RecallFilter(self.statuses)

    def admits(self, event: Event) -> bool:
        """The stores' own filter, for events reached through links rather than a search."""
        if self.statuses is not None and str(event.status) not in self.statuses:
            return False
        return in_date_range(event, self.time_from, self.time_to)


# Every event, whatever its status or dates: what a plain read sees.
EVERY_EVENT = RecallFilter(None)
# Active and done events, any date: what a search sees unless told otherwise.
SEARCHED = RecallFilter()


# ---- the raw log: GraphStore.turns --------------------------------------------------------------
class TurnRead(Generic[R]):
    """A read of the raw log; `R` is the type of its answer."""


@dataclass(frozen=True)
class TurnQuery(TurnRead[list[Turn]]):
    """Turns, oldest first (time, then id).

    ids: only these (all of the namespace when None).
    pending: only turns not consolidated yet (`limit`: at most that many).
    chunk: the pending turns of the oldest pending chunk (the turns one `add_turns` call logged):
        consolidation takes a chunk at a time, so a batch is consolidated exactly as it was logged,
        whatever other writers logged in between."""

    ids: Sequence[str] | None = None
    pending: bool = False
    chunk: bool = False
    limit: int | None = None


@dataclass(frozen=True)
class SessionSpeakers(TurnRead[dict[str, list[str]]]):
    """The speakers of each session in the raw log, in order of their first turn."""

    sessions: Sequence[str]


@dataclass(frozen=True)
class FailedTurns(TurnRead[list[tuple[str, str, str]]]):
    """(namespace, turn id, error) of the turns set aside (of every namespace when the namespace
    asked is None)."""


@dataclass(frozen=True)
class PendingCount(TurnRead[int]):
    """How many logged turns wait for consolidation (of every namespace when the namespace asked
    is None): one count through the pending index, no turn read."""


@dataclass(frozen=True)
class TurnChange:
    """A change of turn states (`GraphStore.change_turns`); exactly one of:

    failed: set these pending turns aside, each with its error (turn id -> error): consolidation
        skips them, so one turn that cannot be consolidated never blocks the turns after it.
    retry: put the namespace's failed turns back in the pending queue.
    forget: erase these turns: text, speaker and agent go (also from the turn fulltext index) and a
        tombstone (id, session, time) stays, which reads and `add_turns` honour."""

    failed: dict[str, str] = field(default_factory=dict)
    retry: bool = False
    forget: Sequence[str] = ()


# ---- events: GraphStore.events ------------------------------------------------------------------
class EventRead(Generic[R]):
    """A read of events; `R` is the type of its answer."""


@dataclass(frozen=True)
class EventQuery(EventRead[list[Event]]):
    """Events that pass `filter`, chosen by at most one of:

    ids: these events, in the order asked (unknown ids left out).
    sessions: the newest `limit` (default 200) events of each session whose time is on or after
        `since`, oldest first.
    entity_ids: the events that MENTION any of the entities or their aliases (ALIAS_OF, either
        direction), oldest first: a storyline.
    open_questions: active events that still lack a key slot, newest first (at most `limit`),
        read through an index.
    none of them: every event of the namespace, oldest first.

    `embeddings=False` (every event of the namespace only) leaves every `embedding` None: a pass
    that does not compare vectors reads the events without 384 floats each (see `EventVectors`).
    Never write such an event back whole: it would clear its embedding."""

    ids: Sequence[str] | None = None
    sessions: Sequence[str] | None = None
    since: date | None = None
    entity_ids: Sequence[str] | None = None
    open_questions: bool = False
    limit: int | None = None
    filter: RecallFilter = EVERY_EVENT
    embeddings: bool = True


@dataclass(frozen=True)
class StorylineTails(EventRead[dict[str, list[Event]]]):
    """Per entity: the newest `limit` events (any status) that mention it or an alias, oldest
    first (the tail of its storyline)."""

    entity_ids: Sequence[str]
    limit: int = 200


@dataclass(frozen=True)
class RankedStorylines(EventRead[list[tuple[Event, list[int]]]]):
    """The storylines of a question's entities, ranked: the best `limit` events that MENTION the
    entities of any group (or their aliases), each with the indexes of the groups that name it, in
    `storyline_rank` order (named by more groups, then closer to `vector`, then oldest). A
    speaker's storyline can hold thousands of events: the store ranks them and returns the few a
    search keeps, in one round trip."""

    groups: Sequence[Sequence[str]]
    vector: Sequence[float] | np.ndarray
    limit: int
    filter: RecallFilter = SEARCHED


@dataclass(frozen=True)
class EventVectors(EventRead[tuple[list[str], np.ndarray]]):
    """The ids and embeddings of the events that have one (any status when `statuses` is None),
    oldest first: (ids, float32 unit rows, one per id). A pass comparing every event with its
    neighbours reads the vectors as one matrix, not as events holding lists of floats."""

    statuses: Sequence[str] | None = None


# ---- entities: GraphStore.entities --------------------------------------------------------------
class EntityRead(Generic[R]):
    """A read of entities; `R` is the type of its answer."""


@dataclass(frozen=True)
class EntityQuery(EntityRead[list[Entity]]):
    """Entities: every one of the namespace, or those whose canonical name or any alias equals
    `name` (case-insensitively), or those with a name or alias that starts with one of the
    characters `starting` (case-insensitively: what a shortened Chinese name can stand for)."""

    name: str | None = None
    starting: Sequence[str] | None = None


@dataclass(frozen=True)
class EntitiesNamed(EntityRead[dict[str, list[Entity]]]):
    """`EntityQuery(name=...)` for several names at once: name -> entities (names with no entity
    left out)."""

    names: Sequence[str]


# ---- topics: GraphStore.topics ------------------------------------------------------------------
@dataclass(frozen=True)
class TopicQuery:
    """Topics by id: every one (`centroids=False` leaves every `centroid` None), or, with `near`,
    those whose centroid is among the `k` nearest (cosine) to any of the vectors."""

    centroids: bool = True
    near: Sequence[Sequence[float]] | None = None
    k: int = 1


# ---- lexical search: GraphStore.text_search -----------------------------------------------------
class TextRead(Generic[R]):
    """A lexical search; `R` is the type of its answer."""


@dataclass(frozen=True)
class TextQuery(TextRead[list[ScoredId]]):
    """The top `k` by lexical relevance of their text to `text` (Chinese tokenised), best first.
    `text` is user text: it is never interpreted as query syntax.

    target "events": event ids, of the events that pass `filter`.
    target "turns": turn ids of the raw log (`filter` not applied): the raw log is the source of
        truth, so this channel sees every word that was said, whatever stage 1 kept."""

    text: str
    k: int
    target: Literal["events", "turns"] = "events"
    filter: RecallFilter = SEARCHED


@dataclass(frozen=True)
class TurnRecall(TextRead[list[Event]]):
    """The events made from the `k` turns most lexically relevant to `text`, through their FROM
    links, that pass `filter`: ordered by their best turn's rank, then by id, in one round trip.
    With `bare_turns`, a hit turn no event was made from comes back as a verbatim memory of the
    turn (`turn_memory`, id "turn-..."), at its rank."""

    text: str
    k: int
    filter: RecallFilter = SEARCHED
    bare_turns: bool = False


# ---- graph walks: GraphStore.walk ---------------------------------------------------------------
class WalkRead(Generic[R]):
    """A walk along links; `R` is the type of its answer."""


@dataclass(frozen=True)
class Walks(WalkRead[list[list[Neighbor]]]):
    """Association-chain completion: for each walk, on its own, the events reachable from the
    seeds within its `hops`. One step is an event-to-event link of its `kinds` (either direction)
    or, when MENTIONS is among them, Event-MENTIONS->Entity<-MENTIONS-Event. Seeds are not
    returned; each event comes once, at its shortest distance, nearest first, with the path of
    link names that reached it ("NEXT", "CAUSES", "MENTIONS <entity name>")."""

    seeds: Sequence[str]
    walks: Sequence[Walk]


@dataclass(frozen=True)
class SessionChains(WalkRead[dict[str, list[Event]]]):
    """Per event: up to `steps` events that follow it (or precede it) along NEXT links scoped to
    its session ("session:..." scope), nearest first, any status."""

    event_ids: Sequence[str]
    forward: bool
    steps: int = 8


@dataclass(frozen=True)
class Subgraph(WalkRead[tuple[list[Event], list[Link]]]):
    """The events of `ids` (as `EventQuery(ids=...)`) and the links of `kinds` whose two ends are
    both among them (sorted by kind, source, target): a search reads its candidate pool as a small
    subgraph, e.g. which candidate SUPERSEDES which."""

    ids: Sequence[str]
    kinds: Sequence[LinkKind]
