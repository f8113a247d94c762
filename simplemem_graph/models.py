"""Pure data shared by every stage and store: turns, events, entities, topics, links, hits.

Nothing here imports another module of ours, so any stage or store can depend on it.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_NAMESPACE = "default"


def stable_id(prefix: str, *parts: str) -> str:
    """A short deterministic id, so re-ingesting the same input writes the same nodes."""
    digest = hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{prefix}-{digest}"


class EventStatus(StrEnum):
    ACTIVE = "active"
    DONE = "done"
    ARCHIVED = "archived"
    SUPERSEDED = "superseded"


# What default retrieval sees; archived and superseded events are kept but only on request.
DEFAULT_STATUSES: tuple[str, ...] = (EventStatus.ACTIVE, EventStatus.DONE)
# Sessions whose turns are bookkeeping (a framework adapter's record lines: keys and values as
# JSON), logged as done and never compressed into memories, not even by `rebuild`.
RECORD_SESSION_PREFIX = "records:"


class LinkKind(StrEnum):
    FROM = "FROM"  # Event -> Turn (provenance)
    MENTIONS = "MENTIONS"  # Event -> Entity, props.role
    IN_TOPIC = "IN_TOPIC"  # Event -> Topic
    ON = "ON"  # Event -> Day (target id is the ISO date)
    DUE = "DUE"  # Event -> Day (deadline)
    NEXT = "NEXT"  # Event -> Event, props.scope = "session:<id>" | "entity:<id>"
    CAUSES = "CAUSES"  # Event -> Event, props.marker
    SUPERSEDES = "SUPERSEDES"  # newer Event -> older Event
    CONTRADICTS = "CONTRADICTS"  # newer Event -> older Event, unresolved
    ALIAS_OF = "ALIAS_OF"  # Entity -> canonical Entity
    CANDIDATE_ALIAS = "CANDIDATE_ALIAS"  # Entity -> Entity, weak evidence: never merged
    WORKS_AT = "WORKS_AT"  # person Entity -> org Entity
    EVIDENCED_BY = "EVIDENCED_BY"  # Pattern -> Event: an event the regularity was counted from


# Links between two events: the ones association chains walk over.
EVENT_LINKS: tuple[LinkKind, ...] = (
    LinkKind.NEXT,
    LinkKind.CAUSES,
    LinkKind.SUPERSEDES,
    LinkKind.CONTRADICTS,
)


# Links between two entities: they keep an alias or employer alive while its partner is mentioned.
ENTITY_LINKS: tuple[LinkKind, ...] = (LinkKind.ALIAS_OF, LinkKind.CANDIDATE_ALIAS, LinkKind.WORKS_AT)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Turn(_Model):
    """One raw utterance or agent action; immutable once logged."""

    id: str
    namespace: str = DEFAULT_NAMESPACE
    session: str
    speaker: str = "user"
    time: datetime
    text: str
    agent: str | None = None  # which agent wrote the turn, when several share one namespace


class TurnState(StrEnum):
    """Where a logged turn is in the pipeline: logged and waiting, consolidated, set aside because
    its consolidation failed (kept with its error until retried), or erased (a tombstone: the id
    stays so re-ingesting the same file does not bring it back, the text is gone)."""

    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"
    FORGOTTEN = "forgotten"


class Atom(_Model):
    """A precise detail that must survive compression (a date, an amount, a name, a negation...)."""

    kind: str  # date|time|money|quantity|number|duration|person|org|place|negation|condition
    surface: str  # exact substring of the source text
    value: str  # normalised value: ISO date, "25000 CNY", "neg", "cond", the name...


class Participant(_Model):
    name: str
    type: str = "person"  # person|org|place|product|other
    role: str = "mention"  # agent|target|cc|object|place|mention


class Quantity(_Model):
    value: float | int | str
    unit: str | None = None
    surface: str
    kind: str = "quantity"  # money|quantity|number|duration|percent


class Event(_Model):
    """A compressed, self-contained memory: the lossless restatement plus structured fields."""

    id: str
    namespace: str = DEFAULT_NAMESPACE
    text: str
    source_ids: list[str]
    session: str = ""
    speaker: str = "user"
    agent: str | None = None  # the agent that wrote the source turn(s), for provenance and filters
    clause: int = 0  # place among the events made from the same turn (orders chains within a turn)
    time: datetime
    deadline: date | None = None
    dates: list[date] = Field(default_factory=list)  # every absolute date the event names
    action: str | None = None
    object: str | None = None
    participants: list[Participant] = Field(default_factory=list)
    location: str | None = None
    quantities: list[Quantity] = Field(default_factory=list)
    negated: bool = False
    condition: str | None = None
    topic: str | None = None
    keywords: list[str] = Field(default_factory=list)
    atoms: list[Atom] = Field(default_factory=list)
    verbatim: bool = False  # guard fallback: text is the source clause unchanged
    lang: str = "en"
    status: str = EventStatus.ACTIVE
    is_task: bool = False
    # Which path of the dual compression trigger made it (compress/trigger.py): "information" (one
    # turn rich enough on its own) or "accumulated" (consecutive short turns on one topic).
    trigger: str = "information"
    importance: float = 0.5
    access_count: int = 0
    last_accessed: datetime | None = None
    tier: str = "hot"
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    created_at: datetime | None = None
    embedding: list[float] | None = None
    # Active memory: key slots a task, meeting or commitment still lacks ("deadline",
    # "owner", "amount", "place", "time"); each is an open question until a later turn fills it.
    open_slots: list[str] = Field(default_factory=list)

    def public_dict(self) -> dict[str, Any]:
        """The JSON shape of FORMATS.md (no embedding)."""
        return self.model_dump(mode="json", exclude={"embedding"})

    def log_order(self) -> tuple:
        """Sort key for the order stage 1 wrote events in: time, turn, clause within the turn (an
        event id says nothing of where its clause stood: a re-read in id order puts "Na him reach
        out to me on LinkedIn" before "Project lead na Tunde, their IT manager")."""
        return (self.time, self.source_ids[:1], self.clause, self.id)

    def __repr_args__(self):
        # A repr that prints 384 floats hides everything else: show the vector's size only.
        for name, value in super().__repr_args__():
            if name == "embedding" and value is not None:
                yield name, f"<{len(value)} floats>"
            else:
                yield name, value


class Entity(_Model):
    id: str
    namespace: str = DEFAULT_NAMESPACE
    name: str  # canonical
    type: str = "other"
    aliases: list[str] = Field(default_factory=list)
    embedding: list[float] | None = None


class Topic(_Model):
    id: str
    namespace: str = DEFAULT_NAMESPACE
    label: str
    keywords: list[str] = Field(default_factory=list)
    centroid: list[float] | None = None
    size: int = 0


class Link(_Model):
    """A typed, directed relationship. Day links (ON/DUE) point at an ISO date string."""

    kind: LinkKind
    source: str
    target: str
    namespace: str = DEFAULT_NAMESPACE
    props: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.namespace, self.kind.value, self.source, self.target)


