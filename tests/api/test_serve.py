"""`simplemem-graph serve` as a real process: HTTP over a socket, keys from the environment."""

import httpx
import pytest

from tests.serve_process import serve

KEY = "serve-test-key"


@pytest.fixture
def served(tmp_path):
    with serve(tmp_path / "served.db", api_keys=f"{KEY}:team") as base:
        yield base


def test_serve_answers_over_http(served, sample_turns):
    headers = {"Authorization": f"Bearer {KEY}"}
    with httpx.Client(base_url=served, headers=headers, timeout=120) as http:
        added = http.post("/v1/namespaces/team/turns", json=sample_turns)
        assert added.status_code == 201 and added.json()["turns_new"] == len(sample_turns)
        found = http.post("/v1/namespaces/team/search", json={"query": "博瑞科技 交货日期", "k": 3}).json()
        assert found["results"] and any("s2:" in s for hit in found["results"] for s in hit["source_ids"])
        assert http.get("/v1/namespaces/other/stats").status_code == 403
    assert httpx.get(f"{served}/v1/namespaces/team/stats").status_code == 401
