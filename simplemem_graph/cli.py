"""The `simplemem-graph` command line (FORMATS.md is its contract). Each verb adapts its arguments
and calls one `Memory` method; no logic lives here.

Exit status: 0 ok, 2 bad input (file, argument, unknown entity), 1 anything else. Errors print one
line; `--debug` shows the traceback.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from simplemem_graph.config import Settings, validate_namespace
from simplemem_graph.errors import ConfigError, InputError, NotFoundError, SimpleMemError
from simplemem_graph.loaders import load_jsonl, load_jsonl_records, load_locomo, load_turns, parse_time
from simplemem_graph.models import Hit

app = typer.Typer(
    name="simplemem-graph",
    help="Lifelong memory for LLM agents: compress, consolidate into a graph, retrieve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out = Console(soft_wrap=True)
err = Console(stderr=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


class _State:
    store: str | None = None
    namespace: str = "default"
    debug: bool = False


state = _State()


@app.callback()
def _global_options(
    store: Annotated[
        str | None,
        typer.Option(
            "--store",
            envvar="SIMPLEMEM_STORE",
            help="A file path or sqlite:///path.db (embedded), or neo4j://host:7687 / bolt://... (Neo4j).",
        ),
    ] = None,
    namespace: Annotated[
        str, typer.Option("--namespace", envvar="SIMPLEMEM_NAMESPACE", help="The tenant (user, agent, team).")
    ] = "default",
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
) -> None:
    state.store = store
    state.namespace = validate_namespace(namespace)
    state.debug = debug


def _memory(namespace: str | None = None):
    from simplemem_graph.memory import Memory

    return Memory.open(state.store, namespace=namespace or state.namespace, settings=Settings.from_env())


def _print_json(obj: Any) -> None:
    # Plain write, not rich: JSON Lines must never be re-wrapped or coloured.
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def _parse_date(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as e:
        raise InputError(f"{option}: {value!r} is not an ISO date (YYYY-MM-DD)") from e


# ---- ingest and compress -------------------------------------------------------------------------
@app.command()
def ingest(
    file: Annotated[Path, typer.Argument(help="Turns: JSON Lines, a JSON array, or a LoCoMo file.")],
    fmt: Annotated[str, typer.Option("--format", help="auto | jsonl | locomo")] = "auto",
    sample: Annotated[
        str | None, typer.Option("--sample", help="LoCoMo: one conversation, e.g. conv-26")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", help="The agent that wrote these turns (when several share a namespace)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Log, compress and consolidate turns. Re-ingesting the same file adds nothing.

    Turns are logged as pending first; an interrupted ingest is completed by the next `ingest`,
    `consolidate` or the worker. Several processes may ingest into one namespace at once.

    A LoCoMo file with several conversations and no --sample puts each conversation in its own
    namespace, <namespace>-<sample_id>, since their turn ids (dia_ids) repeat across conversations.
    """
    batches = _ingest_batches(file, fmt, sample)  # everything validated before anything is written
    if agent is not None:
        if not agent.strip():
            raise InputError("--agent: give a non-empty agent name")
        batches = {
            namespace: [t if t.agent else t.model_copy(update={"agent": agent}) for t in turns]
            for namespace, turns in batches.items()
        }
    reports = {}
    with _progress() as progress:
        for namespace, turns in batches.items():
            task = progress.add_task(f"ingest {namespace}", total=len(turns))
            with _memory(namespace) as memory:
                report = memory.add_many(turns, progress=lambda n, t=task: progress.advance(t, n))
            reports[namespace] = report.as_dict() | {"namespace": namespace}
    for report in reports.values():
        report.pop("event_ids", None)
        if as_json:
            _print_json(report)
        else:
            out.print(
                f"[bold]{report['namespace']}[/]: {report['turns_new']} new turns "
                f"({report['turns_skipped']} already logged), {report['events']} events, "
                f"{report['turns_consolidated']} turns consolidated"
            )


