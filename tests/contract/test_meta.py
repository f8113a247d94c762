"""Store-wide settings (the embedding model of the vectors), on both stores."""

from uuid import uuid4

from simplemem_graph.models import GraphDelta


def test_meta_round_trip_and_replace(store):
    key = f"test-{uuid4().hex[:8]}"
    assert store.get_meta(key) is None
    store.apply_delta(GraphDelta(meta={key: "model-a"}))
    assert store.get_meta(key) == "model-a"
    store.apply_delta(GraphDelta(meta={key: "model-b"}))
    assert store.get_meta(key) == "model-b"