class ScoredId(_Model):
    """A recall-channel result: an event id and that channel's score (higher is better)."""

    id: str
    score: float


class Neighbor(_Model):
    """An event reached by association-chain expansion, with the hops that reached it."""

    id: str
    seed: str  # the recalled event the walk started from
    distance: int
    path: list[str]  # e.g. ["MENTIONS Acme Corp", "NEXT"]


class Walk(_Model):
    """One walk of `GraphStore.walk` (`Walks`): the links it follows (event links and MENTIONS), how
    many hops, the statuses an event it reaches may have (None: any), how many events it keeps."""

    kinds: list[LinkKind]
    hops: int = 1
    statuses: list[str] | None = None
    limit: int = 50


class Hit(_Model):
    """One retrieved memory, with its score and how it was found."""

    event: Event
    score: float
    path: list[str] = Field(default_factory=list)
    features: dict[str, float] = Field(default_factory=dict)

    def public_dict(self) -> dict[str, Any]:
        e = self.event
        return {
            "id": e.id,
            "text": e.text,
            "time": e.time.isoformat(),
            "score": round(self.score, 4),
            "source_ids": e.source_ids,
            "path": self.path,
            "status": e.status,
            "deadline": e.deadline.isoformat() if e.deadline else None,
            "agent": e.agent,
        }


class PatternStatus(StrEnum):
    ACTIVE = "active"
    RETIRED = "retired"  # later events broke the regularity; kept, never searched by default


class Pattern(_Model):
    """A regularity mined from many similar events: "Tom meets Bob on Mondays (8 of 9
    times)", linked to its events by EVIDENCED_BY. It summarises events and never replaces them."""

    id: str
    namespace: str = DEFAULT_NAMESPACE
    text: str  # the regularity restated in the language its events were written in
    lang: str = "en"
    kind: str  # weekday | time_of_day | interval | postpone | outcome
    subject: str  # the entity (or speaker) the events are about
    action: str
    value: str  # the regular value: "Monday", "morning", "14d", "Friday->Monday", "cancelled"
    support: int  # events that follow the regularity
    total: int  # events of the group (same subject and action)
    rate: float  # support / total
    status: str = PatternStatus.ACTIVE
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    updated_at: datetime | None = None
    embedding: list[float] | None = None

    def public_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude={"embedding", "namespace"})


