"""Verbs that serve memory to other programs: the REST API and MCP."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from simplemem_graph.cli import common
from simplemem_graph.errors import InputError


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
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin",
            help="An origin whose browser pages may call the API (repeatable; env SIMPLEMEM_CORS_ORIGINS, "
            "comma-separated). Default: none.",
        ),
    ] = None,
) -> None:
    """Serve the REST API, its OpenAPI docs (/docs) and the web graph inspector (/), with the
    background worker (see `worker`) unless --no-worker."""
    from api.app import run_server

    run_server(
        common.open_memory,
        host=host,
        port=port,
        api_keys=api_key or None,
        insecure=insecure,
        worker=not no_worker,
        cors_origins=cors_origin or None,
    )


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
    mode: Literal["stdio", "http"] = "stdio" if transport == "stdio" else "http"
    run_mcp(common.open_memory, transport=mode, host=host, port=port, insecure=insecure)
