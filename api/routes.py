"""The `/v1` routes. Each one checks the caller, then calls one `Memory` method.

Routes are plain (sync) functions: FastAPI runs them in its thread pool; calls of one namespace
are serialised by its lock, calls of different namespaces run side by side (see `api.app.MemoryPool`).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.auth import Principal, presented_key
from api.graph_view import build_neighbourhood
from api.limits import PayloadTooLargeError
from api.schemas import (
    API_VERSION,
    DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
    ContextIn,
    ContextOut,
    DeleteOut,
    ErrorOut,
    FeedbackIn,
    FeedbackOut,
    GraphOut,
    HealthOut,
    HealthzOut,
    ImportOut,
    IngestOut,
    JobOut,
    Page,
    ReplayIn,
    ReplayOut,
    Result,
    SearchIn,
    SearchOut,
    TurnBatchIn,
    TurnIn,
)
from simplemem_graph.errors import InputError
from simplemem_graph.memory import Erasure, Memory
from simplemem_graph.models import Hit, Turn
from simplemem_graph.stores.queries import FailedTurns

NDJSON = "application/x-ndjson"
JOBS_KEPT_VISIBLE = 1000  # the newest runs a page of /jobs is cut from

# Documented in OpenAPI for every route that can fail this way.
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 413, 422)
}

router = APIRouter(prefix="/v1", responses=_ERRORS)


# ---- dependencies --------------------------------------------------------------------------------
def current_principal(request: Request) -> Principal:
    """Who is calling (401 when a key is required and missing or wrong)."""
    return request.app.state.keyring.authenticate(presented_key(request))


@dataclass
class ScopedMemory:
    """A namespace's `Memory`, used as `with scoped as memory:` so its calls are serialised."""

    memory: Memory
    lock: threading.Lock

    def __enter__(self) -> Memory:
        self.lock.acquire()
        return self.memory

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def namespace_memory(
    request: Request,
    ns: Annotated[str, Path(description="namespace (tenant): a user, an agent, a team")],
    principal: Annotated[Principal, Depends(current_principal)],
) -> ScopedMemory:
    """The namespace's memory, once the caller is allowed on it (403 otherwise)."""
    request.app.state.keyring.authorize(principal, ns)
    pool = request.app.state.pool
    memory = pool.get(ns)
    return ScopedMemory(memory, pool.lock_for(memory.namespace))


Scoped = Annotated[ScopedMemory, Depends(namespace_memory)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="page size")]
# Far beyond any namespace's size, and small enough that offset + limit stays a machine integer.
MAX_OFFSET = 1_000_000_000
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="items to skip")]


def _page(items: list[Any], limit: int, offset: int) -> Page[Any]:
    window = items[offset : offset + limit]
    next_offset = offset + limit if offset + limit < len(items) else None
    return Page(items=window, total=len(items), limit=limit, offset=offset, next_offset=next_offset)


# ---- service -------------------------------------------------------------------------------------
@router.get("/health", response_model=HealthOut, tags=["service"])
def health(request: Request) -> HealthOut:
    """Liveness, without authentication; opens the store if it is not open yet."""
    state = request.app.state
    store_kind = state.pool.base.store.kind
    return HealthOut(status="ok", version=API_VERSION, store=store_kind, auth=state.keyring.enabled)


def job_problems(request: Request) -> HealthzOut:
    """The latest run of each (namespace, job kind), when it failed or alerted, and the turns set
    aside, of the namespaces the caller may use: another tenant's names and errors never show."""
    principal = current_principal(request)
    store = request.app.state.pool.base.store
    runs = store.list_jobs(None, limit=500)
    latest: dict[tuple[str, str], Any] = {}
    for run in runs:  # newest first: the first seen per (namespace, kind) is the latest
        latest.setdefault((run.namespace, run.kind), run)
    problems = [
        JobOut(**run.model_dump())
        for run in latest.values()
        if run.status in ("failed", "alert") and principal.may_use(run.namespace)
    ]
    failed = sum(1 for namespace, _, _ in store.turns(None, FailedTurns()) if principal.may_use(namespace))
    degraded = bool(problems or failed)
    return HealthzOut(status="degraded" if degraded else "ok", problems=problems, failed_turns=failed)