def _ingest_batches(file: Path, fmt: str, sample: str | None) -> dict[str, list]:
    from simplemem_graph.loaders import detect_format

    if fmt == "auto":
        fmt = detect_format(file)
    if fmt != "locomo" or sample is not None:
        return {state.namespace: load_turns(file, fmt=fmt, sample=sample, namespace=state.namespace)}
    conversations = load_locomo(file, namespace=state.namespace)
    if len(conversations) == 1:
        return {state.namespace: next(iter(conversations.values()))}
    batches = {}
    for sample_id, turns in conversations.items():
        namespace = validate_namespace(f"{state.namespace}-{sample_id}")
        batches[namespace] = [t.model_copy(update={"namespace": namespace}) for t in turns]
    return batches


@app.command()
def compress(
    file: Annotated[Path, typer.Argument(help="Turns: JSON Lines, a JSON array, or a LoCoMo file.")],
    fmt: Annotated[str, typer.Option("--format", help="auto | jsonl | locomo")] = "auto",
    sample: Annotated[str | None, typer.Option("--sample")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Stage 1 only: print the events each turn compresses into. Writes nothing."""
    from simplemem_graph.compress import CompressStats
    from simplemem_graph.compress import compress as compress_turns

    turns = load_turns(file, fmt=fmt, sample=sample, namespace=state.namespace)
    stats = CompressStats()
    events = compress_turns(turns, stats=stats)
    if as_json:
        for event in events:
            _print_json(event.public_dict())
        return
    table = Table("source", "event", "time / deadline", "details", show_lines=True)
    for event in events:
        details = ", ".join(
            [p.name for p in event.participants]
            + [q.surface for q in event.quantities]
            + (["NOT"] if event.negated else [])
            + ([f"if: {event.condition}"] if event.condition else [])
        )
        when = event.time.date().isoformat() + (f" → {event.deadline}" if event.deadline else "")
        table.add_row(", ".join(event.source_ids), event.text, when, details)
    out.print(table)
    out.print(f"{len(turns)} turns → {len(events)} events; {stats.as_dict()}")


# ---- read ------------------------------------------------------------------------------------------
@app.command()
def search(
    query: Annotated[str | None, typer.Argument(help="The question.")] = None,
    queries: Annotated[
        Path | None,
        typer.Option("--queries", help='JSON Lines of {"id", "query", "at"?}; one output line each.'),
    ] = None,
    k: Annotated[int, typer.Option("--k", min=1, max=50, help="Memories to return.")] = 5,
    at: Annotated[
        str | None, typer.Option("--at", help="ISO time the question is asked (default now).")
    ] = None,
    include_archived: Annotated[bool, typer.Option("--include-archived")] = False,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help="Fill up to N tokens of text, best first (instead of --k)."),
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Only memories written by this agent.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Retrieve the memories that answer a question, with sources and the path that found them."""
    if (query is None) == (queries is None):
        raise InputError("search: give either a QUERY or --queries FILE")
    batch = (
        _read_queries(queries)
        if queries is not None
        else [{"id": None, "query": query, "at": parse_time(at, "--at") if at else None}]
    )
    with _memory() as memory:
        for item in batch:
            result = memory.search(
                item["query"],
                k=k,
                at=item["at"],
                include_archived=include_archived,
                budget=budget,
                agent=agent,
            )
            payload = result.as_dict(id=item["id"])
            if as_json:
                _print_json(payload)
            else:
                _print_hits(item["query"], payload)


def _read_queries(path: Path) -> list[dict[str, Any]]:
    items = []
    for where, record in load_jsonl_records(path):
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("query"), str)
            or not record["query"].strip()
        ):
            raise InputError(f"{where}: expected an object with a non-empty string `query`")
        at = parse_time(record["at"], where) if record.get("at") else None
        items.append({"id": record.get("id"), "query": record["query"], "at": at})
    return items


