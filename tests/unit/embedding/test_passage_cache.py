"""Passages encoded at query time are encoded once per embedder: a second search over the same
turns costs no encoding, and gets the very vectors a plain `encode` gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from simplemem_graph.embedding import encode_passages_cached
from simplemem_graph.memory import Memory
from simplemem_graph.models import Turn
from simplemem_graph.retrieve import retrieve
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder, RecordingEmbedder


def test_only_new_texts_are_encoded_and_vectors_are_unchanged():
    embedder = RecordingEmbedder()
    texts = ["the lease is signed", "我们搬到了新办公室", "the lease is signed"]
    first = encode_passages_cached(embedder, texts)
    assert embedder.seen == ["the lease is signed", "我们搬到了新办公室"]  # a repeat is encoded once
    assert np.allclose(first, HashEmbedder().encode(texts))
    embedder.seen.clear()
    again = encode_passages_cached(embedder, ["我们搬到了新办公室", "a new one"])
    assert embedder.seen == ["a new one"]
    assert np.allclose(again, HashEmbedder().encode(["我们搬到了新办公室", "a new one"]))
    assert encode_passages_cached(embedder, []).shape[0] == 0


def test_each_embedder_has_its_own_vectors():
    one, other = RecordingEmbedder(), RecordingEmbedder()
    encode_passages_cached(one, ["shared words"])
    encode_passages_cached(other, ["shared words"])
    assert one.seen == other.seen == ["shared words"]


def test_a_second_search_encodes_no_turn_again():
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    turns = [
        Turn(id=f"t{i}", session="s", time=start + timedelta(minutes=i), speaker="Ana", text=text)
        for i, text in enumerate(["haha ok cool", "lol sounds good", "We signed the lease for the office."])
    ]
    embedder = RecordingEmbedder()
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=embedder)
    memory.add_many(turns)
    at = start + timedelta(days=1)
    embedder.seen.clear()
    first = retrieve("sounds good", memory.store, namespace="u", embedder=embedder, k=5, at=at)
    assert embedder.seen, "the turns without an event are encoded at query time"
    embedder.seen.clear()
    second = retrieve("sounds good", memory.store, namespace="u", embedder=embedder, k=5, at=at)
    assert embedder.seen == ["sounds good"]  # the question (this test model has no encode_query)
    assert [(h.event.id, round(h.score, 9)) for h in first.hits] == [
        (h.event.id, round(h.score, 9)) for h in second.hits
    ]
