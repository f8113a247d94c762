"""What every verb shares: the app and its global options, the Memory factory, output helpers."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from simplemem_graph.config import Settings, default_store_path, is_neo4j_uri, sqlite_path, validate_namespace
from simplemem_graph.errors import InputError, NoSuchStoreError

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


STORE_HELP = (
    "A file path or sqlite:///path.db (embedded), or neo4j://host:7687 / bolt://... (Neo4j). "
    "As in SQLAlchemy, sqlite:///x.db is x.db relative to the current folder and sqlite:////x.db "
    "(four slashes) is the absolute path /x.db. Default: the user data folder."
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("simplemem-graph")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        out.print(f"simplemem-graph {number}")
        raise typer.Exit()


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
            help=STORE_HELP,
        ),
    ] = None,
    namespace: Annotated[
        str, typer.Option("--namespace", envvar="SIMPLEMEM_NAMESPACE", help="The tenant (user, agent, team).")
    ] = "default",
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    state.store = store
    state.namespace = validate_namespace(namespace)
    state.debug = debug


def open_memory(namespace: str | None = None, *, read_only: bool = False):
    """Verbs call it as `common.open_memory`, looked up when they run, so a test can substitute it.

    The namespace's Memory. A read-only verb refuses an embedded store file that does not exist:
    opening it would create an empty store and answer nothing, which hides a mistyped path."""
    from simplemem_graph.memory import Memory

    settings = Settings.from_env()
    if read_only:
        _check_store_exists(state.store or settings.store)
    return Memory.open(state.store, namespace=namespace or state.namespace, settings=settings)


def _check_store_exists(uri: str | None) -> None:
    if uri is not None and (is_neo4j_uri(uri) or sqlite_path(uri) == ":memory:"):
        return
    path = Path(sqlite_path(uri)) if uri is not None else default_store_path()
    if not path.is_file():
        raise NoSuchStoreError(
            f"no such store: {path.resolve()} does not exist (only ingest, import and demo create one; "
            "sqlite:///x.db is relative to the current folder, sqlite:////x.db is absolute)"
        )


def print_json(obj: Any) -> None:
    # Plain write, not rich: JSON Lines must never be re-wrapped or coloured.
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def progress_bar() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )


def parse_date(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as e:
        raise InputError(f"{option}: {value!r} is not an ISO date (YYYY-MM-DD)") from e


def print_note(message: str) -> None:
    # One unwrapped line on stderr (rich would wrap a long path): scripts grep for it.
    sys.stderr.write(message + "\n")


def print_error(message: str) -> None:
    # One unwrapped line: scripts grep for the file and line it names.
    sys.stderr.write(f"error: {message}\n")


def print_counts(title: str, counts: dict[str, Any]) -> None:
    """A report's counts, one per line (nested counts indented), instead of a dict's repr."""
    out.print(title)

    def lines(values: dict[str, Any], depth: int) -> None:
        for key, value in values.items():
            if isinstance(value, dict):
                out.print(f"{'  ' * depth}{key}:", markup=False)
                lines(value, depth + 1)
            else:
                out.print(f"{'  ' * depth}{key}: {value}", markup=False)

    lines(counts, 1)


def print_hits(query: str, payload: dict[str, Any]) -> None:
    table = Table(title=f"{query}  ({payload['took_ms']:.0f} ms)", show_lines=True)
    for column in ("#", "score", "time"):
        table.add_column(column, no_wrap=True)
    table.add_column("memory", overflow="fold", ratio=3)
    table.add_column("sources", overflow="fold", ratio=1)
    table.add_column("path", overflow="fold", ratio=1)
    for i, hit in enumerate(payload["results"], 1):
        day = hit["time"][:10]
        # Asked "when", a memory opens with the day it was said ("[2026-03-12] …"): the time column
        # already shows it, so the table does not say it twice (--json keeps the text as returned).
        text = hit["text"].removeprefix(f"[{day}] ")
        table.add_row(
            str(i),
            f"{hit['score']:.3f}",
            day,
            text,
            ", ".join(hit["source_ids"]),
            " → ".join(hit["path"]),
        )
    out.print(table)
