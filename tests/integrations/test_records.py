"""The record log under every adapter: replay order, overwrite and delete semantics, bad input and
bad lines as typed errors. Values without text need no model, so most of this is fast."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.integrations._records import RecordLog, RecordLogError
from simplemem_graph.memory import Memory
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery, RecallFilter


class NoModel:
    """Fails if anything is embedded: records without text must never reach the pipeline."""

    name = model_name = "no-model"
    dimension = 384

    def encode(self, texts):
        raise AssertionError(f"embedded {list(texts)!r}")

    encode_query = encode


@pytest.fixture
def bare_memory(tmp_path):
    mem = Memory(EmbeddedStore(tmp_path / "records.db"), namespace="records-test", embedder=NoModel())
    yield mem
    mem.close()


def test_replay_is_last_write_wins_in_log_order(bare_memory):
    log = RecordLog(bare_memory, "c")
    log.put("a", {"v": 1}, session="s")
    log.put("b", [1, 2], session="s")
    log.put("a", {"v": 2}, session="s")  # an overwrite keeps its place and its created_at
    log.delete("b")
    log.put("b", "again", session="s")  # a re-created key moves to the end
    records = log.records()
    assert [(k, r.value) for k, r in records.items()] == [("a", {"v": 2}), ("b", "again")]
    assert records["a"].created_at < records["a"].updated_at
    assert log.delete("missing") is None
    assert RecordLog(bare_memory, "other").records() == {}  # collections are apart
    assert log.clear() == 2 and log.records() == {}
    assert log.clear() == 0
    # Every change is one record line, logged as done: nothing waits for consolidation. A value
    # overwritten, deleted or cleared is erased with its line; the second clear logged nothing.
    lines = bare_memory.turns(session="records:c")
    assert bare_memory.pending() == 0
    assert [json.loads(t.text)["op"] for t in lines] == ["delete", "clear"]


def test_many_puts_in_one_call_keep_their_order(bare_memory):
    log = RecordLog(bare_memory, "c")
    log.put_many([(f"{i:03d}", {"i": i}, None, "user") for i in range(30)], session="s")
    assert [r.value["i"] for r in log.records().values()] == list(range(30))
    times = [t.time for t in bare_memory.turns(session="records:c")]
    assert times == sorted(times) and len(set(times)) == 30


def test_bad_input_and_bad_lines_are_typed_errors(bare_memory):
    log = RecordLog(bare_memory, "c")
    with pytest.raises(InputError, match="JSON"):
        log.put("a", {"when": datetime.now(UTC)}, session="s")
    with pytest.raises(InputError, match="twice"):
        log.put_many([("a", 1, None, "user"), ("a", 2, None, "user")], session="s")
    with pytest.raises(InputError):
        RecordLog(bare_memory, "")
    assert log.records() == {}  # nothing was written by the refused calls
    bare_memory.store.add_turns([bare_memory.make_turn("not a record", session="records:c")], pending=False)
    with pytest.raises(RecordLogError, match="not a record line"):
        log.records()


def test_memory_turns_reads_one_session_in_order(bare_memory):
    first = bare_memory.make_turn("one", session="x", time=datetime(2026, 1, 1, tzinfo=UTC))
    other = bare_memory.make_turn("two", session="y", time=datetime(2026, 1, 2, tzinfo=UTC))
    last = bare_memory.make_turn("three", session="x", time=datetime(2026, 1, 3, tzinfo=UTC))
    bare_memory.store.add_turns([last, other, first], pending=False)
    assert [t.text for t in bare_memory.turns(session="x")] == ["one", "three"]
    assert [t.text for t in bare_memory.turns()] == ["one", "two", "three"]


def test_a_value_that_goes_is_erased_from_the_log_and_never_rebuilt(memory):
    log = RecordLog(memory, "notes")
    log.put("home", {"text": "x"}, text="I moved to Lisbon in May, to the Alfama district.", session="s")
    log.put("pet", {"text": "y"}, text="My cat Oscar is three years old.", session="s")
    assert "Alfama" in " ".join(h.event.text for h in memory.search("Where does the user live?").hits)
    log.put("home", {"text": "z"}, text="I moved to Porto last week.", session="s")
    log.delete("pet")

    def everything() -> str:
        turns = memory.turns()
        events = memory.store.events(memory.namespace, EventQuery(filter=RecallFilter(None)))
        return " ".join([t.text for t in turns] + [e.text for e in events])

    for _ in range(2):
        text = everything()
        assert "Alfama" not in text and "Oscar" not in text and "Porto" in text
        assert [(k, r.value) for k, r in log.records().items()] == [("home", {"text": "z"})]
        memory.rebuild()  # the tombstones and the record lines stay out of the rebuilt graph
    assert all("Oscar" not in h.event.text for h in memory.search("What is the cat called?").hits)
