"""The Memory facade end to end on the embedded store, with the real models."""

import json
from datetime import UTC, datetime

import pytest

from simplemem_graph import Memory
from simplemem_graph.errors import InputError, NotFoundError
from simplemem_graph.loaders import load_jsonl
from simplemem_graph.memory import SAMPLE_CONVERSATION
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery


@pytest.fixture
def memory(embedder):
    mem = Memory(EmbeddedStore(":memory:"), namespace="acme", embedder=embedder)
    yield mem
    mem.close()


@pytest.fixture
def sample_turns():
    return load_jsonl(SAMPLE_CONVERSATION)


def test_ingest_is_idempotent(memory, sample_turns):
    first = memory.add_many(sample_turns)
    assert first.turns_new == len(sample_turns) and first.turns_skipped == 0
    assert first.events > 0
    before = memory.stats()
    again = memory.add_many(sample_turns)
    assert again.turns_new == 0 and again.turns_skipped == len(sample_turns) and again.events == 0
    assert memory.stats() == before


def test_chitchat_turn_is_logged_but_makes_no_event(memory):
    # Pure small talk: no atom and nothing new to remember. ("楼下那家咖啡真好喝" used to be the
    # example; it states a preference about a place, which the information rule now keeps.)
    assert memory.add("哈哈哈好的呀", speaker="王芳") == []
    assert memory.add("ok sounds good, talk later!", speaker="Ana") == []
    assert memory.stats()["turns"] == 2 and memory.stats()["events"] == 0


def test_search_returns_sources_and_refreshes(memory, sample_turns):
    memory.add_many(sample_turns)
    at = datetime(2026, 3, 20, tzinfo=UTC)
    result = memory.search("Northwind quote price ceiling", at=at)
    payload = result.as_dict(id="q1")
    assert payload["id"] == "q1" and 1 <= len(payload["results"]) <= 5
    top_sources = {s for hit in payload["results"][:3] for s in hit["source_ids"]}
    assert top_sources & {"en1:1", "en1:2", "en2:1"}
    top = memory.store.events("acme", EventQuery(ids=[payload["results"][0]["id"]]))[0]
    assert top.access_count == 1 and top.last_accessed == at


def test_namespaces_are_isolated(memory, sample_turns):
    memory.add_many(sample_turns)
    other = memory.with_namespace("other")
    assert other.stats()["events"] == 0
    assert other.search("Northwind", at=datetime(2026, 3, 20, tzinfo=UTC)).hits == []


def test_export_import_round_trip(memory, sample_turns, tmp_path):
    memory.add_many(sample_turns)
    path = tmp_path / "export.jsonl"
    count = memory.export_jsonl(path)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == count
    copy = memory.with_namespace("copy")
    copy.import_records(records)
    copy.import_records(records)  # twice changes nothing
    original = sorted(json.dumps({**r, "namespace": None}, sort_keys=True) for r in memory.export())
    restored = sorted(json.dumps({**r, "namespace": None}, sort_keys=True) for r in copy.export())
    assert original == restored


def test_rebuild_from_raw_log_reproduces_the_graph(memory, sample_turns):
    memory.add_many(sample_turns)
    before = memory.stats()
    memory.rebuild()
    after = memory.stats()
    assert (after["turns"], after["events"], after["entities"]) == (
        before["turns"],
        before["events"],
        before["entities"],
    )


def test_forget(memory, sample_turns):
    memory.add_many(sample_turns)
    event = memory.store.events("acme", EventQuery())[0]
    erasure = memory.forget(event_id=event.id)
    assert event.id in [e["id"] for e in erasure.events] and erasure.event_count >= 1
    assert [t["id"] for t in erasure.turns] == event.source_ids
    with pytest.raises(NotFoundError):
        memory.forget(event_id=event.id)
    with pytest.raises(InputError):
        memory.forget()
    memory.forget(everything=True)
    assert memory.stats()["turns"] == 0 and memory.stats()["events"] == 0


def test_add_rejects_empty_text(memory):
    with pytest.raises(InputError):
        memory.add("   ")
