"""Verbs that write turns: ingest, compress (writes nothing), import, and the demo."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from simplemem_graph.cli import common
from simplemem_graph.cli.common import JsonFlag, out, print_hits, print_json, print_note, progress_bar, state
from simplemem_graph.config import validate_namespace
from simplemem_graph.errors import InputError
from simplemem_graph.loaders import load_jsonl, load_jsonl_records, load_locomo, load_turns, parse_time


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
    skip_invalid: Annotated[
        bool,
        typer.Option(
            "--skip-invalid",
            help="Ingest the valid lines of a JSON Lines file and report each line left out "
            "(default: one bad line rejects the whole file).",
        ),
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Log, compress and consolidate turns. Re-ingesting the same file adds nothing.

    Turns are logged as pending first; an interrupted ingest is completed by the next `ingest`,
    `consolidate` or the worker. Several processes may ingest into one namespace at once.

    A LoCoMo file with several conversations and no --sample puts each conversation in its own
    namespace, <namespace>-<sample_id>, since their turn ids (dia_ids) repeat across conversations.
    """
    skipped: list[tuple[str, str]] | None = [] if skip_invalid else None
    # Everything validated before anything is written.
    batches = _ingest_batches(file, fmt, sample, skipped=skipped)
    for where, why in skipped or []:
        print_note(f"skipped {where}: {why}")
    if agent is not None:
        if not agent.strip():
            raise InputError("--agent: give a non-empty agent name")
        batches = {
            namespace: [t if t.agent else t.model_copy(update={"agent": agent}) for t in turns]
            for namespace, turns in batches.items()
        }
    reports = {}
    with progress_bar() as progress:
        for namespace, turns in batches.items():
            task = progress.add_task(f"ingest {namespace}", total=len(turns))
            with common.open_memory(namespace) as memory:
                report = memory.add_many(turns, progress=lambda n, t=task: progress.advance(t, n))
            reports[namespace] = report.as_dict() | {"namespace": namespace}
            if skipped is not None:
                reports[namespace]["invalid_skipped"] = [{"where": w, "error": e} for w, e in skipped]
    for report in reports.values():
        report.pop("event_ids", None)
        if as_json:
            print_json(report)
        else:
            out.print(
                f"[bold]{report['namespace']}[/]: {report['turns_new']} new turns "
                f"({report['turns_skipped']} already logged), {report['events']} events, "
                f"{report['turns_consolidated']} turns consolidated"
                + (f", {len(skipped)} invalid lines left out" if skipped else "")
            )
            for failure in report["failed"]:
                print_note(f"set aside {failure['turn_id']}: {failure['error']}")


def _ingest_batches(
    file: Path, fmt: str, sample: str | None, *, skipped: list[tuple[str, str]] | None = None
) -> dict[str, list]:
    from simplemem_graph.loaders import detect_format

    if fmt == "auto":
        fmt = detect_format(file)
    if fmt != "locomo" or sample is not None:
        turns = load_turns(file, fmt=fmt, sample=sample, namespace=state.namespace, skipped=skipped)
        return {state.namespace: turns}
    conversations = load_locomo(file, namespace=state.namespace)
    if len(conversations) == 1:
        return {state.namespace: next(iter(conversations.values()))}
    batches = {}
    for sample_id, turns in conversations.items():
        namespace = validate_namespace(f"{state.namespace}-{sample_id}")
        batches[namespace] = [t.model_copy(update={"namespace": namespace}) for t in turns]
    return batches


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
            print_json(event.public_dict())
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
    with common.open_memory() as memory:
        counts = memory.import_records(records)
    if as_json:
        print_json(counts)
        return
    out.print(
        f"imported into {state.namespace}: "
        + ", ".join(f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in counts.items())
    )


DEMO_QUESTIONS = (
    ("上次那个客户博瑞科技后来怎么样了？", "2026-03-20T09:00:00+08:00"),
    ("When is the Northwind quote due and what is their price ceiling?", "2026-03-20T09:00:00+08:00"),
)


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
        with common.open_memory() as memory:
            with progress_bar() as progress:
                task = progress.add_task("ingest sample conversation", total=len(turns))
                report = memory.add_many(turns, progress=lambda n: progress.advance(task, n))
            asked = [(question, datetime.now(UTC).isoformat())] if question else DEMO_QUESTIONS
            answers = [memory.search(q, at=parse_time(at, "demo")).as_dict() for q, at in asked]
            counts = memory.stats()
    if as_json:
        print_json(
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
        print_hits(payload["query"], payload)
