"""Stage 2 reads its cosine thresholds from the embedding model's calibration: MiniLM's numbers on
the default model's scale (where unrelated sentences score 0.75-0.85) would tie everything together."""

from __future__ import annotations

import dataclasses

from simplemem_graph.consolidate.calibration import MINILM, calibration_for
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind
from simplemem_graph.stores.embedded import EmbeddedStore

from .conftest import links_of

TEXTS = [
    ("s1", "The salt spray test of the brass standoffs failed after 36 hours", "2026-01-12T14:30:00"),
    ("s2", "The new brass standoffs passed the salt spray test after 52 hours", "2026-03-16T14:00:00"),
    ("s3", "Book a table for the team dinner on Friday", "2026-03-16T18:00:00"),
    ("s4", "My sister moved to Lisbon last spring", "2026-03-17T08:00:00"),
]


def _topics(make_event, embedder, calibration) -> dict[str, str]:
    store = EmbeddedStore(":memory:")
    try:
        events = [make_event(i, text, when) for i, text, when in TEXTS]
        consolidate_batch(events, store, embedder=embedder, calibration=calibration)
        return dict(links_of(store, LinkKind.IN_TOPIC))
    finally:
        store.close()


def test_the_models_own_thresholds_keep_unrelated_events_apart(make_event, embedder):
    own = _topics(make_event, embedder, calibration_for(embedder.name))
    assert own["s1"] == own["s2"]
    assert len({own["s1"], own["s3"], own["s4"]}) == 3
    # The same events under MiniLM's thresholds: one topic for a lab test, a dinner and a move.
    borrowed = _topics(make_event, embedder, dataclasses.replace(MINILM, model=embedder.name))
    assert len(set(borrowed.values())) == 1


class _Renamed:
    """The default model's vectors under another model's name."""

    def __init__(self, embedder, name: str):
        self.inner, self.name, self.dimension = embedder, name, embedder.dimension

    def encode(self, texts):
        return self.inner.encode(texts)


def test_consolidate_picks_the_set_by_the_embedders_name(make_event, embedder):
    by_name = _topics(make_event, embedder, None)
    assert by_name == _topics(make_event, embedder, calibration_for(embedder.name))
    assert len(set(by_name.values())) == 3
    # The same vectors, named as MiniLM: MiniLM's set is chosen, and everything joins one topic.
    assert len(set(_topics(make_event, _Renamed(embedder, MINILM.model), None).values())) == 1