def _print_hits(query: str, payload: dict[str, Any]) -> None:
    table = Table(title=f"{query}  ({payload['took_ms']:.0f} ms)", show_lines=True)
    for column in ("#", "score", "time"):
        table.add_column(column, no_wrap=True)
    table.add_column("memory", overflow="fold", ratio=3)
    table.add_column("sources", overflow="fold", ratio=1)
    table.add_column("path", overflow="fold", ratio=1)
    for i, hit in enumerate(payload["results"], 1):
        table.add_row(
            str(i),
            f"{hit['score']:.3f}",
            hit["time"][:10],
            hit["text"],
            ", ".join(hit["source_ids"]),
            " → ".join(hit["path"]),
        )
    out.print(table)


@app.command()
def timeline(
    entity: Annotated[str, typer.Argument(help="An entity's name or any alias.")],
    date_from: Annotated[str | None, typer.Option("--from", help="YYYY-MM-DD")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="YYYY-MM-DD")] = None,
    include_archived: Annotated[bool, typer.Option("--include-archived")] = False,
    as_json: JsonFlag = False,
) -> None:
    """An entity's storyline, oldest first."""
    start, end = _parse_date(date_from, "--from"), _parse_date(date_to, "--to")
    with _memory() as memory:
        hits = memory.timeline(entity, date_from=start, date_to=end, include_archived=include_archived)
    if as_json:
        for hit in hits:
            _print_json(hit.public_dict())
        return
    table = Table("time", "memory", "status", "sources", title=f"timeline: {entity}")
    for hit in hits:
        table.add_row(
            hit.event.time.isoformat()[:16], hit.event.text, hit.event.status, ", ".join(hit.event.source_ids)
        )
    out.print(table)


@app.command()
def conflicts(as_json: JsonFlag = False) -> None:
    """Contradictions waiting for clarification (never merged silently)."""
    with _memory() as memory:
        found = [c.as_dict() for c in memory.conflicts()]
    if as_json:
        for conflict in found:
            _print_json(conflict)
        return
    if not found:
        out.print("no open contradictions")
    for conflict in found:
        out.print(
            f"[bold]{conflict['attribute']}[/]: {conflict['older']['text']}  ⟷  {conflict['newer']['text']}"
        )


@app.command()
def questions(
    limit: Annotated[int, typer.Option("--limit", help="At most this many questions.")] = 20,
    as_json: JsonFlag = False,
) -> None:
    """What the agent should ask next: key slots (deadline, owner, amount, place, time) that tasks,
    meetings and commitments still lack, most important first. A later turn that fills a slot closes it."""
    with _memory() as memory:
        found = memory.questions(limit=limit)
    if as_json:
        for question in found:
            _print_json(question.public_dict())
        return
    if not found:
        out.print("no open questions")
        return
    table = Table("question", "slot", "about", "sources", title="open questions")
    for q in found:
        table.add_row(q.question, q.slot, q.event.text, ", ".join(q.event.source_ids))
    out.print(table)