class Question(_Model):
    """An open question of active memory: a key slot a task, meeting or commitment lacks."""

    id: str
    question: str  # in the language of the turn
    slot: str  # deadline | owner | amount | place | time
    kind: str  # task | meeting | commitment
    importance: float
    event: Event

    def public_dict(self) -> dict[str, Any]:
        """The shape of FORMATS.md: id, question, slot, event (as in search results), source_ids."""
        return {
            "id": self.id,
            "question": self.question,
            "slot": self.slot,
            "kind": self.kind,
            "importance": round(self.importance, 4),
            "event": Hit(event=self.event, score=self.importance).public_dict(),
            "source_ids": self.event.source_ids,
        }


class EventPatch(_Model):
    """The same field values set on several stored events (a status change, a tier move...)."""

    ids: list[str]
    fields: dict[str, Any]


class GraphDelta(_Model):
    """What one consolidation step changes, computed first and then applied by the store in one
    transaction (`GraphStore.apply_delta`): a crash leaves the graph before or after it, never between.

    `turns_done` are the pending turns this delta consumes: they are marked done in the same
    transaction, so a turn is never both consolidated and still pending, nor done and unconsolidated.

    Deletes come last, after every upsert and link of the delta: a merge moves a copy's links to
    its original before the copy goes. Deleting events or entities also sweeps the orphans they
    leave (see `GraphStore.apply_delta`). `meta` keys are set in the same transaction, so a
    record of what a step did (the tier pass) is never ahead of or behind the step.
    """

    namespace: str = DEFAULT_NAMESPACE
    events: list[Event] = Field(default_factory=list)  # inserted or replaced whole
    entities: list[Entity] = Field(default_factory=list)
    topics: list[Topic] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)  # added (props replaced)
    removed_links: list[Link] = Field(default_factory=list)  # removed before `links` are added
    event_patches: list[EventPatch] = Field(default_factory=list)  # applied after `events`
    patterns: list[Pattern] = Field(default_factory=list)  # inserted or replaced whole
    turns_done: list[str] = Field(default_factory=list)
    deleted_entities: list[str] = Field(default_factory=list)  # with every link touching them
    deleted_events: list[str] = Field(default_factory=list)  # with every link touching them
    deleted_topics: list[str] = Field(default_factory=list)  # with their IN_TOPIC links; events stay
    meta: dict[str, str] = Field(default_factory=dict)  # store-wide keys set
    deleted_meta: list[str] = Field(default_factory=list)  # store-wide keys removed
    deleted_patterns: list[str] = Field(default_factory=list)  # with their EVIDENCED_BY links
    # Retrieved events: access_count += 1 and last_accessed = `touched_at`.
    touched: list[str] = Field(default_factory=list)
    touched_at: datetime | None = None
    # Labelled searches, idempotent on (namespace, id). Every event id one names must be an event
    # of its namespace, else the store raises InputError and nothing of the delta is written.
    feedback: list[Feedback] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    # The store's entity revision the entity part was computed at (GraphStore.entity_revision).
    entity_revision: int | None = None

    def is_empty(self) -> bool:
        return not (
            self.events
            or self.entities
            or self.topics
            or self.links
            or self.removed_links
            or self.event_patches
            or self.patterns
            or self.turns_done
            or self.deleted_entities
            or self.deleted_events
            or self.deleted_topics
            or self.meta
            or self.deleted_meta
            or self.deleted_patterns
            or self.touched
            or self.feedback
        )


class JobRun(_Model):
    """One run of a background job (consolidation of pending turns, the global pass...)."""

    id: str
    namespace: str = DEFAULT_NAMESPACE
    kind: str  # "consolidate" | "global_pass" | ...
    started: datetime
    finished: datetime | None = None
    status: str = "running"  # running | ok | failed | alert
    processed: int = 0
    pending_after: int = 0
    error: str | None = None
    duration_ms: float | None = None


class Feedback(_Model):
    """One labelled search: which memories helped answer a query.

    Only what is needed to rebuild the query's candidate pool is kept (query, time, namespace,
    ids), never the features: `train-reranker` recomputes them from the store, so a new feature or
    a changed one is trained on the same labels.
    """

    id: str
    namespace: str = DEFAULT_NAMESPACE
    query: str
    at: datetime  # when the question was asked: anchors its time range and recency, as in search
    helpful: list[str]  # event ids that helped the answer
    shown: list[str] | None = None  # event ids the caller saw; None = not said (all recalled count)
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def public_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
