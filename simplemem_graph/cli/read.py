"""Verbs that read memory: search, timeline, conflicts, questions, patterns, stats, export, and
the feedback that trains this namespace's reranker."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from simplemem_graph.cli import common
from simplemem_graph.cli.common import JsonFlag, err, out, parse_date, print_hits, print_json, state
from simplemem_graph.errors import InputError
from simplemem_graph.loaders import load_jsonl_records, parse_time
from simplemem_graph.models import Hit


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
        typer.Option(
            "--budget",
            min=1,
            help="Fill up to N tokens of text, best first (instead of --k); one strong memory too long "
            "for what is left shows its clauses about the query, marked … (path: cut to fit).",
        ),
    ] = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Only memories written by this agent.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Retrieve the memories that answer a question, with sources and the path that found them."""
    if (query is None) == (queries is None):
        raise InputError("search: give either a QUERY or --queries FILE")
    batch: list[dict[str, Any]] = (
        _read_queries(queries)
        if queries is not None
        else [{"id": None, "query": query, "at": parse_time(at, "--at") if at else None}]
    )
    with common.open_memory(read_only=True) as memory:
        for item in batch:
            result = memory.search(
                item["query"],
                k=k,
                at=item["at"],
                include_archived=include_archived,
                budget=budget,
                agent=agent,
            )
            # A namespace never written answers nothing: say so, since a typo would look the same.
            exists = bool(result.hits) or memory.exists()
            payload = {**result.as_dict(id=item["id"]), "namespace_exists": exists}
            if as_json:
                print_json(payload)
            else:
                print_hits(item["query"], payload)
                if not exists:
                    err.print(f"note: nothing was ever written to namespace {memory.namespace!r}")


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


def timeline(
    entity: Annotated[str, typer.Argument(help="An entity's name or any alias.")],
    date_from: Annotated[str | None, typer.Option("--from", help="YYYY-MM-DD")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="YYYY-MM-DD")] = None,
    include_archived: Annotated[bool, typer.Option("--include-archived")] = False,
    as_json: JsonFlag = False,
) -> None:
    """An entity's storyline, oldest first."""
    start, end = parse_date(date_from, "--from"), parse_date(date_to, "--to")
    with common.open_memory(read_only=True) as memory:
        story = memory.story(entity, date_from=start, date_to=end, include_archived=include_archived)
    hits = story.hits
    if as_json:
        for hit in hits:
            print_json(hit.public_dict())
        return
    # a name no entity has exactly says how it was read ("part of the name 'Lamplight'")
    found_by = "" if story.found_by == "name" else f" ({story.found_by})"
    table = Table("time", "memory", "status", "sources", title=f"timeline: {entity}{found_by}")
    for hit in hits:
        table.add_row(
            hit.event.time.isoformat()[:16], hit.event.text, hit.event.status, ", ".join(hit.event.source_ids)
        )
    out.print(table)


def conflicts(as_json: JsonFlag = False) -> None:
    """Contradictions waiting for clarification (never merged silently)."""
    with common.open_memory(read_only=True) as memory:
        found = [c.as_dict() for c in memory.conflicts()]
    if as_json:
        for conflict in found:
            print_json(conflict)
        return
    if not found:
        out.print("no open contradictions")
    for conflict in found:
        out.print(
            f"[bold]{conflict['attribute']}[/]: {conflict['older']['text']}  ⟷  {conflict['newer']['text']}"
        )


def questions(
    limit: Annotated[int, typer.Option("--limit", help="At most this many questions.")] = 20,
    as_json: JsonFlag = False,
) -> None:
    """What the agent should ask next: key slots (deadline, owner, amount, place, time) that tasks,
    meetings and commitments still lack, most important first. A later turn that fills a slot closes it."""
    with common.open_memory(read_only=True) as memory:
        found = memory.questions(limit=limit)
    if as_json:
        for question in found:
            print_json(question.public_dict())
        return
    if not found:
        out.print("no open questions")
        return
    table = Table("question", "slot", "about", "sources", title="open questions")
    for q in found:
        table.add_row(q.question, q.slot, q.event.text, ", ".join(q.event.source_ids))
    out.print(table)


def patterns(
    include_retired: Annotated[bool, typer.Option("--include-retired", help="Also broken patterns.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Pattern memories (regularities counted over many events) with their evidence; the global
    pass (`consolidate`) refreshes them."""
    with common.open_memory(read_only=True) as memory:
        found = memory.patterns(include_retired=include_retired)
    if as_json:
        for pattern, events in found:
            evidence = [Hit(event=e, score=1.0).public_dict() for e in events]
            print_json({**pattern.public_dict(), "evidence": evidence})
        return
    if not found:
        out.print("no patterns (run `consolidate` after ingesting)")
        return
    table = Table("pattern", "support", "rate", "status", "evidence", title="patterns")
    for pattern, events in found:
        rate = f"{pattern.rate:.2f}"
        table.add_row(pattern.text, str(pattern.support), rate, pattern.status, str(len(events)))
    out.print(table)


def stats(as_json: JsonFlag = False) -> None:
    """Counts of turns, events, entities, topics and relations."""
    with common.open_memory(read_only=True) as memory:
        counts = memory.stats()
    if as_json:
        print_json(counts)
        return
    for key, value in counts.items():
        out.print(f"{key:>18}: {value}")


def export_records(
    file: Annotated[Path | None, typer.Argument(help="Output JSON Lines file (default: stdout).")] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="With FILE: print the summary as JSON (the records are JSON Lines always)."
        ),
    ] = False,
) -> None:
    """Every record of the namespace as JSON Lines (turns, events, entities, topics, links)."""
    with common.open_memory(read_only=True) as memory:
        if file is None:
            for record in memory.export():
                print_json(record)
            return
        count = memory.export_jsonl(file)
    if as_json:
        print_json({"namespace": state.namespace, "file": str(file), "records": count})
    else:
        err.print(f"wrote {count} records to {file}")


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
    with common.open_memory(read_only=True) as memory:
        record = memory.feedback(query, helpful or [], shown, at=parse_time(at, "--at") if at else None)
    if as_json:
        print_json(record.public_dict())
        return
    seen = "every recalled memory" if record.shown is None else f"{len(record.shown)} shown"
    out.print(f"recorded {record.id}: {len(record.helpful)} helpful, {seen}")


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
    with common.open_memory(read_only=True) as memory:
        if reset:
            removed = memory.reset_reranker()
            if as_json:
                print_json({"namespace": memory.namespace, "reset": removed})
            else:
                out.print("removed the trained weights" if removed else "no trained weights to remove")
            return
        report = memory.train_reranker(folds=folds, apply=apply)
    if as_json:
        print_json(report)
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
