"""The API locks per namespace, never globally: while one namespace is busy (a long ingest holds
its lock), another namespace's search is answered at once, and the busy namespace's next call
waits for it."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from api.app import create_app
from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder


def test_a_busy_namespace_does_not_stall_another(tmp_path):
    memory = Memory(EmbeddedStore(tmp_path / "m.db"), namespace="default", embedder=HashEmbedder())
    app = create_app(memory, api_keys="")
    with TestClient(app) as client:
        for ns in ("busy", "free"):
            posted = client.post(
                f"/v1/namespaces/{ns}/turns", json={"text": f"Kalo Ltd quoted 12 USD to {ns}"}
            )
            assert posted.status_code == 201, posted.text
        busy_lock = app.state.pool.lock_for("busy")
        busy_lock.acquire()  # as a long ingest of namespace "busy" would
        try:
            answers: dict[str, int] = {}

            def ask(ns: str) -> None:
                answers[ns] = client.post(f"/v1/namespaces/{ns}/search", json={"query": "quoted"}).status_code

            free = threading.Thread(target=ask, args=("free",))
            free.start()
            free.join(timeout=60)
            assert answers.get("free") == 200  # answered while "busy" is held
            busy = threading.Thread(target=ask, args=("busy",))
            busy.start()
            busy.join(timeout=1.0)
            assert busy.is_alive() and "busy" not in answers  # waits for its own namespace
        finally:
            busy_lock.release()
        busy.join(timeout=60)
        assert answers.get("busy") == 200
    memory.close()
