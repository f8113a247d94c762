"""The whole-namespace reads of the global pass (issue 11): vectors as one matrix, events and topics
without their vectors."""

from __future__ import annotations

import numpy as np

from simplemem_graph.models import EventStatus, GraphDelta, Topic
from simplemem_graph.stores.queries import EventQuery, EventVectors, RecallFilter, TopicQuery
from tests.contract.contract_data import as_list, make_event, unit_vector
from tests.store_writes import write


def _events(ns: str):
    return [
        make_event(ns, "late", "late", minutes=9, embedding=as_list(3.0 * unit_vector(3))),  # not unit
        make_event(ns, "b", "b", minutes=0, embedding=as_list(unit_vector(2))),
        make_event(ns, "a", "a", minutes=0, embedding=as_list(unit_vector(1))),  # ties with b: id first
        make_event(ns, "plain", "no vector", minutes=1),
        make_event(
            ns, "gone", "gone", minutes=2, status=EventStatus.ARCHIVED, embedding=as_list(unit_vector(4))
        ),
    ]


def test_event_vectors_are_unit_rows_in_list_events_order(store, ns, other_ns):
    write(store, events=_events(ns))
    write(store, events=[make_event(other_ns, "x", "elsewhere", embedding=as_list(unit_vector(9)))])
    ids, matrix = store.events(ns, EventVectors())
    assert ids == ["a", "b", "gone", "late"]  # oldest first, id breaks ties; no row without a vector
    assert matrix.dtype == np.float32 and matrix.shape == (4, 384)
    expected = np.asarray([unit_vector(s) for s in (1, 2, 4, 3)], dtype=np.float32)
    assert np.allclose(matrix, expected, atol=1e-6)

    active_ids, active = store.events(ns, EventVectors(statuses=["active"]))
    assert active_ids == ["a", "b", "late"] and active.shape == (3, 384)
    empty_ids, empty = store.events(ns, EventVectors(statuses=["done"]))
    assert empty_ids == [] and empty.shape[0] == 0


def test_event_vectors_follow_a_changed_embedding_and_a_delete(store, ns):
    write(store, events=_events(ns))
    write(store, events=[make_event(ns, "a", "a", minutes=0, embedding=as_list(unit_vector(7)))])
    store.apply_delta(GraphDelta(namespace=ns, deleted_events=["b"]))
    ids, matrix = store.events(ns, EventVectors())
    assert ids == ["a", "gone", "late"]
    assert np.allclose(matrix[0], unit_vector(7), atol=1e-6)


def test_list_events_without_embeddings_keeps_every_other_field(store, ns):
    write(store, events=_events(ns))
    full = store.events(ns, EventQuery())
    light = store.events(ns, EventQuery(embeddings=False))
    assert [e.embedding for e in light] == [None] * len(full)
    assert [e.model_copy(update={"embedding": None}) for e in full] == light
    assert [
        e.id
        for e in store.events(ns, EventQuery(filter=RecallFilter(statuses=["archived"]), embeddings=False))
    ] == ["gone"]


def test_list_topics_without_centroids(store, ns):
    centroid = as_list(unit_vector(4))
    topic = Topic(id="t1", namespace=ns, label="report", keywords=["report"], centroid=centroid)
    write(store, topics=[topic, Topic(id="t0", namespace=ns, label="travel", size=3)])
    light = store.topics(ns, TopicQuery(centroids=False))
    assert light == [
        Topic(id="t0", namespace=ns, label="travel", size=3),
        topic.model_copy(update={"centroid": None}),
    ]
    assert store.topics(ns)[1].centroid == topic.centroid
