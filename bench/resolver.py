"""Entity resolution time for one batch of 64 events against an index of N known entities
(random names), the step that made ingest grow with the store. Usage:

    python bench/resolver.py LABEL [N ...]      # default N: 1000 10000
"""

import random, sys, time
from datetime import UTC, datetime
from simplemem_graph.consolidate.entities import EntityIndex, EntityResolver
from simplemem_graph.models import Entity, Event, Participant

rng = random.Random(3)
syl = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu", "fe", "ha"]
word = lambda n=2: "".join(rng.choice(syl) for _ in range(n)).capitalize()
for n in [int(x) for x in sys.argv[2:]] or (1000, 10000):
    index = EntityIndex("b")
    names = []
    for i in range(n):
        name = f"{word()} {word(3)}"
        names.append(name)
        index.put(Entity(id=f"en-{i}", namespace="b", name=name, type="person"))
    events = [
        Event(
            id=f"e{i}",
            namespace="b",
            text=f"{rng.choice(names)} met {word()} about the order of {i} units",
            source_ids=[f"s:{i}"],
            session="s",
            speaker="Ana",
            time=datetime(2026, 1, 1, tzinfo=UTC),
            participants=[Participant(name="Ana", type="person")],
        )
        for i in range(64)
    ]
    t = time.perf_counter()
    EntityResolver(index).resolve(events, {})
    print(f"{sys.argv[1]} entities={n}: {time.perf_counter() - t:.2f} s per 64-event batch")