@router.get("/namespaces/{ns}/jobs", response_model=Page[JobOut], tags=["maintenance"])
def jobs(
    scoped: Scoped,
    kind: Annotated[Literal["consolidate", "global_pass"] | None, Query(description="job kind")] = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> Page[Any]:
    """The worker's runs in this namespace, newest first: status, turns processed, still pending."""
    runs = scoped.memory.store.list_jobs(scoped.memory.namespace, kind=kind, limit=JOBS_KEPT_VISIBLE)
    return _page([JobOut(**run.model_dump()) for run in runs], limit, offset)


@router.get("/namespaces", response_model=Page[str], tags=["namespaces"])
def list_namespaces(
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> Page[Any]:
    """Namespaces holding turns or events that this key may see."""
    names = request.app.state.pool.base.namespaces()
    return _page([ns for ns in names if principal.may_use(ns)], limit, offset)


# ---- write ---------------------------------------------------------------------------------------
@router.post("/namespaces/{ns}/turns", response_model=IngestOut, status_code=201, tags=["memory"])
def add_turns(request: Request, body: TurnIn | TurnBatchIn | list[TurnIn], scoped: Scoped) -> IngestOut:
    """Remember one turn (a FORMATS.md turn object), a list of them, or `{"turns": [...]}`.

    Turns already logged (same id) are skipped, so re-posting is harmless.
    """
    turns_in = body.turns if isinstance(body, TurnBatchIn) else body if isinstance(body, list) else [body]
    if not turns_in:
        raise InputError("turns: the request holds no turn")
    limit = request.app.state.limits.max_turns_per_request
    if len(turns_in) > limit:
        raise PayloadTooLargeError(f"turns: {len(turns_in)} turns in one request; the limit is {limit}")
    with scoped as memory:
        turns = _to_turns(turns_in, memory)
        report = memory.add_many(turns)
    return IngestOut(**report.as_dict(), event_ids=report.event_ids)


@router.post("/namespaces/{ns}/retry", response_model=IngestOut, tags=["maintenance"])
def retry(scoped: Scoped) -> IngestOut:
    """Consolidate again the turns set aside because their consolidation failed (those that fail
    again stay aside, listed in `failed`)."""
    with scoped as memory:
        report = memory.retry_failed()
    return IngestOut(**report.as_dict(), event_ids=report.event_ids)


def _to_turns(turns_in: list[TurnIn], memory: Memory) -> list[Turn]:
    """HTTP turns -> model turns, with `Memory.make_turn`'s defaults (time now, an id derived from
    the content, so ids are unique without counting rows and a retried request adds nothing)."""
    now = datetime.now(UTC)
    return [
        memory.make_turn(
            turn.text,
            speaker=turn.speaker,
            session=turn.session,
            time=turn.time or now,
            turn_id=turn.id,
            agent=turn.agent,
        )
        for turn in turns_in
    ]


# ---- read ----------------------------------------------------------------------------------------
@router.post("/namespaces/{ns}/search", response_model=SearchOut, tags=["memory"])
def search(body: SearchIn, scoped: Scoped) -> dict[str, Any]:
    """The k memories most useful for the query, each with score, sources and the path that found it."""
    with scoped as memory:
        result = memory.search(
            body.query,
            k=body.k,
            at=body.at,
            include_archived=body.include_archived,
            session=body.session,
            agent=body.agent,
        )
        exists = bool(result.hits) or memory.exists()
    return {**result.as_dict(id=body.id), "namespace_exists": exists}


@router.post("/namespaces/{ns}/feedback", response_model=FeedbackOut, status_code=201, tags=["memory"])
def feedback(body: FeedbackIn, scoped: Scoped) -> FeedbackOut:
    """Record which memories (event ids) helped answer a query; `simplemem-graph train-reranker`
    retrains this namespace's reranker from them. An id that is not an event here: 422, nothing kept."""
    with scoped as memory:
        record = memory.feedback(body.query, body.helpful, body.shown, at=body.at)
    return FeedbackOut(**record.model_dump())


@router.post("/namespaces/{ns}/context", response_model=ContextOut, tags=["memory"])
def context(body: ContextIn, scoped: Scoped) -> ContextOut:
    """A prompt block: memories first, then the given knowledge, then the instruction."""
    with scoped as memory:
        text = memory.context(
            body.query,
            k=body.k,
            at=body.at,
            knowledge=body.knowledge,
            instruction=body.instruction,
            budget_tokens=body.budget_tokens,
            questions=body.questions,
        )
    return ContextOut(context=text)


@router.get("/namespaces/{ns}/timeline/{entity}", response_model=Page[Result], tags=["memory"])
def timeline(
    entity: str,
    scoped: Scoped,
    date_from: Annotated[date | None, Query(alias="from", description="first date, ISO")] = None,
    date_to: Annotated[date | None, Query(alias="to", description="last date, ISO")] = None,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> Page[Any]:
    """The events that mention an entity (or any alias), oldest first."""
    if date_from and date_to and date_from > date_to:
        raise InputError(f"timeline: from={date_from} is after to={date_to}")
    with scoped as memory:
        hits = memory.timeline(entity, date_from=date_from, date_to=date_to)
    return _page([hit.public_dict() for hit in hits], limit, offset)


@router.get("/namespaces/{ns}/conflicts", response_model=Page[dict[str, Any]], tags=["memory"])
def conflicts(scoped: Scoped, limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0) -> Page[Any]:
    """Unresolved CONTRADICTS pairs, for the agent (or a person) to clarify."""
    with scoped as memory:
        found = memory.conflicts()
    return _page([conflict.as_dict() for conflict in found], limit, offset)


@router.get("/namespaces/{ns}/questions", response_model=Page[dict[str, Any]], tags=["memory"])
def questions(scoped: Scoped, limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0) -> Page[Any]:
    """Open questions (missing deadline, owner, amount, place, time), most important first."""
    with scoped as memory:
        found = memory.questions(limit=None)
    return _page([q.public_dict() for q in found], limit, offset)


@router.get("/namespaces/{ns}/patterns", response_model=Page[dict[str, Any]], tags=["memory"])
def patterns(
    scoped: Scoped,
    include_retired: Annotated[bool, Query(description="also patterns later events broke")] = False,
    limit: Limit = DEFAULT_PAGE_SIZE,
    offset: Offset = 0,
) -> Page[Any]:
    """Pattern memories with the events they were counted from."""
    with scoped as memory:
        found = memory.patterns(include_retired=include_retired)
    items = [
        {**p.public_dict(), "evidence": [Hit(event=e, score=1.0).public_dict() for e in events]}
        for p, events in found
    ]
    return _page(items, limit, offset)


@router.post("/namespaces/{ns}/replay", response_model=ReplayOut, tags=["maintenance"])
def replay_log(request: Request, body: ReplayIn, scoped: Scoped) -> ReplayOut:
    """Replay a timestamped log slice by slice into scratch memory and ask the questions whose
    evidence is in the past: recall@5, tokens@5, p95 per slice (the namespace is not written)."""
    from dataclasses import replace

    from simplemem_graph.replay import ReplayLog, ReplayQuery, replay_scratch, replay_server_store

    limit = request.app.state.limits.max_turns_per_request
    if len(body.turns) > limit:
        raise PayloadTooLargeError(f"replay: {len(body.turns)} turns in one request; the limit is {limit}")
    memory = scoped.memory
    turns = _to_turns(body.turns, memory)
    queries = [ReplayQuery(q.id or f"q{n}", q.query, q.evidence, q.at) for n, q in enumerate(body.queries)]
    configs = [("default", memory.settings)]
    if body.compare is not None:
        changed = {k: v for k, v in body.compare.model_dump().items() if k != "name" and v is not None}
        configs.append((body.compare.name, replace(memory.settings, **changed)))
    reports = replay_scratch(
        ReplayLog(turns, queries, "jsonl"),
        embedder=memory.embedder,
        configs=configs,
        slices=body.slices,
        store=replay_server_store(memory.store),
    )
    return ReplayOut(slices=[r.as_dict() for r in reports])


@router.get("/namespaces/{ns}/stats", response_model=dict[str, Any], tags=["namespaces"])
def stats(
    request: Request, scoped: Scoped, principal: Annotated[Principal, Depends(current_principal)]
) -> dict[str, Any]:
    """Counts of turns, events, entities, topics and relations (by type) in the namespace, the
    turns set aside (`failed`), and `namespace_exists` (false: nothing was ever written here)."""
    with scoped as memory:
        counts = memory.stats()
        # The namespaces this key may see, not the store's: no count of other tenants either.
        counts["namespaces"] = sum(principal.may_use(ns) for ns in memory.namespaces())
    counts.pop("path", None)  # the server's file system is none of the caller's business
    return counts


@router.get("/namespaces/{ns}/graph", response_model=GraphOut, tags=["inspector"])
def graph(
    scoped: Scoped,
    event_ids: Annotated[str, Query(description="comma-separated event ids (e.g. a search's results)")],
    hops: Annotated[int, Query(ge=0, le=3)] = 1,
    max_nodes: Annotated[int, Query(ge=1, le=500)] = 150,
) -> GraphOut:
    """The events and their neighbourhood (entities, topics, days, event links) for the inspector."""
    ids = [event_id.strip() for event_id in event_ids.split(",") if event_id.strip()]
    if not ids:
        raise InputError("graph: `event_ids` names no event")
    with scoped as memory:
        return build_neighbourhood(memory.store, memory.namespace, ids, hops=hops, max_nodes=max_nodes)


# ---- maintenance ---------------------------------------------------------------------------------
@router.post("/namespaces/{ns}/consolidate", response_model=dict[str, int], tags=["maintenance"])
def consolidate(scoped: Scoped) -> dict[str, int]:
    """Run the global pass now: merge duplicates, resolve aliases, decay, tier moves."""
    with scoped as memory:
        return memory.consolidate()


DryRun = Annotated[bool, Query(description="list what would be erased, change nothing")]


def _erased(erasure: Erasure) -> DeleteOut:
    report = erasure.as_dict()
    return DeleteOut(
        deleted_events=report["events_deleted"],
        erased_turns=report["turns_erased"],
        dry_run=erasure.dry_run,
        events=report["events"],
        turns=report["turns"],
    )


@router.delete("/namespaces/{ns}/events/{event_id}", response_model=DeleteOut, tags=["maintenance"])
def forget_event(event_id: str, scoped: Scoped, dry_run: DryRun = False) -> DeleteOut:
    """Erase one event and the turns it was made from (with the other events made from them)."""
    with scoped as memory:
        return _erased(memory.forget(event_id=event_id, dry_run=dry_run))


@router.delete("/namespaces/{ns}/turns/{turn_id}", response_model=DeleteOut, tags=["maintenance"])
def forget_turn(turn_id: str, scoped: Scoped, dry_run: DryRun = False) -> DeleteOut:
    """Erase one turn of the raw log and every event made from it."""
    with scoped as memory:
        return _erased(memory.forget(turn_id=turn_id, dry_run=dry_run))


@router.delete("/namespaces/{ns}/entities/{entity}", response_model=DeleteOut, tags=["maintenance"])
def forget_entity(entity: str, scoped: Scoped, dry_run: DryRun = False) -> DeleteOut:
    """Erase an entity (by name or alias): every turn that names it, every event that mentions it."""
    with scoped as memory:
        return _erased(memory.forget(entity=entity, dry_run=dry_run))


@router.delete("/namespaces/{ns}", response_model=DeleteOut, tags=["maintenance"])
def forget_namespace(scoped: Scoped, dry_run: DryRun = False) -> DeleteOut:
    """Delete everything in the namespace, raw log included."""
    with scoped as memory:
        return _erased(memory.forget(everything=True, dry_run=dry_run))


@router.get(
    "/namespaces/{ns}/export",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}, "description": "one JSON record per line"}},
    tags=["maintenance"],
)
def export(
    scoped: Scoped, limit: Annotated[int | None, Query(ge=1, le=MAX_OFFSET)] = None, offset: Offset = 0
) -> StreamingResponse:
    """Every record (turns, events, entities, topics, links) as JSON Lines, streamed.

    With `limit`, a page of records: fewer than `limit` lines means the export is complete.
    """
    with scoped as memory:
        records = memory.export()
        stop = None if limit is None else offset + limit
        # One page is read under the lock, so a slow client never holds the store.
        lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in itertools.islice(records, offset, stop)]
    return StreamingResponse(iter(lines), media_type=NDJSON)


