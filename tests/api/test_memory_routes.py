"""The /v1 memory routes over a real embedded store and the real models."""

import json
import re
from datetime import datetime

import pytest

ASKED_AT = "2026-03-20T09:00:00+08:00"
NORTHWIND_TURNS = {"en1:1", "en1:2", "en2:1"}


def _search(client, query, ns="acme", **extra):
    response = client.post(f"/v1/namespaces/{ns}/search", json={"query": query, "at": ASKED_AT, **extra})
    assert response.status_code == 200, response.text
    return response.json()


# ---- turns -----------------------------------------------------------------------------------------
def test_single_turn_gets_formats_defaults_and_reposting_is_harmless(client):
    turn = {"text": "Acme Corp signed a contract for $300 on 2026-03-02", "speaker": "Ana"}
    first = client.post("/v1/namespaces/demo/turns", json=turn)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["turns_new"] == 1 and body["turns_skipped"] == 0
    assert body["events"] == len(body["event_ids"]) >= 1
    exported = [r for r in _export(client, "demo") if r["type"] == "turn"]
    # The default id is derived from the content, not from a count of the rows already logged.
    assert [(r["session"], r["speaker"]) for r in exported] == [("default", "Ana")]
    assert re.fullmatch(r"default:[0-9a-f]{16}", exported[0]["id"])

    again = client.post("/v1/namespaces/demo/turns", json={**turn, "id": exported[0]["id"]})
    assert again.json()["turns_new"] == 0 and again.json()["turns_skipped"] == 1
    retried = client.post("/v1/namespaces/demo/turns", json={**turn, "time": exported[0]["time"]})
    assert retried.json()["turns_new"] == 0  # the same turn, retried without an id: not logged twice


def test_batch_in_both_shapes(client, sample_turns):
    as_list = client.post("/v1/namespaces/a/turns", json=sample_turns[:3])
    as_object = client.post("/v1/namespaces/b/turns", json={"turns": sample_turns[:3]})
    assert as_list.status_code == as_object.status_code == 201
    assert as_list.json()["turns_new"] == as_object.json()["turns_new"] == 3
    assert as_list.json()["events"] == as_object.json()["events"]


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"speaker": "Ana"}, "text"),
        ({"text": ""}, "text"),
        ({"text": "hello", "txet": "typo"}, "txet"),
        ({"text": "hello", "time": "next tuesday-ish"}, "time"),
        ({"turns": []}, "turns"),
    ],
)
def test_bad_turns_get_422_naming_the_field(client, body, named):
    response = client.post("/v1/namespaces/demo/turns", json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["type"] == "ValidationError" and named in error["message"]
    assert client.get("/v1/namespaces/demo/stats").json()["turns"] == 0  # nothing half-written


# ---- search and context ----------------------------------------------------------------------------
def test_search_returns_the_formats_object(loaded_client):
    payload = _search(
        loaded_client, "When is the Northwind quote due and what is their price ceiling?", id="q7"
    )
    assert payload["id"] == "q7" and payload["query"].startswith("When is the Northwind")
    assert payload["took_ms"] > 0 and payload["context_tokens"] > 0
    assert 1 <= len(payload["results"]) <= 5
    first = payload["results"][0]
    assert set(first) >= {"id", "text", "time", "score", "source_ids", "path"}
    assert {s for hit in payload["results"][:3] for s in hit["source_ids"]} & NORTHWIND_TURNS


def test_search_k_and_validation(loaded_client):
    assert len(_search(loaded_client, "博瑞科技 扫码枪", k=2)["results"]) <= 2
    for bad in ({"query": ""}, {"query": "x", "k": 0}, {"query": "x", "k": 51}, {}):
        response = loaded_client.post("/v1/namespaces/acme/search", json=bad)
        assert response.status_code == 422, bad


def test_context_puts_memories_before_the_instruction(loaded_client):
    response = loaded_client.post(
        "/v1/namespaces/acme/context",
        json={"query": "Northwind price ceiling", "at": ASKED_AT, "instruction": "Answer briefly."},
    )
    assert response.status_code == 200, response.text
    text = response.json()["context"]
    assert "18,500" in text or "18500" in text
    assert text.rstrip().endswith("Answer briefly.")


def test_namespaces_are_isolated(loaded_client):
    assert _search(loaded_client, "Northwind quote", ns="someone-else")["results"] == []
    assert loaded_client.get("/v1/namespaces/someone-else/stats").json()["events"] == 0
    assert loaded_client.get("/v1/namespaces/acme/stats").json()["turns"] == 14


# ---- timeline, conflicts, stats, namespaces -------------------------------------------------------
def test_timeline_is_oldest_first_and_paginates(loaded_client):
    full = loaded_client.get("/v1/namespaces/acme/timeline/Northwind Foods").json()
    times = [datetime.fromisoformat(item["time"]) for item in full["items"]]
    assert len(times) >= 2 and full["total"] == len(times) and full["next_offset"] is None
    assert times == sorted(times)

    first = loaded_client.get("/v1/namespaces/acme/timeline/Northwind Foods?limit=1").json()
    assert (
        first["items"] == full["items"][:1] and first["next_offset"] == 1 and first["total"] == full["total"]
    )
    rest = loaded_client.get("/v1/namespaces/acme/timeline/Northwind Foods?limit=100&offset=1").json()
    assert first["items"] + rest["items"] == full["items"]


def test_timeline_date_range(loaded_client):
    path = "/v1/namespaces/acme/timeline/Northwind Foods"
    full = loaded_client.get(path).json()["items"]
    # The story runs from the first mention to the turn that continues the thread on 03-12.
    days = [item["time"][:10] for item in full]
    assert days[0] < "2026-03-12" and days[-1] == "2026-03-12"
    # A range keeps what happened in it: everything said before 03-12, and a 03-12 report of what
    # was done "yesterday" (it happened on 03-11), but not the 03-12 turn about 03-12 itself.
    window = loaded_client.get(f"{path}?from=2026-03-01&to=2026-03-11").json()["items"]
    assert [item for item in full if item in window] == window
    assert [item for item, day in zip(full, days, strict=True) if day <= "2026-03-11"] == [
        item for item in window if item["time"][:10] <= "2026-03-11"
    ]
    assert "so the deal is on track." in {item["text"] for item in full} - {item["text"] for item in window}
    assert loaded_client.get(f"{path}?from=2026-03-01&to=2026-03-12").json()["items"] == full
    assert loaded_client.get(f"{path}?from=2026-03-20&to=2026-03-31").json()["items"] == []
    assert loaded_client.get(f"{path}?to=2026-03-02").json()["items"] == []
    assert loaded_client.get(f"{path}?from=2026-03-12&to=2026-03-01").status_code == 422
    assert loaded_client.get(f"{path}?from=March").status_code == 422


def test_timeline_of_unknown_entity_is_404(loaded_client):
    response = loaded_client.get("/v1/namespaces/acme/timeline/Nobody Inc")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "type": "NotFoundError",
        "message": "timeline: no entity named 'Nobody Inc' in namespace 'acme'",
    }


