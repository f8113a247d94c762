"""The `simplemem-graph` command line (FORMATS.md is its contract). Each verb adapts its arguments
and calls one `Memory` method; no logic lives here.

Exit status: 0 ok, 2 bad input (file, argument, unknown entity, a usage error, a store that does not
exist or cannot be opened or reached), 1 anything else. Errors print one line; `--debug` shows the
traceback.

The verbs live by group (`ingest`, `read`, `maintenance`, `jobs`, `servers`); this module registers
them in the order `--help` lists them and runs the app.
"""

from __future__ import annotations

import logging
import sys

import click
import typer

from simplemem_graph.cli import ingest, jobs, maintenance, read, servers
from simplemem_graph.cli.common import app, err, print_error
from simplemem_graph.errors import (
    ConfigError,
    InputError,
    NotFoundError,
    SimpleMemError,
    StoreUnavailableError,
)

__all__ = ["app", "main"]

# (command name or None for the function's own, verb), in the order `--help` lists them.
_VERBS = (
    (None, ingest.ingest),
    (None, ingest.compress),
    (None, read.search),
    (None, read.timeline),
    (None, read.conflicts),
    (None, read.questions),
    (None, read.patterns),
    (None, jobs.replay),
    (None, read.stats),
    (None, read.feedback),
    ("train-reranker", read.train_reranker),
    (None, maintenance.consolidate),
    (None, maintenance.rebuild),
    (None, maintenance.retry),
    (None, maintenance.forget),
    ("export", read.export_records),
    ("import", ingest.import_records),
    (None, jobs.jobs),
    (None, jobs.worker),
    (None, servers.serve),
    (None, servers.mcp),
    (None, ingest.demo),
    (None, maintenance.reembed),
)
for _name, _verb in _VERBS:
    app.command(_name)(_verb)

# Typer may run on a copy of click of its own: its usage errors are not `click.ClickException`s.
# Both are caught (the copy's ClickException found through a class typer exports).
# (Typed as click's: the copy's class has the same `show()` and `exit_code`.)
_CLICK_ERRORS: tuple[type[click.ClickException], ...] = tuple(
    {click.ClickException} | {cls for cls in typer.BadParameter.__mro__ if cls.__name__ == "ClickException"}
)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI: one-line errors, exit 2 for bad input, tracebacks only with --debug."""
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    if not debug:
        # The Neo4j driver logs its own line for a failed connection; the one-line error says it all.
        logging.getLogger("neo4j").addHandler(logging.NullHandler())
        logging.getLogger("neo4j").propagate = False
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="simplemem-graph", standalone_mode=False)
        # Without standalone mode click returns a verb's `typer.Exit(code)` instead of exiting.
        if isinstance(code, int) and code:
            sys.exit(code)
    except (click.exceptions.Exit, typer.Exit) as e:
        sys.exit(e.exit_code)
    except (click.exceptions.Abort, typer.Abort):
        err.print("aborted")
        sys.exit(130)
    except _CLICK_ERRORS as e:
        e.show()  # a usage error (unknown option, missing argument...): click's exit code, 2
        sys.exit(e.exit_code)
    except (InputError, ConfigError, NotFoundError, StoreUnavailableError) as e:
        if debug:
            raise
        print_error(str(e))
        sys.exit(2)
    except SimpleMemError as e:
        if debug:
            raise
        print_error(str(e))
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:
        if debug:
            raise
        print_error(f"unexpected {type(e).__name__}: {e} (run with --debug for the traceback)")
        sys.exit(1)