@router.post(
    "/namespaces/{ns}/import",
    response_model=ImportOut,
    openapi_extra={"requestBody": {"content": {NDJSON: {"schema": {"type": "string"}}}, "required": True}},
    tags=["maintenance"],
)
async def import_records(request: Request, scoped: Scoped) -> ImportOut:
    """Load records from `export` (JSON Lines, or a JSON array); importing twice changes nothing."""
    records = _parse_records(await request.body())
    return await run_in_threadpool(_import_locked, scoped, records)


def _import_locked(scoped: ScopedMemory, records: list[dict[str, Any]]) -> ImportOut:
    with scoped as memory:
        try:
            counts = memory.import_records(records)
        except ValueError as e:  # a record the store cannot read (pydantic errors are ValueErrors)
            raise InputError(f"import: {e}") from e
    return ImportOut(imported=counts)


def _parse_records(raw: bytes) -> list[dict[str, Any]]:
    """JSON Lines or a JSON array of objects -> records; InputError names the bad line."""
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as e:
        raise InputError(f"import: the body is not UTF-8 (byte {e.start})") from e
    if not text:
        raise InputError("import: the request body is empty; send JSON Lines from /export")
    if text.startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"import: body is not a valid JSON array: {e}") from e
        lines: Iterator[tuple[int, Any]] = enumerate(records, start=1)
    else:
        numbered = enumerate(text.splitlines(), start=1)
        lines = ((n, _parse_line(n, line)) for n, line in numbered if line.strip())
    parsed = []
    for number, record in lines:
        if not isinstance(record, dict):
            raise InputError(f"import: record {number} is not a JSON object")
        parsed.append(record)
    return parsed


def _parse_line(number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"import: line {number} is not valid JSON: {e.msg}") from e