def test_conflicts_is_a_page(loaded_client):
    page = loaded_client.get("/v1/namespaces/acme/conflicts?limit=5").json()
    assert set(page) == {"items", "total", "limit", "offset", "next_offset"}
    assert page["limit"] == 5 and len(page["items"]) == min(5, page["total"])


def test_stats_and_namespace_list(loaded_client):
    stats = loaded_client.get("/v1/namespaces/acme/stats").json()
    assert stats["turns"] == 14 and stats["events"] > 0 and stats["entities"] > 0
    assert "NEXT" in stats["relations"] and "MENTIONS" in stats["relations"]
    loaded_client.post("/v1/namespaces/zeta/turns", json={"text": "Zeta Ltd owes us $40."})
    names = loaded_client.get("/v1/namespaces").json()
    assert names["items"] == sorted(names["items"]) and {"acme", "zeta"} <= set(names["items"])
    page = loaded_client.get("/v1/namespaces?limit=1&offset=1").json()
    assert page["items"] == names["items"][1:2] and page["total"] == names["total"]
    assert loaded_client.get("/v1/namespaces?limit=0").status_code == 422


def test_bad_namespace_name_is_400(loaded_client):
    response = loaded_client.get("/v1/namespaces/a|b/stats")
    assert response.status_code == 400 and response.json()["error"]["type"] == "ConfigError"


# ---- graph (the inspector's view) -------------------------------------------------------------------
def test_graph_neighbourhood_of_search_hits(loaded_client):
    hits = _search(loaded_client, "Northwind revised quote")["results"]
    ids = [hit["id"] for hit in hits]
    graph = loaded_client.get(f"/v1/namespaces/acme/graph?event_ids={','.join(ids)}&hops=1").json()
    nodes = {node["id"]: node for node in graph["nodes"]}
    assert set(ids) <= set(nodes) and all(nodes[i]["seed"] for i in ids)
    assert {"event", "entity"} <= {node["kind"] for node in nodes.values()}
    assert graph["edges"] and all(e["source"] in nodes and e["target"] in nodes for e in graph["edges"])
    assert "MENTIONS" in {e["kind"] for e in graph["edges"]}
    seed = nodes[ids[0]]
    assert seed["props"]["source_ids"] and seed["props"]["source_turns"]
    assert {t["id"] for t in seed["props"]["source_turns"]} == set(seed["props"]["source_ids"])

    only_seeds = loaded_client.get(f"/v1/namespaces/acme/graph?event_ids={ids[0]}&hops=0").json()
    assert [n["id"] for n in only_seeds["nodes"]] == [ids[0]]
    capped = loaded_client.get(f"/v1/namespaces/acme/graph?event_ids={ids[0]}&hops=2&max_nodes=3").json()
    assert len(capped["nodes"]) <= 3


