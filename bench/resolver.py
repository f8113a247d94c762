"""Entity resolution cost for one batch of 64 events against N known entities (random names): the
step that made ingest grow with the store. Three figures per N, seconds:

- `load`: `EntityIndex.load` from an embedded store holding the N entities (what every batch paid
  before the index was kept between batches);
- `resolve`: resolving the batch against a loaded index (name automaton, look-up keys, look-alikes);
- `next_batch`: the next batch through `kept_entity_index` (the kept index, brought up to date).

    python bench/resolver.py LABEL [N ...]      # default N: 1000 10000 50000

Run it on two checkouts (PYTHONPATH=...) to compare. With `--json` one object per N.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from simplemem_graph.consolidate.entities import EntityResolver
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.ingest import keep_entity_index, kept_entity_index
from simplemem_graph.models import Entity, Event, GraphDelta, Participant
from simplemem_graph.stores.embedded import EmbeddedStore

SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu", "fe", "ha"]


def word(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def events_of(rng: random.Random, names: list[str], batch: int) -> list[Event]:
    return [
        Event(
            id=f"e{batch}-{i}",
            namespace="bench",
            text=f"{rng.choice(names)} met {word(rng)} about the order of {i} units",
            source_ids=[f"s:{i}"],
            session="s",
            speaker="Ana",
            time=datetime(2026, 1, 1, tzinfo=UTC),
            participants=[Participant(name="Ana", type="person"), Participant(name=word(rng), type="person")],
        )
        for i in range(64)
    ]


def measure(entities: int, seed: int = 3) -> dict[str, float]:
    rng = random.Random(seed)
    names = [f"{word(rng)} {word(rng, 3)}" for _ in range(entities)]
    with tempfile.TemporaryDirectory() as folder:
        store = EmbeddedStore(str(Path(folder) / "resolver.db"))
        entities = [
            Entity(id=f"en-{i}", namespace="bench", name=n, type="person") for i, n in enumerate(names)
        ]
        store.apply_delta(GraphDelta(namespace="bench", entities=entities))
        start = time.perf_counter()
        index = EntityIndex.load(store, "bench")
        load = time.perf_counter() - start
        index.revision = store.entity_revision("bench")
        start = time.perf_counter()
        EntityResolver(index).resolve(events_of(rng, names, 0), {})
        resolve = time.perf_counter() - start
        # As consolidation does after writing the batch's delta: keep the index, then ask for it.
        resolution = EntityResolver(index).result
        store.apply_delta(GraphDelta(namespace="bench", entities=list(resolution.changed.values())))
        keep_entity_index(store, index, store.entity_revision("bench"))
        start = time.perf_counter()
        kept = kept_entity_index(store, "bench")
        EntityResolver(kept).resolve(events_of(rng, names, 1), {})
        next_batch = time.perf_counter() - start
        assert kept is index, "the kept index was not reused"
        store.close()
    return {"entities": entities, "load_s": load, "resolve_s": resolve, "next_batch_s": next_batch}


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--json"]
    label = args[0] if args else "run"
    sizes = [int(x) for x in args[1:]] or [1000, 10000, 50000]
    for size in sizes:
        row = {"label": label, **measure(size)}
        if "--json" in sys.argv:
            print(json.dumps(row))
        else:
            print(
                f"{label} entities={size}: load {row['load_s']:.2f} s, first batch {row['resolve_s']:.2f} s, "
                f"next batch (kept index) {row['next_batch_s']:.2f} s"
            )


if __name__ == "__main__":
    main()
