"""The embedded store's vector file: persistent, incremental, repairable from SQLite (issue 11)."""

from __future__ import annotations

from simplemem_graph.models import EventPatch, GraphDelta
from simplemem_graph.stores.embedded import EmbeddedStore, rebuild_vectors
from simplemem_graph.stores.queries import EventQuery, RecallFilter
from tests.contract.contract_data import as_list, make_event, unit_vector, vector_at_cosine
from tests.store_writes import write

QUERY = unit_vector(1)


def _events(ns, cosines):
    return [
        make_event(ns, f"e{i}", f"event {i}", minutes=i, embedding=vector_at_cosine(QUERY, c, seed=10 + i))
        for i, c in enumerate(cosines)
    ]


def _top(store, ns, k=3):
    return [h.id for h in store.vector_search(ns, as_list(QUERY), k)]


def test_a_reopened_file_searches_without_loading_anything(tmp_path):
    path = tmp_path / "m.db"
    store = EmbeddedStore(path)
    write(store, events=_events("n", [0.1, 0.9, 0.5, 0.7]))
    store.close()
    reopened = EmbeddedStore(path)
    assert _top(reopened, "n") == ["e1", "e3", "e2"]
    assert list((tmp_path / "m.db.vectors").glob("*.f32"))  # the rows live in the file
    reopened.close()


def test_writes_from_another_process_handle_are_seen_and_rolled_back_rows_never_are(tmp_path):
    path = tmp_path / "m.db"
    reader, writer = EmbeddedStore(path), EmbeddedStore(path)
    write(writer, events=_events("n", [0.2, 0.3]))
    assert _top(reader, "n") == ["e1", "e0"]
    write(writer, events=[make_event("n", "late", "late", embedding=vector_at_cosine(QUERY, 0.99, seed=3))])
    assert _top(reader, "n", 1) == ["late"]  # the reader re-maps the grown file
    reader.close()
    writer.close()


def test_changed_embeddings_get_new_rows_and_deleted_events_leave_holes(tmp_path):
    store = EmbeddedStore(tmp_path / "m.db")
    write(store, events=_events("n", [0.9, 0.8, 0.1]))
    write(store, events=[make_event("n", "e0", "event 0", embedding=vector_at_cosine(QUERY, -0.5, seed=4))])
    store.apply_delta(
        GraphDelta(namespace="n", event_patches=[EventPatch(ids=["e1"], fields={"status": "done"})])
    )  # same embedding: the same row
    assert _top(store, "n") == ["e1", "e2", "e0"]
    store.apply_delta(GraphDelta(namespace="n", deleted_events=["e1"]))
    assert _top(store, "n") == ["e2", "e0"]
    assert rebuild_vectors(store, "n") == 2  # drops the holes
    assert _top(store, "n") == ["e2", "e0"]
    store.close()


def test_a_file_of_the_previous_version_is_migrated_once(tmp_path):
    path = tmp_path / "m.db"
    store = EmbeddedStore(path)
    write(store, events=_events("n", [0.4, 0.6]))
    # What a file written before issue 11 looks like: no slots, no day rows, no vector file.
    store._conn.execute("UPDATE events SET vslot = NULL")
    store._conn.execute("DELETE FROM vector_spaces")
    store._conn.execute("DELETE FROM event_days")
    store._drop_vector_files("n")
    store.close()
    migrated = EmbeddedStore(path)
    assert _top(migrated, "n") == ["e1", "e0"]
    assert [
        e.id
        for e in migrated.events(
            "n",
            EventQuery(
                filter=RecallFilter(
                    statuses=None, time_from=migrated.events("n", EventQuery())[0].time.date()
                )
            ),
        )
    ] == [
        "e0",
        "e1",
    ]
    migrated.close()


def test_namespaces_keep_their_own_files_and_deleting_one_removes_its_file(tmp_path):
    store = EmbeddedStore(tmp_path / "m.db")
    write(store, events=_events("a", [0.5]) + _events("b", [0.9, 0.1]))
    assert _top(store, "a") == ["e0"]
    store.delete_namespace("b")
    assert _top(store, "b") == []
    assert len(list((tmp_path / "m.db.vectors").glob("*.f32"))) == 1
    store.close()