@app.command()
def patterns(
    include_retired: Annotated[bool, typer.Option("--include-retired", help="Also broken patterns.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Pattern memories (regularities counted over many events) with their evidence; the global
    pass (`consolidate`) refreshes them."""
    with _memory() as memory:
        found = memory.patterns(include_retired=include_retired)
    if as_json:
        for pattern, events in found:
            evidence = [Hit(event=e, score=1.0).public_dict() for e in events]
            _print_json({**pattern.public_dict(), "evidence": evidence})
        return
    if not found:
        out.print("no patterns (run `consolidate` after ingesting)")
        return
    table = Table("pattern", "support", "rate", "status", "evidence", title="patterns")
    for pattern, events in found:
        rate = f"{pattern.rate:.2f}"
        table.add_row(pattern.text, str(pattern.support), rate, pattern.status, str(len(events)))
    out.print(table)


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="A LoCoMo or LongMemEval file, or JSON Lines turns.")],
    slices: Annotated[str, typer.Option("--slices", help="day | week | month")] = "week",
    queries: Annotated[
        Path | None, typer.Option("--queries", help='JSON Lines {"id", "query", "evidence": [turn ids]}')
    ] = None,
    sample: Annotated[
        str | None, typer.Option("--sample", help="LoCoMo conversation or LongMemEval question id")
    ] = None,
    compare: Annotated[
        Path | None, typer.Option("--compare", help="config.toml: a second configuration, run side by side")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write recall/tokens per slice to this PNG.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Re-run a timestamped log slice by slice; after each slice ask the questions whose evidence is
    in the past: recall@5, tokens@5 and p95 latency per slice. Writes only to scratch memory (a
    temporary file, or a scratch namespace of a Neo4j --store that is deleted afterwards)."""
    from simplemem_graph.config import is_neo4j_uri
    from simplemem_graph.embedding import make_embedder
    from simplemem_graph.memory import open_store
    from simplemem_graph.replay import SLICES, load_config, load_replay_log, plot_replay, replay_scratch

    if slices not in SLICES:
        raise InputError(f"--slices: expected one of {list(SLICES)}, got {slices!r}")
    base = Settings.from_env()
    configs = [("default", base)]
    if compare is not None:
        configs.append(load_config(compare, base))
    if len({name for name, _ in configs}) < len(configs):
        configs[-1] = (f"{configs[-1][0]}-compare", configs[-1][1])
    replay_log = load_replay_log(log, queries=queries, sample=sample)
    # A Neo4j --store is replayed into (scratch namespaces), so the numbers are that store's;
    # otherwise each configuration gets a fresh in-memory embedded store.
    server = open_store(state.store, base) if state.store is not None and is_neo4j_uri(state.store) else None
    embedders: dict[str, Any] = {}
    reports = []
    try:
        with _progress() as progress:
            for name, settings in configs:
                embedder = embedders.setdefault(
                    settings.embedding_model, make_embedder(settings.embedding_model)
                )
                task = progress.add_task(f"replay {name}", total=None)
                reports += replay_scratch(
                    replay_log, embedder=embedder, configs=[(name, settings)], slices=slices, store=server,
                    progress=lambda r, t=task: progress.advance(t, 1),
                )
    finally:
        if server is not None:
            server.close()
    if plot is not None:
        plot_replay(reports, plot)
    if as_json:
        for report in reports:
            _print_json(report.as_dict())
        return
    table = Table("config", "slice", "turns", "events", "questions", "recall@5", "tokens@5", "p95_ms",
                  title=f"replay {log.name} by {slices}")
    for r in reports:
        row = r.as_dict()
        table.add_row(*("–" if v is None else str(v) for v in row.values()))
    out.print(table)
    if plot is not None:
        out.print(f"plot: {plot}")


@app.command()
def stats(as_json: JsonFlag = False) -> None:
    """Counts of turns, events, entities, topics and relations."""
    with _memory() as memory:
        counts = memory.stats()
    if as_json:
        _print_json(counts)
        return
    for key, value in counts.items():
        out.print(f"{key:>18}: {value}")


# ---- feedback and the namespace's reranker (issue 10) ------------------------------------------------
@app.command()
def feedback(
    query: Annotated[str, typer.Argument(help="The question, as it was searched.")],
    helpful: Annotated[
        list[str] | None, typer.Option("--helpful", help="An event id that helped the answer (repeat).")
    ] = None,
    shown: Annotated[
        list[str] | None,
        typer.Option(
            "--shown", help="An event id that was shown (repeat); default: every recalled memory counts."
        ),
    ] = None,
    at: Annotated[str | None, typer.Option("--at", help="When the question was asked (ISO 8601).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Record which memories helped answer QUERY; `train-reranker` learns from these labels.
    An id that is not an event of the namespace: exit 2, nothing recorded."""
    with _memory() as memory:
        record = memory.feedback(query, helpful or [], shown, at=parse_time(at, "--at") if at else None)
    if as_json:
        _print_json(record.public_dict())
        return
    seen = "every recalled memory" if record.shown is None else f"{len(record.shown)} shown"
    out.print(f"recorded {record.id}: {len(record.helpful)} helpful, {seen}")


@app.command("train-reranker")
def train_reranker(
    folds: Annotated[int, typer.Option("--folds", help="Cross-validation folds (over questions).")] = 5,
    apply: Annotated[
        bool,
        typer.Option(
            "--apply",
            help="Replace the weights in use when the retrained ones win on average and lose on no fold.",
        ),
    ] = False,
    reset: Annotated[
        bool, typer.Option("--reset", help="Remove this namespace's trained weights (back to the shipped).")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Retrain the reranker from this namespace's feedback and show the cross-validated gain
    (MRR / R@5 of helpful memories on held-out questions, weights in use vs retrained, per fold).
    Too few labelled questions: exit 2."""
    if reset and apply:
        raise InputError("train-reranker: give --apply or --reset, not both")
    with _memory() as memory:
        if reset:
            removed = memory.reset_reranker()
            if as_json:
                _print_json({"namespace": memory.namespace, "reset": removed})
            else:
                out.print("removed the trained weights" if removed else "no trained weights to remove")
            return
        report = memory.train_reranker(folds=folds, apply=apply)
    if as_json:
        _print_json(report)
        return
    table = Table(
        "fold", "test queries", "MRR now", "MRR new", "R@5 now", "R@5 new", "gain",
        title=f"train-reranker {report['namespace']}: {report['queries']} labelled queries, "
        f"weights in use: {report['current_source']}",
    )  # fmt: skip
    for fold in report["folds"]:
        table.add_row(
            str(fold["fold"]),
            str(fold["test_queries"]),
            f"{fold['current']['mrr']:.3f}",
            f"{fold['retrained']['mrr']:.3f}",
            f"{fold['current']['r@5']:.3f}",
            f"{fold['retrained']['r@5']:.3f}",
            f"{fold['gain_mrr']:+.3f}",
        )
    out.print(table)
    gain = report["gain_mrr"]
    out.print(f"MRR gain: mean {gain['mean']:+.4f}, min {gain['min']:+.4f}")
    if report["applied"]:
        out.print("applied: search in this namespace now uses the retrained weights")
    elif not report["improves"]:
        out.print("not applied: the retrained weights do not win on average without losing a fold")
    else:
        out.print("not applied: run again with --apply to use the retrained weights")


# ---- maintenance -----------------------------------------------------------------------------------
@app.command()
def consolidate(
    now: Annotated[str | None, typer.Option("--now", help="ISO time to age memories against.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Consolidate pending turns, then the global pass: merge duplicates, resolve aliases,
    re-cluster topics, decay and tier moves."""
    with _memory() as memory:
        report = memory.consolidate(now=parse_time(now, "--now") if now else None)
    _print_json(report) if as_json else out.print(report)


@app.command()
def rebuild(as_json: JsonFlag = False) -> None:
    """Drop the graph and rebuild it from the raw log (the source of truth)."""
    with _memory() as memory:
        turns = memory.store.get_turns(memory.namespace)
        with _progress() as progress:
            task = progress.add_task("rebuild", total=len(turns))
            report = memory.rebuild(progress=lambda n: progress.advance(task, n))
    payload = report.as_dict()
    payload.pop("event_ids", None)
    _print_json(payload) if as_json else out.print(payload)


@app.command()
def forget(
    event: Annotated[str | None, typer.Option("--event", help="An event id.")] = None,
    entity: Annotated[str | None, typer.Option("--entity", help="An entity name or alias.")] = None,
    everything: Annotated[
        bool, typer.Option("--everything", help="The whole namespace, raw log included.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Delete an event, an entity (and events only it anchors), or a whole namespace."""
    with _memory() as memory:
        deleted = memory.forget(event_id=event, entity=entity, everything=everything)
    payload = {"namespace": state.namespace, "events_deleted": deleted}
    _print_json(payload) if as_json else out.print(payload)


@app.command("export")
def export_records(
    file: Annotated[Path | None, typer.Argument(help="Output JSON Lines file (default: stdout).")] = None,
) -> None:
    """Every record of the namespace as JSON Lines (turns, events, entities, topics, links)."""
    with _memory() as memory:
        if file is None:
            for record in memory.export():
                _print_json(record)
        else:
            count = memory.export_jsonl(file)
            err.print(f"wrote {count} records to {file}")


@app.command("import")
def import_records(
    file: Annotated[Path, typer.Argument(help="A file written by `export`.")],
    as_json: JsonFlag = False,
) -> None:
    """Load an export into this namespace. Importing the same file twice changes nothing."""
    records = []
    for where, record in load_jsonl_records(file):
        if not isinstance(record, dict) or "type" not in record:
            raise InputError(f"{where}: expected an exported record with a `type` field")
        records.append(record)
    with _memory() as memory:
        counts = memory.import_records(records)
    _print_json(counts) if as_json else out.print(counts)


@app.command()
def jobs(
    kind: Annotated[str | None, typer.Option("--kind", help="consolidate | global_pass")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Newest runs to show.")] = 20,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 when the latest run of a kind failed or alerted.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """The worker's runs, newest first: status, turns processed, turns still pending, errors."""
    from simplemem_graph.worker import JOB_KINDS, latest_problems

    if kind is not None and kind not in JOB_KINDS:
        raise InputError(f"--kind {kind!r}: use one of {', '.join(JOB_KINDS)}")
    with _memory() as memory:
        runs = memory.store.list_jobs(memory.namespace, kind=kind, limit=limit)
        problems = latest_problems(memory) if check else []
    if as_json:
        for run in runs:
            _print_json(run.model_dump(mode="json"))
    else:
        table = Table("kind", "started", "status", "processed", "pending_after", "ms", "error")
        for run in runs:
            table.add_row(
                run.kind,
                run.started.isoformat(timespec="seconds"),
                run.status,
                str(run.processed),
                str(run.pending_after),
                str(run.duration_ms or ""),
                run.error or "",
            )
        out.print(table)
    if problems:
        for run in problems:
            err.print(f"{run.kind}: latest run {run.status} at {run.started.isoformat()}: {run.error}")
        raise typer.Exit(1)


@app.command()
def worker(
    interval: Annotated[
        float, typer.Option("--interval", min=0.1, help="Seconds between consolidations of pending turns.")
    ] = 5.0,
    global_every: Annotated[
        float, typer.Option("--global-every", min=1.0, help="Seconds between global passes.")
    ] = 3600.0,
    all_namespaces: Annotated[
        bool, typer.Option("--all-namespaces", help="Every namespace of the store, not only --namespace.")
    ] = False,
    once: Annotated[
        bool, typer.Option("--once", help="Run each job once (consolidate, then the global pass) and exit.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Run consolidation of pending turns and the global pass on a schedule, recording each run
    (see `jobs`). Stops on Ctrl-C or SIGTERM."""
    import signal
    import threading

    from simplemem_graph.worker import Worker

    job_worker = Worker(
        _memory,
        namespaces=None if all_namespaces else [state.namespace],
        interval_s=interval,
        global_every_s=global_every,
    )
    if once:
        runs = job_worker.consolidate_pending() + job_worker.global_pass(all_namespaces=True)
        for run in runs:
            _print_json(run.model_dump(mode="json")) if as_json else out.print(run.model_dump(mode="json"))
        if any(run.status != "ok" for run in runs):
            raise typer.Exit(1)
        return
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    job_worker.start()
    err.print(f"worker: consolidate every {interval:g}s, global pass every {global_every:g}s (Ctrl-C stops)")
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        job_worker.stop()


# ---- servers ---------------------------------------------------------------------------------------
@app.command()
def serve(
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8000,
    api_key: Annotated[
        list[str] | None,
        typer.Option("--api-key", help="KEY or KEY:ns1,ns2 (repeatable; env SIMPLEMEM_API_KEYS)."),
    ] = None,
    insecure: Annotated[
        bool, typer.Option("--insecure", help="Allow a non-local host without API keys.")
    ] = False,
    no_worker: Annotated[
        bool, typer.Option("--no-worker", help="Do not run the background worker in the server.")
    ] = False,
) -> None:
    """Serve the REST API, its OpenAPI docs (/docs) and the web graph inspector (/), with the
    background worker (see `worker`) unless --no-worker."""
    from api.app import run_server

    run_server(
        _memory, host=host, port=port, api_keys=api_key or None, insecure=insecure, worker=not no_worker
    )


@app.command()
def mcp(
    transport: Annotated[str, typer.Option("--transport", help="stdio | http")] = "stdio",
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8765,
    insecure: Annotated[
        bool, typer.Option("--insecure", help="Allow --transport http on a non-local host.")
    ] = False,
) -> None:
    """Serve the memory to agents over the Model Context Protocol."""
    from simplemem_graph.mcp_server import run_mcp

    if transport not in ("stdio", "http"):
        raise InputError(f"--transport {transport!r}: use stdio or http")
    run_mcp(_memory, transport=transport, host=host, port=port, insecure=insecure)


# ---- demo ------------------------------------------------------------------------------------------
DEMO_QUESTIONS = (
    ("上次那个客户博瑞科技后来怎么样了？", "2026-03-20T09:00:00+08:00"),
    ("When is the Northwind quote due and what is their price ceiling?", "2026-03-20T09:00:00+08:00"),
)


@app.command()
def demo(
    question: Annotated[
        str | None, typer.Option("--question", help="Ask this instead of the built-in ones.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Ingest a bundled Chinese + English conversation and answer questions about it.

    Uses a throw-away embedded store unless --store is given.
    """
    from simplemem_graph.memory import SAMPLE_CONVERSATION as sample

    with tempfile.TemporaryDirectory() as tmp:
        if state.store is None:
            state.store = str(Path(tmp) / "demo.db")
        turns = load_jsonl(sample, namespace=state.namespace)
        with _memory() as memory:
            with _progress() as progress:
                task = progress.add_task("ingest sample conversation", total=len(turns))
                report = memory.add_many(turns, progress=lambda n: progress.advance(task, n))
            asked = [(question, datetime.now(UTC).isoformat())] if question else DEMO_QUESTIONS
            answers = [memory.search(q, at=parse_time(at, "demo")).as_dict() for q, at in asked]
            counts = memory.stats()
    if as_json:
        _print_json(
            {
                "ingest": {"turns": report.turns_new, "events": report.events},
                "stats": counts,
                "answers": answers,
            }
        )
        return
    out.print(
        f"Ingested {report.turns_new} turns from {sample.name} → {report.events} events, "
        f"{counts['entities']} entities, {sum(counts['relations'].values())} relations"
    )
    for payload in answers:
        _print_hits(payload["query"], payload)


def _print_error(message: str) -> None:
    # One unwrapped line: scripts grep for the file and line it names.
    sys.stderr.write(f"error: {message}\n")


# ---- entry point -----------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> None:
    """Run the CLI: one-line errors, exit 2 for bad input, tracebacks only with --debug."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="simplemem-graph", standalone_mode=False)
        # Without standalone mode click returns a verb's `typer.Exit(code)` instead of exiting.
        if isinstance(code, int) and code:
            sys.exit(code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        err.print("aborted")
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except (InputError, ConfigError, NotFoundError) as e:
        if debug:
            raise
        _print_error(str(e))
        sys.exit(2)
    except SimpleMemError as e:
        if debug:
            raise
        _print_error(str(e))
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:
        if debug:
            raise
        _print_error(f"unexpected {type(e).__name__}: {e} (run with --debug for the traceback)")
        sys.exit(1)


# ---- embedding model (issue 10) ---------------------------------------------------------------
@app.command()
def reembed(as_json: JsonFlag = False) -> None:
    """Re-embed every event of the store with the configured model (SIMPLEMEM_EMBEDDING_MODEL)."""
    from simplemem_graph.embedding import reembed_store

    with _memory() as memory:
        total = sum(memory.store.stats(ns)["events"] for ns in memory.store.namespaces())
        with _progress() as progress:
            task = progress.add_task("reembed", total=total)
            counts = reembed_store(
                memory.store, memory.embedder, progress=lambda n: progress.advance(task, n)
            )
    payload = {**counts, "model": memory.embedder.name, "dimension": memory.embedder.dimension}
    _print_json(payload) if as_json else out.print(payload)


if __name__ == "__main__":
    main()
