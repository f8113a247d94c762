"""`simplemem-graph serve` as a real process: HTTP over a socket, keys from the environment."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

KEY = "serve-test-key"
REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    port = _free_port()
    env = {**os.environ, "SIMPLEMEM_API_KEYS": f"{KEY}:team"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "simplemem_graph",
            "--store",
            str(tmp_path / "served.db"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, process.stderr.read().decode()
        try:
            if httpx.get(f"{base}/v1/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "serve did not answer /v1/health within 120 s"
        time.sleep(0.3)
    yield base
    process.terminate()
    process.wait(timeout=30)


def test_serve_answers_over_http(served, sample_turns):
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=served, headers=headers, timeout=120) as http:
        added = http.post("/v1/namespaces/team/turns", json=sample_turns)
        assert added.status_code == 201 and added.json()["turns_new"] == len(sample_turns)
        found = http.post("/v1/namespaces/team/search", json={"query": "博瑞科技 交货日期", "k": 3}).json()
        assert found["results"] and any("s2:" in s for hit in found["results"] for s in hit["source_ids"])
        assert http.get("/v1/namespaces/other/stats").status_code == 403
    assert httpx.get(f"{served}/v1/namespaces/team/stats").status_code == 401
