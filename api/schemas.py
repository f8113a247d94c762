"""The HTTP wire format: request and response models of the REST API.

These are deliberately separate from `simplemem_graph.models`: renaming a field there must never
silently change what API clients see. Response models list their fields explicitly, so a rename
upstream fails loudly in the API tests instead of dropping a field.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

Item = TypeVar("Item")

API_VERSION = "1"
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


class _Request(BaseModel):
    # Unknown fields are a client bug (a typo like "qeury"): say so instead of ignoring them.
    model_config = ConfigDict(extra="forbid")


class TurnIn(_Request):
    """One turn, in the FORMATS.md JSON Lines shape; only `text` is required."""

    text: str = Field(min_length=1, description="what was said or done")
    id: str | None = Field(None, description="turn id; default `<session>:<hash of speaker, time, text>`")
    session: str = Field("default", min_length=1)
    time: datetime | None = Field(None, description="ISO 8601; default: now; naive times are UTC")
    speaker: str = Field("user", min_length=1)
    agent: str | None = Field(None, min_length=1, description="the agent that wrote the turn")


class TurnBatchIn(_Request):
    turns: list[TurnIn] = Field(min_length=1)


class ReplayQueryIn(_Request):
    id: str | None = None
    query: str = Field(min_length=1)
    evidence: list[str] = Field(default_factory=list, description="turn ids that answer it")
    at: datetime | None = Field(None, description="not asked before this time")


class ReplayConfigIn(_Request):
    name: str = Field("compare", min_length=1)
    recall_k: int | None = Field(None, ge=1, le=200)
    final_k: int | None = Field(None, ge=1, le=50)


class ReplayIn(_Request):
    """A timestamped log and its questions, replayed into scratch memory (the namespace is untouched)."""

    turns: list[TurnIn] = Field(min_length=1)
    queries: list[ReplayQueryIn] = Field(min_length=1)
    slices: Literal["day", "week", "month"] = "week"
    compare: ReplayConfigIn | None = Field(None, description="a second configuration, side by side")


class ReplayOut(BaseModel):
    slices: list[dict[str, Any]] = Field(
        description="per configuration and slice: config, slice, turns, events, questions, recall@5,"
        " tokens@5, p95_ms"
    )


class IngestOut(BaseModel):
    turns_new: int
    turns_skipped: int = Field(description="already in the raw log; re-posting a turn changes nothing")
    turns_consolidated: int = Field(0, description="pending turns consolidated by this request")
    turns_failed: int = Field(0, description="turns set aside: their consolidation failed (see /retry)")
    failed: list[dict[str, str]] = Field(default_factory=list, description='{"turn_id", "error"} each')
    events: int
    event_ids: list[str]
    compress: dict[str, Any]
    consolidate: dict[str, int]


class SearchIn(_Request):
    query: str = Field(min_length=1)
    k: int | None = Field(None, ge=1, le=50, description="final results (default 5)")
    at: datetime | None = Field(None, description="when the question is asked; anchors 'last week'")
    include_archived: bool = False
    session: str | None = None
    agent: str | None = Field(None, min_length=1, description="only memories written by this agent")
    id: str | None = Field(None, description="echoed back, as in `search --queries`")


class Result(BaseModel):
    """One memory, as in FORMATS.md `search` results."""

    id: str
    text: str
    time: str
    score: float
    source_ids: list[str]
    path: list[str]
    status: str | None = None
    deadline: str | None = None


class SearchOut(BaseModel):
    id: str | None = None
    query: str
    took_ms: float
    results: list[Result]
    context_tokens: int
    namespace_exists: bool = Field(
        True, description="false: nothing was ever written to this namespace (a typo would look empty)"
    )
    analysis: dict[str, Any] | None = Field(None, description="how the query was read: language, entities")
    plan: str | None = Field(None, description="the retrieval plan used")
    patterns: list[dict[str, Any]] = Field(
        default_factory=list, description="pattern memories above the results (regularities with a count)"
    )


class FeedbackIn(_Request):
    """Which memories helped answer a query: labelled use that `train-reranker` learns from."""

    query: str = Field(min_length=1, description="the question, as it was searched")
    helpful: list[str] = Field(
        default_factory=list, max_length=200, description="event ids that helped the answer"
    )
    shown: list[str] | None = Field(
        None,
        max_length=200,
        description="event ids the caller saw (e.g. the results); null: every recalled memory counts as seen",
    )
    at: datetime | None = Field(None, description="when the question was asked, as in search; default now")


class FeedbackOut(BaseModel):
    id: str
    namespace: str
    query: str
    at: datetime
    helpful: list[str]
    shown: list[str] | None
    created_at: datetime


class ContextIn(_Request):
    query: str = Field(min_length=1)
    k: int | None = Field(None, ge=1, le=50)
    at: datetime | None = None
    knowledge: list[str] = Field(default_factory=list, description="external knowledge, after memories")
    instruction: str = ""
    budget_tokens: int = Field(600, ge=16, le=32000)
    questions: bool = Field(True, description="add the open questions of the results' topic")


class ContextOut(BaseModel):
    context: str


class Page(BaseModel, Generic[Item]):
    """One page of a list endpoint; ask again with `offset=next_offset` while it is not null."""

    items: list[Item]
    total: int
    limit: int
    offset: int
    next_offset: int | None


class DeleteOut(BaseModel):
    deleted_events: int
    erased_turns: int = Field(0, description="turns of the raw log erased (tombstones stay)")
    dry_run: bool = False
    events: list[Any] = Field(default_factory=list, description="ids (with their text on a dry run)")
    turns: list[Any] = Field(default_factory=list, description="ids (with their text on a dry run)")


class ImportOut(BaseModel):
    imported: dict[str, int]


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str
    store: str
    auth: bool


class JobOut(BaseModel):
    """One run of a background job (FORMATS.md `jobs --json`)."""

    id: str
    namespace: str
    kind: str
    started: datetime
    finished: datetime | None
    status: Literal["running", "ok", "failed", "alert"]
    processed: int
    pending_after: int
    error: str | None
    duration_ms: float | None


class HealthzOut(BaseModel):
    """`degraded` when the latest run of a job kind in some namespace failed or alerted."""

    status: Literal["ok", "degraded"]
    problems: list[JobOut]
    failed_turns: int = Field(0, description="turns set aside (consolidation failed), awaiting a retry")


class GraphNode(BaseModel):
    id: str
    kind: Literal["event", "entity", "topic", "day"]
    label: str
    seed: bool = Field(False, description="one of the events asked for")
    props: dict[str, Any] = Field(default_factory=dict)


class GraphEdge(BaseModel):
    source: str
    target: str
    kind: str
    props: dict[str, Any] = Field(default_factory=dict)


class GraphOut(BaseModel):
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = Field(description="the neighbourhood had more nodes than max_nodes")


class ErrorBody(BaseModel):
    type: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody
