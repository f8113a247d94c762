"""schemathesis against the API's own OpenAPI schema: generated requests, valid and invalid, to
every route. No response may be a 5xx, and every error must come back as our JSON error body.

The app runs over a real embedded store holding the sample conversation; the embedder is the
light feature-hashing one (tests/durability_support.py), since thousands of generated requests
are about the HTTP contract, not about retrieval quality.
"""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from api.app import create_app
from simplemem_graph.memory import SAMPLE_CONVERSATION, Memory
from simplemem_graph.models import Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder


def _app():
    memory = Memory(EmbeddedStore(":memory:"), namespace="fuzz", embedder=HashEmbedder())
    lines = SAMPLE_CONVERSATION.read_text(encoding="utf-8").splitlines()
    turns = [json.loads(line) for line in lines if line]
    memory.add_many([Turn.model_validate({**t, "namespace": "fuzz"}) for t in turns])
    return create_app(memory, api_keys="")


@schemathesis.serializer("application/x-ndjson")
def _ndjson(_context, value) -> bytes:
    """The import route's body: JSON Lines (whatever was generated, one JSON value per line)."""
    items = value if isinstance(value, list) else [value]
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items).encode()


schema = schemathesis.openapi.from_asgi("/openapi.json", _app())
# Valid requests and invalid ones (wrong types, missing fields, out-of-range values).
schema.config.generation.update(modes=list(GenerationMode), deterministic=True)


@schema.parametrize()
# derandomized in CI: reproducible there, exploring new inputs on each local run
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=bool(os.environ.get("CI")),
)
@pytest.mark.timeout(900)
def test_no_generated_request_gets_a_5xx_and_every_error_is_a_json_body(case):
    response = case.call()
    case.validate_response(response, checks=(not_a_server_error,))
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert {"type", "message"} <= set(body["error"]), body
