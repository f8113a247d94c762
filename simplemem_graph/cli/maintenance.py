"""Verbs that rework memory: consolidate, rebuild, retry, forget, reembed."""

from __future__ import annotations

from typing import Annotated

import typer

from simplemem_graph.cli import common
from simplemem_graph.cli.common import JsonFlag, out, print_counts, print_json, progress_bar, state
from simplemem_graph.loaders import parse_time


def consolidate(
    now: Annotated[str | None, typer.Option("--now", help="ISO time to age memories against.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Consolidate pending turns, then the global pass: merge duplicates, resolve aliases,
    re-cluster topics, decay and tier moves."""
    with common.open_memory(read_only=True) as memory:
        report = memory.consolidate(now=parse_time(now, "--now") if now else None)
    if as_json:
        print_json(report)
        return
    print_counts(f"consolidated namespace {state.namespace}", report)


def rebuild(as_json: JsonFlag = False) -> None:
    """Drop the graph and rebuild it from the raw log (the source of truth)."""
    with common.open_memory(read_only=True) as memory:
        turns = memory.turns()
        with progress_bar() as progress:
            task = progress.add_task("rebuild", total=len(turns))
            report = memory.rebuild(progress=lambda n: progress.advance(task, n))
    payload = report.as_dict()
    if as_json:
        print_json(payload)
        return
    out.print(
        f"rebuilt namespace {state.namespace}: {report.turns_consolidated} turns → {report.events} events"
    )
    print_counts("links and nodes written", report.consolidate)


def retry(as_json: JsonFlag = False) -> None:
    """Consolidate again the turns set aside because their consolidation failed (see `stats` and
    `jobs`); those that fail again stay aside, each listed with its error."""
    with common.open_memory(read_only=True) as memory:
        report = memory.retry_failed()
    payload = report.as_dict()
    if as_json:
        print_json(payload)
        return
    out.print(f"{report.turns_consolidated} turns consolidated, {len(report.failed)} still set aside")
    for failure in report.failed:
        out.print(f"  {failure['turn_id']}: {failure['error']}", markup=False)


def forget(
    event: Annotated[
        str | None, typer.Option("--event", help="An event id (and the turns it was made from).")
    ] = None,
    turn: Annotated[str | None, typer.Option("--turn", help="A turn id of the raw log.")] = None,
    entity: Annotated[
        str | None,
        typer.Option(
            "--entity", help="An entity name or alias: every turn naming it, every event mentioning it."
        ),
    ] = None,
    everything: Annotated[
        bool, typer.Option("--everything", help="The whole namespace, raw log included.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List what would be erased (with its text); change nothing.")
    ] = False,
    as_json: JsonFlag = False,
) -> None:
    """Erase for good: the text leaves the raw log (a tombstone that `rebuild` and re-ingests
    honour), the events, vectors, fulltext indexes and links. --event also erases the turns the
    event was made from, and every event made from them."""
    with common.open_memory(read_only=True) as memory:
        erasure = memory.forget(
            event_id=event, turn_id=turn, entity=entity, everything=everything, dry_run=dry_run
        )
    payload = erasure.as_dict()
    if as_json:
        print_json(payload)
        return
    verb = "would erase" if dry_run else "erased"
    if erasure.everything:
        out.print(f"{verb} namespace {state.namespace}: {erasure.event_count} events and its whole raw log")
        return
    out.print(
        f"{verb} in {state.namespace}: {len(erasure.turns)} turns, {erasure.event_count} events"
        + (f", entity {', '.join(erasure.entities)}" if erasure.entities else "")
    )
    if dry_run:
        for kind, items in (("turn", erasure.turns), ("event", erasure.events)):
            for item in items:
                out.print(f"  {kind} {item['id']}: {item['text']}", markup=False)


def reembed(as_json: JsonFlag = False) -> None:
    """Re-embed every event of the store with the configured model (SIMPLEMEM_EMBEDDING_MODEL)."""

    with common.open_memory() as memory, progress_bar() as progress:
        # Every namespace of the store is re-embedded: the bar counts events without a total.
        task = progress.add_task("reembed", total=None)
        counts = memory.reembed(progress=lambda n: progress.advance(task, n))
    payload = {**counts, "model": memory.embedder.name, "dimension": memory.embedder.dimension}
    print_json(payload) if as_json else out.print(payload)
