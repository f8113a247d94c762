"""POST /v1/namespaces/{ns}/feedback: labelled search results for `train-reranker` (issue 10)."""

ASKED_AT = "2026-03-20T09:00:00+08:00"
QUERY = "What is Northwind's price ceiling?"


def _results(client, ns="acme"):
    response = client.post(f"/v1/namespaces/{ns}/search", json={"query": QUERY, "at": ASKED_AT})
    assert response.status_code == 200, response.text
    return [r["id"] for r in response.json()["results"]]


def test_feedback_is_recorded_and_reposting_keeps_one_record(loaded_client):
    shown = _results(loaded_client)
    body = {"query": QUERY, "helpful": shown[:1], "shown": shown, "at": ASKED_AT}
    first = loaded_client.post("/v1/namespaces/acme/feedback", json=body)
    assert first.status_code == 201, first.text
    record = first.json()
    assert record["namespace"] == "acme" and record["query"] == QUERY
    assert record["helpful"] == shown[:1] and record["shown"] == shown
    assert record["id"].startswith("fb-")
    again = loaded_client.post("/v1/namespaces/acme/feedback", json=body)
    assert again.status_code == 201 and again.json()["id"] == record["id"]
    pool = loaded_client.app.state.pool
    stored = [f for f in pool.get("acme").store.feedback("acme") if f.id == record["id"]]
    assert len(stored) == 1 and stored[0].shown == shown


def test_unknown_event_ids_get_422_and_nothing_is_recorded(loaded_client):
    store = loaded_client.app.state.pool.get("acme").store
    before = store.feedback("acme")
    shown = _results(loaded_client)
    response = loaded_client.post(
        "/v1/namespaces/acme/feedback", json={"query": QUERY, "helpful": [shown[0], "ev-nope"]}
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["type"] == "InputError" and "ev-nope" in error["message"]
    # Another namespace's events are unknown here too.
    elsewhere = loaded_client.post("/v1/namespaces/other/feedback", json={"query": QUERY, "helpful": shown})
    assert elsewhere.status_code == 422
    assert store.feedback("acme") == before and store.feedback("other") == []


def test_bad_bodies_get_422_naming_the_field(loaded_client):
    for body, named in (
        ({"helpful": ["x"]}, "query"),
        ({"query": QUERY, "helpful": "ev-1"}, "helpful"),
        ({"query": QUERY, "helpfull": ["x"]}, "helpfull"),
        ({"query": QUERY}, "helpful"),
    ):
        response = loaded_client.post("/v1/namespaces/acme/feedback", json=body)
        assert response.status_code == 422, body
        assert named in response.json()["error"]["message"], body


def test_the_route_is_in_openapi(loaded_client):
    spec = loaded_client.get("/openapi.json").json()
    operation = spec["paths"]["/v1/namespaces/{ns}/feedback"]["post"]
    assert "201" in operation["responses"] and "422" in operation["responses"]