def test_graph_errors(loaded_client):
    assert loaded_client.get("/v1/namespaces/acme/graph?event_ids=ev-nope").status_code == 404
    assert loaded_client.get("/v1/namespaces/acme/graph?event_ids=,").status_code == 422
    assert loaded_client.get("/v1/namespaces/acme/graph").status_code == 422


# ---- maintenance ----------------------------------------------------------------------------------
def test_consolidate_returns_counts(client, sample_turns):
    client.post("/v1/namespaces/acme/turns", json=sample_turns)
    response = client.post("/v1/namespaces/acme/consolidate")
    assert response.status_code == 200, response.text
    assert all(isinstance(v, int) for v in response.json().values())


def test_forget_event_entity_and_namespace(client, sample_turns):
    client.post("/v1/namespaces/acme/turns", json=sample_turns)
    events_before = client.get("/v1/namespaces/acme/stats").json()["events"]
    event_id = _search(client, "Northwind price ceiling")["results"][0]["id"]

    preview = client.delete(f"/v1/namespaces/acme/events/{event_id}", params={"dry_run": True}).json()
    assert preview["dry_run"] and event_id in [e["id"] for e in preview["events"]]
    assert client.get("/v1/namespaces/acme/stats").json()["events"] == events_before  # nothing changed
    erased = client.delete(f"/v1/namespaces/acme/events/{event_id}").json()
    # The event goes with the turns it was made from, and every other event made from them.
    assert erased["events"] == [e["id"] for e in preview["events"]] and erased["erased_turns"] >= 1
    assert (
        client.get("/v1/namespaces/acme/stats").json()["events"] == events_before - erased["deleted_events"]
    )
    missing = client.delete(f"/v1/namespaces/acme/events/{event_id}")
    assert missing.status_code == 404 and event_id in missing.json()["error"]["message"]

    assert client.delete("/v1/namespaces/acme/entities/Northwind Foods").status_code == 200
    assert client.get("/v1/namespaces/acme/timeline/Northwind Foods").status_code == 404
    assert client.delete("/v1/namespaces/acme/entities/Northwind Foods").status_code == 404

    remaining = client.get("/v1/namespaces/acme/stats").json()["events"]
    assert client.delete("/v1/namespaces/acme").json()["deleted_events"] == remaining
    assert client.get("/v1/namespaces/acme/stats").json()["turns"] == 0


def _export(client, ns, **params):
    response = client.get(f"/v1/namespaces/{ns}/export", params=params)
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def test_export_import_round_trip_and_pages(client, sample_turns):
    client.post("/v1/namespaces/acme/turns", json=sample_turns[:6])
    records = _export(client, "acme")
    assert {"turn", "event", "entity", "link"} <= {r["type"] for r in records}
    pages = _export(client, "acme", limit=5) + _export(client, "acme", limit=5, offset=5)
    assert pages == records[:10]
    assert _export(client, "acme", offset=len(records)) == []
    # An offset past any store's size is a 422 naming it, not a server error.
    huge = client.get("/v1/namespaces/acme/export", params={"limit": 1, "offset": 2**63 - 1})
    assert huge.status_code == 422 and "offset" in huge.text

    body = "".join(json.dumps(r) + "\n" for r in records)
    imported = client.post(
        "/v1/namespaces/copy/import", content=body, headers={"content-type": "application/x-ndjson"}
    )
    assert imported.status_code == 200, imported.text
    assert sum(imported.json()["imported"].values()) == len(records)
    source, copy = (
        client.get("/v1/namespaces/acme/stats").json(),
        client.get("/v1/namespaces/copy/stats").json(),
    )
    assert {k: source[k] for k in ("turns", "events", "entities", "relations")} == {
        k: copy[k] for k in ("turns", "events", "entities", "relations")
    }
    again = client.post("/v1/namespaces/copy/import", content=body)
    assert again.status_code == 200 and client.get("/v1/namespaces/copy/stats").json() == copy


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('{"type": "turn"}\nnot json\n', "line 2"),
        ("", "empty"),
        ('[{"type": "spaceship"}]', "spaceship"),
        ("[1, 2]", "record 1"),
    ],
)
def test_import_bad_input_is_422(client, body, named):
    response = client.post("/v1/namespaces/acme/import", content=body)
    assert response.status_code == 422, response.text
    assert named in response.json()["error"]["message"]
