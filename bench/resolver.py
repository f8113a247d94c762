"""Entity resolution time for one batch of 64 events against an index of N known entities (random
names): the step that made ingest grow with the store. Usage:

    python bench/resolver.py LABEL [N ...]      # default N: 1000 10000

Run it on two checkouts (PYTHONPATH=...) to compare; the numbers are seconds per batch.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime

from simplemem_graph.consolidate.entities import EntityIndex, EntityResolver
from simplemem_graph.models import Entity, Event, Participant

SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu", "fe", "ha"]


def word(rng: random.Random, parts: int = 2) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def batch_seconds(entities: int, seed: int = 3) -> float:
    rng = random.Random(seed)
    index = EntityIndex("bench")
    names = []
    for i in range(entities):
        name = f"{word(rng)} {word(rng, 3)}"
        names.append(name)
        index.put(Entity(id=f"en-{i}", namespace="bench", name=name, type="person"))
    events = [
        Event(
            id=f"e{i}",
            namespace="bench",
            text=f"{rng.choice(names)} met {word(rng)} about the order of {i} units",
            source_ids=[f"s:{i}"],
            session="s",
            speaker="Ana",
            time=datetime(2026, 1, 1, tzinfo=UTC),
            participants=[Participant(name="Ana", type="person")],
        )
        for i in range(64)
    ]
    start = time.perf_counter()
    EntityResolver(index).resolve(events, {})
    return time.perf_counter() - start


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "run"
    sizes = [int(x) for x in sys.argv[2:]] or [1000, 10000]
    for size in sizes:
        print(f"{label} entities={size}: {batch_seconds(size):.2f} s per 64-event batch")


if __name__ == "__main__":
    main()
