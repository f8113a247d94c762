"""Files written before the schema was versioned open, migrate once, and work; new files are born
at the latest version; a migration that fails leaves the file as it was."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from simplemem_graph.models import Entity, LinkKind, Turn
from simplemem_graph.stores.embedded import EmbeddedStore, schema
from simplemem_graph.stores.embedded.schema import LATEST, MIGRATIONS, AddColumn, Migration
from simplemem_graph.stores.queries import (
    EntityQuery,
    EventQuery,
    RecallFilter,
    TextQuery,
    TopicQuery,
    TurnQuery,
)
from tests.store_writes import write

V0_FILE = Path(__file__).parents[2] / "data" / "embedded_v0.sql"
NS = "old"


def _write_v0(path: Path, script: str | None = None) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(script if script is not None else V0_FILE.read_text())
    conn.close()


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def test_the_versions_are_numbered_one_by_one():
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert len(MIGRATIONS) == LATEST


def test_a_new_file_is_born_at_the_latest_version(tmp_path):
    EmbeddedStore(tmp_path / "new.db").close()
    assert _version(tmp_path / "new.db") == LATEST


def test_a_file_written_before_versioning_opens_migrates_and_works(tmp_path):
    path = tmp_path / "old.db"
    _write_v0(path)
    assert _version(path) == 0
    store = EmbeddedStore(path)
    try:
        assert _version(path) == LATEST
        # The rows of the old file read back as they were written.
        assert [e.id for e in store.events(NS, EventQuery())] == ["e1", "e2"]
        assert [t.id for t in store.turns(NS, TurnQuery(pending=True))] == ["t1", "t2"]
        assert [e.id for e in store.entities(NS, EntityQuery(name="benjamin"))] == ["ben"]
        assert len(store.links(NS, kinds=[LinkKind.MENTIONS])) == 2
        # What it lacked was rebuilt on open: fulltext terms, vector slots, day rows, topic slots.
        assert [h.id for h in store.text_search(NS, TextQuery("Lisbon flight", 5))] == ["e1"]
        assert [h.id for h in store.text_search(NS, TextQuery("hotel deposit", 5, target="turns"))] == ["t2"]
        assert store.vector_search(NS, [0, 1, 0, 0, 0, 0, 0.5, 0], 1)[0].id == "e2"
        day = datetime(2026, 3, 1, tzinfo=UTC).date()
        assert [
            e.id
            for e in store.events(
                NS, EventQuery(filter=RecallFilter(statuses=None, time_from=day, time_to=day))
            )
        ] == ["e1", "e2"]
        assert [t.id for t in store.topics(NS, TopicQuery(near=[[1, 1, 0, 0, 0, 0, 0, 0]], k=1))] == ["trip"]
        # The migrated tables take the writes of today's code: the revision triggers and turn chunks.
        before = store.entity_revision(NS)
        write(store, entities=[Entity(id="cleo", namespace=NS, name="Cleo")])
        assert store.entity_revision(NS) != before
        turn = Turn(
            id="t3",
            namespace=NS,
            session="s2",
            speaker="Cleo",
            time=datetime(2026, 3, 2, tzinfo=UTC),
            text="Hi",
        )
        assert store.add_turns([turn]) == [turn]
        assert [t.id for t in store.turns(NS, TurnQuery(chunk=True))] == ["t1", "t2"]
    finally:
        store.close()
    EmbeddedStore(path).close()  # a second open finds nothing to do
    assert _version(path) == LATEST


def test_a_file_from_before_the_pending_queue_gets_its_columns(tmp_path):
    # The first release's turns had none of the queue's columns, and events no vector slot.
    script = V0_FILE.read_text()
    script = script.replace(
        "    agent TEXT, state TEXT NOT NULL DEFAULT 'done', chunk TEXT, failure TEXT,\n", ""
    )
    script = script.replace(" vslot INTEGER,", "")
    statements = [s for s in script.split(";\n") if "vslot" not in s and "INSERT INTO turns" not in s]
    script = ";\n".join(s for s in statements if "turns_pending" not in s)
    assert "chunk TEXT" not in script and "vslot" not in script
    path = tmp_path / "first.db"
    _write_v0(path, script)
    store = EmbeddedStore(path)
    try:
        assert store.turns(NS, TurnQuery()) == []
        assert store.vector_search(NS, [1, 0, 0, 0, 0, 0, 0, 0.5], 1)[0].id == "e1"
        turn = Turn(
            id="t9",
            namespace=NS,
            session="s1",
            speaker="Ana",
            time=datetime(2026, 3, 3, tzinfo=UTC),
            text="Ok",
        )
        store.add_turns([turn])
        assert [t.id for t in store.turns(NS, TurnQuery(pending=True))] == ["t9"]
    finally:
        store.close()
    assert _version(path) == LATEST


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    _write_v0(path)
    probe = Migration(LATEST + 1, "an index", ("CREATE INDEX probe ON events (id)",))
    broken = Migration(LATEST + 2, "a column of no table", (AddColumn("nowhere", "x", "TEXT"),))
    monkeypatch.setattr(schema, "MIGRATIONS", (*MIGRATIONS, probe, broken))
    monkeypatch.setattr(schema, "LATEST", LATEST + 2)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError, match="nowhere"):
            schema.migrate(conn)
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "probe" not in names and "events" in names
    finally:
        conn.close()
