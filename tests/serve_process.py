"""`simplemem-graph serve` as a real process on a free loopback port, for tests that need HTTP
over a socket (the API's serve test, the browser test)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(store: Path, *, api_keys: str = "", timeout_s: float = 120) -> Iterator[str]:
    """Start `serve` on `store`, wait for /v1/health, yield the base URL, stop it afterwards."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simplemem_graph",
            "--store",
            str(store),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env={**os.environ, "SIMPLEMEM_API_KEYS": api_keys},
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            assert process.poll() is None, process.stderr.read().decode()
            try:
                if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"serve did not answer /v1/health within {timeout_s:.0f} s"
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
