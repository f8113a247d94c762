"""Verbs of background work and measurement: jobs, worker, replay."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID
from rich.table import Table

from simplemem_graph.cli import common
from simplemem_graph.cli.common import JsonFlag, err, out, print_json, print_note, progress_bar, state
from simplemem_graph.config import Settings, is_neo4j_uri
from simplemem_graph.errors import InputError


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
    with common.open_memory(read_only=True) as memory:
        runs = memory.jobs(kind=kind, limit=limit)
        problems = latest_problems(memory) if check else []
        set_aside = memory.failed()
    if as_json:
        for run in runs:
            print_json(run.model_dump(mode="json"))
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
    if set_aside:
        print_note(f"{len(set_aside)} turns set aside, their consolidation failed (`retry` tries again):")
        for failure in set_aside:
            print_note(f"  {failure['turn_id']}: {failure['error']}")
    if problems:
        for run in problems:
            err.print(f"{run.kind}: latest run {run.status} at {run.started.isoformat()}: {run.error}")
    if problems or (check and set_aside):
        raise typer.Exit(1)


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
        common.open_memory,
        namespaces=None if all_namespaces else [state.namespace],
        interval_s=interval,
        global_every_s=global_every,
    )
    if once:
        runs = job_worker.consolidate_pending() + job_worker.global_pass(all_namespaces=True)
        for run in runs:
            print_json(run.model_dump(mode="json")) if as_json else out.print(run.model_dump(mode="json"))
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
    from simplemem_graph.embedding import make_embedder
    from simplemem_graph.memory import open_store
    from simplemem_graph.replay import (
        SLICES,
        SliceReport,
        load_config,
        load_replay_log,
        plot_replay,
        replay_scratch,
    )

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
        with progress_bar() as progress:
            for name, settings in configs:
                embedder = embedders.setdefault(
                    settings.embedding_model, make_embedder(settings.embedding_model)
                )
                task = progress.add_task(f"replay {name}", total=None)

                def advance(_report: SliceReport, task: TaskID = task) -> None:
                    progress.advance(task, 1)

                reports += replay_scratch(
                    replay_log,
                    embedder=embedder,
                    configs=[(name, settings)],
                    slices=slices,
                    store=server,
                    progress=advance,
                )
    finally:
        if server is not None:
            server.close()
    if plot is not None:
        plot_replay(reports, plot)
    if as_json:
        for report in reports:
            print_json(report.as_dict())
        return
    table = Table(
        "config",
        "slice",
        "turns",
        "events",
        "questions",
        "recall@5",
        "tokens@5",
        "p95_ms",
        title=f"replay {log.name} by {slices}",
    )
    for r in reports:
        row = r.as_dict()
        table.add_row(*("–" if v is None else str(v) for v in row.values()))
    out.print(table)
    if plot is not None:
        out.print(f"plot: {plot}")
