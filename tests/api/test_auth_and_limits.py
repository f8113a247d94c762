"""API keys (401/403), request size limits (413), the error shape, docs and the bind policy."""

import pytest
from fastapi.testclient import TestClient

from api.app import ApiLimits, check_bind, create_app
from api.auth import load_api_keys, parse_api_keys
from simplemem_graph.errors import ConfigError

KEYS = "acme-key:acme;admin-key:*;two-key:acme,beta"
TURN = {"text": "Acme Corp signed a contract for $300 on 2026-03-02", "speaker": "Ana"}


@pytest.fixture
def secured(memory):
    with TestClient(create_app(memory, api_keys=KEYS)) as test_client:
        yield test_client


def test_missing_or_unknown_key_is_401(secured):
    missing = secured.get("/v1/namespaces/acme/stats")
    assert missing.status_code == 401
    assert missing.json()["error"]["type"] == "AuthenticationError"
    assert "Authorization: Bearer" in missing.json()["error"]["message"]
    wrong = secured.get("/v1/namespaces/acme/stats", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json()["error"]["message"] == "unknown API key"
    assert secured.get("/v1/namespaces").status_code == 401


def test_both_headers_are_accepted(secured):
    assert (
        secured.get("/v1/namespaces/acme/stats", headers={"Authorization": "Bearer acme-key"}).status_code
        == 200
    )
    assert secured.get("/v1/namespaces/acme/stats", headers={"X-API-Key": "acme-key"}).status_code == 200


def test_key_limited_to_namespaces_gets_403_elsewhere(secured):
    acme = {"X-API-Key": "acme-key"}
    assert secured.post("/v1/namespaces/acme/turns", json=TURN, headers=acme).status_code == 201
    forbidden = secured.post("/v1/namespaces/beta/turns", json=TURN, headers=acme)
    assert forbidden.status_code == 403
    assert forbidden.json()["error"] == {
        "type": "NamespaceForbiddenError",
        "message": "this API key may not use namespace 'beta'",
    }
    assert secured.get("/v1/namespaces/beta/stats", headers={"X-API-Key": "two-key"}).status_code == 200
    assert secured.delete("/v1/namespaces/beta", headers=acme).status_code == 403
    assert secured.get("/v1/namespaces/beta/stats", headers={"X-API-Key": "admin-key"}).status_code == 200


def test_namespace_list_shows_only_what_the_key_may_see(secured):
    admin = {"X-API-Key": "admin-key"}
    for ns in ("acme", "beta", "gamma"):
        secured.post(f"/v1/namespaces/{ns}/turns", json=TURN, headers=admin)
    assert secured.get("/v1/namespaces", headers=admin).json()["items"] == ["acme", "beta", "gamma"]
    assert secured.get("/v1/namespaces", headers={"X-API-Key": "two-key"}).json()["items"] == ["acme", "beta"]
    assert secured.get("/v1/namespaces", headers={"X-API-Key": "acme-key"}).json()["items"] == ["acme"]


def test_only_health_answers_without_a_key(secured):
    health = secured.get("/v1/health")
    assert health.status_code == 200
    assert health.json() == {"status": "ok", "version": "1", "store": "embedded", "auth": True}
    for path in (
        "/healthz",
        "/docs",
        "/redoc",
        "/openapi.json",
        "/",
        "/inspector/",
        "/inspector/app.js",
        "/nope",
    ):
        anonymous = secured.get(path, follow_redirects=False)
        assert anonymous.status_code == 401, path
        assert anonymous.json()["error"]["type"] == "AuthenticationError"
        assert anonymous.headers["www-authenticate"].startswith("Basic")  # a browser asks for the key
        assert secured.get(path, headers={"X-API-Key": "wrong"}).status_code == 401


def test_docs_and_inspector_with_a_key_load_nothing_from_elsewhere(secured):
    import base64

    admin = {"X-API-Key": "admin-key"}
    docs = secured.get("/docs", headers=admin)
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    assert "http://" not in docs.text and "https://" not in docs.text  # no CDN: works offline
    paths = secured.get("/openapi.json", headers=admin).json()["paths"]
    assert "/v1/namespaces/{ns}/search" in paths and "/v1/namespaces/{ns}/graph" in paths
    root = secured.get("/", headers=admin, follow_redirects=False)
    assert root.status_code in (302, 307) and root.headers["location"] == "/inspector/"
    # What a browser sends once it asked: the key as the Basic password (any user name).
    basic = {"Authorization": "Basic " + base64.b64encode(b"me:acme-key").decode()}
    page = secured.get("/inspector/", headers=basic)
    assert page.status_code == 200 and '<svg id="graph"' in page.text
    assert "https://" not in page.text


def test_healthz_and_stats_name_no_other_tenant(secured, memory):
    from simplemem_graph.models import JobRun

    for ns in ("acme", "beta-secret"):
        memory.store.record_job(
            JobRun(id=f"job-{ns}", namespace=ns, kind="consolidate", started="2026-03-02T10:00:00Z",
                   status="failed", error=f"boom in {ns}")
        )  # fmt: skip
    admin = secured.get("/healthz", headers={"X-API-Key": "admin-key"}).json()
    assert {p["namespace"] for p in admin["problems"]} == {"acme", "beta-secret"}
    tenant = secured.get("/healthz", headers={"X-API-Key": "acme-key"})
    assert tenant.status_code == 200 and "beta-secret" not in tenant.text
    assert [p["namespace"] for p in tenant.json()["problems"]] == ["acme"]
    secured.post("/v1/namespaces/acme/turns", json=TURN, headers={"X-API-Key": "acme-key"})
    secured.post("/v1/namespaces/beta-secret/turns", json=TURN, headers={"X-API-Key": "admin-key"})
    stats = secured.get("/v1/namespaces/acme/stats", headers={"X-API-Key": "acme-key"})
    assert stats.json()["namespaces"] == 1 and "beta-secret" not in stats.text and "path" not in stats.json()


def test_cors_is_off_by_default_and_allows_only_configured_origins(memory, monkeypatch):
    monkeypatch.delenv("SIMPLEMEM_CORS_ORIGINS", raising=False)
    preflight = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization, content-type"}  # fmt: skip
    with TestClient(create_app(memory, api_keys=KEYS)) as closed:
        answer = closed.options("/v1/namespaces/acme/search", headers=preflight)
        assert "access-control-allow-origin" not in answer.headers
    monkeypatch.setenv("SIMPLEMEM_CORS_ORIGINS", "https://app.example, https://other.example")
    with TestClient(create_app(memory, api_keys=KEYS)) as open_to_one:
        allowed = open_to_one.options("/v1/namespaces/acme/search", headers=preflight)
        assert allowed.status_code == 200
        assert allowed.headers["access-control-allow-origin"] == "https://app.example"
        assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
        stranger = open_to_one.options(
            "/v1/namespaces/acme/search", headers={**preflight, "Origin": "https://evil.example"}
        )
        assert stranger.status_code == 400 and "access-control-allow-origin" not in stranger.headers
        # The preflight needs no key; the request itself still does.
        assert open_to_one.post("/v1/namespaces/acme/search", json={"query": "x"}).status_code == 401


def test_an_oversized_turn_is_413_and_the_namespace_goes_on(client):
    big = client.post("/v1/namespaces/t2/turns", json={"text": "word " * 940_000})  # 4.7 MB
    assert big.status_code == 413
    assert big.json()["error"]["type"] == "TurnTooLargeError" and "100,000" in big.json()["error"]["message"]
    assert client.get("/v1/namespaces/t2/stats").json()["turns"] == 0  # nothing written
    ok = client.post("/v1/namespaces/t2/turns", json=TURN)
    assert ok.status_code == 201 and ok.json()["events"] >= 1 and ok.json()["turns_failed"] == 0
    found = client.post("/v1/namespaces/t2/search", json={"query": "Acme contract"}).json()
    assert any("$300" in r["text"] for r in found["results"]) and found["namespace_exists"] is True
    assert client.get("/healthz").json() == {"status": "ok", "problems": [], "failed_turns": 0}


def test_env_keys_are_used_when_none_given(memory, monkeypatch):
    monkeypatch.setenv("SIMPLEMEM_API_KEYS", "env-key:acme")
    with TestClient(create_app(memory)) as test_client:
        assert test_client.get("/v1/namespaces/acme/stats").status_code == 401
        assert (
            test_client.get("/v1/namespaces/acme/stats", headers={"X-API-Key": "env-key"}).status_code == 200
        )


def test_body_over_the_limit_is_413_before_parsing(memory):
    limits = ApiLimits(max_body_bytes=200, max_turns_per_request=2)
    with TestClient(create_app(memory, api_keys="", limits=limits)) as small:
        big = {"text": "x" * 500}
        response = small.post("/v1/namespaces/acme/turns", json=big)
        assert response.status_code == 413
        assert response.json()["error"]["type"] == "PayloadTooLargeError"
        assert "200 bytes" in response.json()["error"]["message"]

        def chunks():  # no Content-Length: the body is counted as it streams in
            yield b'{"text": "'
            yield b"y" * 400
            yield b'"}'

        streamed = small.post(
            "/v1/namespaces/acme/turns", content=chunks(), headers={"content-type": "application/json"}
        )
        assert streamed.status_code == 413

        too_many = small.post("/v1/namespaces/acme/turns", json=[{"text": "a"}, {"text": "b"}, {"text": "c"}])
        assert too_many.status_code == 413 and "limit is 2" in too_many.json()["error"]["message"]
        assert small.get("/v1/namespaces/acme/stats").json()["turns"] == 0

        ok = small.post("/v1/namespaces/acme/turns", json={"text": "Acme owes $5."})
        assert ok.status_code == 201


def test_unknown_route_and_method_keep_the_error_shape(client):
    missing = client.get("/v1/nothing-here")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "HTTPError"
    wrong_method = client.put("/v1/namespaces/acme/search", json={})
    assert wrong_method.status_code == 405 and "error" in wrong_method.json()


def test_parse_api_keys():
    assert parse_api_keys("k1:ns1,ns2;k2:*;k3") == {"k1": frozenset({"ns1", "ns2"}), "k2": None, "k3": None}
    assert parse_api_keys(" ; ") == {}
    with pytest.raises(ConfigError, match="no key"):
        parse_api_keys(":ns1")
    with pytest.raises(ConfigError, match="twice"):
        parse_api_keys("k:a;k:b")
    assert load_api_keys(["k1:a", "k2"]).keys == {"k1": frozenset({"a"}), "k2": None}


def test_bind_policy():
    no_keys, keys = load_api_keys(""), load_api_keys("k:*")
    check_bind("127.0.0.1", no_keys, insecure=False)
    check_bind("::1", no_keys, insecure=False)
    check_bind("localhost", no_keys, insecure=False)
    with pytest.raises(ConfigError, match=r"refusing to listen on '0\.0\.0\.0'"):
        check_bind("0.0.0.0", no_keys, insecure=False)
    with pytest.raises(ConfigError):
        check_bind("192.168.1.10", no_keys, insecure=False)
    check_bind("0.0.0.0", no_keys, insecure=True)
    check_bind("0.0.0.0", keys, insecure=False)
