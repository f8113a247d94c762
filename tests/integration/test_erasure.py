"""Erasure that erases, on real stores: after `forget` (and a `rebuild`, which must honour it), the
erased words are in no file of the embedded store's folder and in no node or relationship property
on Neo4j, while what was not erased is still found."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest

from simplemem_graph.embedding import DIMENSION_KEY, MODEL_KEY
from simplemem_graph.memory import Memory
from simplemem_graph.models import GraphDelta
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery, TextQuery, TurnQuery

# Made-up words, so a hit can only be a copy of the erased turns.
SECRETS = ("zelmira", "quastoff", "quorvex", "ravenquill")
TURNS = [
    ("Ivo", "2026-03-02T09:00:00+01:00",
     "Zelmira Quastoff said the Quorvex vault code is Ravenquill and she will change it in April."),
    ("Ivo", "2026-03-02T09:05:00+01:00", "Ivo booked the train to Graz for the Tuesday meeting with Acme."),
    ("Zelmira Quastoff", "2026-03-02T09:10:00+01:00", "I moved the budget review to Friday afternoon."),
    ("Lena", "2026-03-02T09:15:00+01:00", "Lena ordered 40 chairs for the new office in Linz."),
]  # fmt: skip


def _remember(memory: Memory) -> None:
    for speaker, time, text in TURNS:
        memory.add(text, speaker=speaker, time=time, session="s1")


def _files_holding(folder: Path, words: tuple[str, ...]) -> dict[str, list[str]]:
    """Every file under `folder` (SQLite file, WAL, vector files...) that holds any of the words,
    as bytes, case-insensitively."""
    found: dict[str, list[str]] = {}
    for path in folder.rglob("*"):
        if path.is_file():
            content = path.read_bytes().lower()
            hits = [w for w in words if w.encode() in content]
            if hits:
                found[str(path)] = hits
    return found


def _erase_and_check_recall(memory: Memory) -> None:
    _remember(memory)
    found = memory.search("Quorvex vault code", at="2026-03-03").hits
    assert any("Ravenquill" in h.event.text for h in found)
    preview = memory.forget(entity="Zelmira Quastoff", dry_run=True)
    texts = [t["text"] for t in preview.turns]
    assert any("Quorvex" in t for t in texts) and any("budget review" in t for t in texts)
    assert not any("Graz" in t or "chairs" in t for t in texts)  # only what names her
    assert memory.stats()["turns"] == len(TURNS)  # a dry run changes nothing

    erased = memory.forget(entity="Zelmira Quastoff")
    assert erased.as_dict()["turns_erased"] == 2 and erased.event_count >= 2
    memory.rebuild()  # the raw log's tombstones are honoured: nothing comes back
    for query in ("Quorvex vault code", "Zelmira Quastoff", "budget review Friday"):
        for hit in memory.search(query, at="2026-03-03").hits:
            assert not any(w in hit.event.text.lower() for w in SECRETS), hit.event.text
    kept = [h.event.text for h in memory.search("train to Graz", at="2026-03-03").hits]
    assert any("Graz" in text for text in kept)
    assert any("chairs" in h.event.text for h in memory.search("chairs for the office", at="2026-03-03").hits)
    # The same turns sent again (same ids) are not logged again.
    _remember(memory)
    assert memory.store.turns(
        memory.namespace, TurnQuery(ids=[t.id for t in memory.store.turns(memory.namespace, TurnQuery())])
    )
    assert all(
        not any(w in t.text.lower() for w in SECRETS)
        for t in memory.store.turns(memory.namespace, TurnQuery())
    )
    assert memory.store.text_search(memory.namespace, TextQuery("Quorvex vault", 5, target="turns")) == []
    with pytest.raises(Exception, match="no entity named"):
        memory.forget(entity="Zelmira Quastoff")


def test_embedded_store_files_hold_no_erased_byte(tmp_path, embedder):
    folder = tmp_path / "store"
    memory = Memory(EmbeddedStore(folder / "memory.db"), namespace="lena", embedder=embedder)
    try:
        _erase_and_check_recall(memory)
        # Checked while the store is open: the scrub after `forget` (fulltext merge, WAL checkpoint,
        # zeroed pages and vectors) is what clears the files, not closing them.
        assert _files_holding(folder, SECRETS) == {}
    finally:
        memory.close()
    assert _files_holding(folder, SECRETS) == {}


def test_an_erased_event_does_not_come_back_with_rebuild_or_reingest(tmp_path, embedder):
    memory = Memory(EmbeddedStore(tmp_path / "m.db"), namespace="ivo", embedder=embedder)
    try:
        _remember(memory)
        hit = next(
            h
            for h in memory.search("chairs for the office", at="2026-03-03").hits
            if "chairs" in h.event.text
        )
        erased = memory.forget(event_id=hit.event.id)
        assert hit.event.id in [e["id"] for e in erased.events] and erased.turns
        assert hit.event.source_ids == [t["id"] for t in erased.turns]
        memory.rebuild()
        _remember(memory)
        texts = [e.text for e in memory.store.events(memory.namespace, EventQuery())]
        assert texts and not any("chairs" in text for text in texts)
        assert not any("chairs" in t.text for t in memory.store.turns(memory.namespace, TurnQuery()))
    finally:
        memory.close()
    assert _files_holding(tmp_path, ("40 chairs",)) == {}


# Every string (or list of strings) property of every node and relationship holding a word.
_PROPERTY_SCAN = """
CALL () {
  MATCH (n) RETURN labels(n) AS what, properties(n) AS props
  UNION ALL
  MATCH ()-[r]->() RETURN [type(r)] AS what, properties(r) AS props
}
UNWIND keys(props) AS key
WITH what, key, props[key] AS value
WITH what, key, CASE
  WHEN valueType(value) STARTS WITH 'STRING' THEN [value]
  WHEN valueType(value) STARTS WITH 'LIST<STRING' THEN value
  ELSE [] END AS texts
UNWIND texts AS text
WITH what, key, text WHERE any(word IN $words WHERE toLower(text) CONTAINS word)
RETURN what, key, text
"""


@pytest.fixture
def neo4j_with_model(neo4j_store, embedder):
    """The session's Neo4j store recording this test's model for the test's duration: the server
    is shared with tests that embed with other models, and a store holds one model's vectors."""
    keys = (MODEL_KEY, DIMENSION_KEY)
    before = {key: neo4j_store.get_meta(key) for key in keys}
    neo4j_store.apply_delta(GraphDelta(meta={MODEL_KEY: embedder.name}))
    neo4j_store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))
    yield neo4j_store
    for key, value in before.items():
        neo4j_store.apply_delta(
            GraphDelta(deleted_meta=[key]) if value is None else GraphDelta(meta={key: value})
        )


@pytest.mark.neo4j
def test_neo4j_holds_no_erased_text_in_any_property(neo4j_with_model, embedder):
    namespace = f"erase-{uuid4().hex[:10]}"
    memory = Memory(neo4j_with_model, namespace=namespace, embedder=embedder)
    try:
        _erase_and_check_recall(memory)
        records = neo4j_with_model._driver.execute_query(_PROPERTY_SCAN, words=list(SECRETS)).records
        assert [dict(r) for r in records] == []
    finally:
        neo4j_with_model.delete_namespace(namespace)
