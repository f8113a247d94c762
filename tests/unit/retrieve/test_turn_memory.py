"""A turn stage 1 made no event from stays reachable: the turn channel returns it as a verbatim
memory with its source id (a keep-rule mistake can cost rank, never the fact)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.memory import Memory
from simplemem_graph.models import Turn
from simplemem_graph.retrieve import _QUERY_TIME_EMBED_TOKENS, retrieve
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.text import count_tokens
from tests.durability_support import HashEmbedder, RecordingEmbedder


@pytest.mark.parametrize("seed", range(3))
def test_a_turn_without_event_comes_back_verbatim(seed):
    rng = random.Random(seed)
    start = datetime(2026, 3, 2, 9, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
    reaction = rng.choice(["haha sounds good 😂", "lol ok sounds good!", "haha cool, sounds good"])
    lines = ["We signed the lease for the Pell Street office.", reaction, "Booked the movers for Friday."]
    turns = [
        Turn(id=f"t{i}", session="s", time=start + timedelta(minutes=i), speaker="Ana", text=text)
        for i, text in enumerate(lines)
    ]
    assert not [e for e in compress([turns[1]]) if "t1" in e.source_ids]  # the keep rule drops it
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    memory.add_many(turns)
    at = start + timedelta(days=1)
    hits = retrieve("sounds good", memory.store, namespace="u", embedder=memory.embedder, k=5, at=at).hits
    found = [h.event for h in hits if h.event.source_ids == ["t1"]]
    assert len(found) == 1
    assert found[0].verbatim and found[0].text == reaction
    # a turn that did make events is not repeated as a verbatim copy of the turn
    lease = retrieve("Pell Street lease", memory.store, namespace="u", embedder=memory.embedder, k=5, at=at)
    assert not [h for h in lease.hits if h.event.id.startswith("turn-") and h.event.source_ids == ["t0"]]


@pytest.mark.parametrize("seed", range(3))
def test_an_echo_takes_no_second_slot(seed):
    """The assistant confirming the user's fact takes one slot with it; the other is named in its path."""
    rng = random.Random(seed)
    start = datetime(2026, 3, 2, 9, tzinfo=UTC) + timedelta(days=rng.randint(0, 300))
    due = start + timedelta(days=rng.randint(5, 40))
    project = rng.choice(["Atlas", "Boreal", "Cinder", "Delta"]) + " migration"
    amount = rng.randint(2, 90) * 1000
    month = due.strftime("%B")
    turns = [
        Turn(id="u", session="s", speaker="user", time=start,
             text=f"The {project} costs ${amount} and is due {month} {due.day}."),
        Turn(id="a", session="s", speaker="assistant", time=start + timedelta(minutes=1),
             text=f"Noted: {project}, ${amount}, due {month} {due.day}."),
        Turn(id="o", session="s", speaker="user", time=start + timedelta(minutes=2),
             text="The printer on the third floor is broken again."),
    ]  # fmt: skip
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    memory.add_many(turns)
    result = retrieve(f"When is the {project} due?", memory.store, namespace="u",
                      embedder=memory.embedder, k=5, at=start + timedelta(days=1))  # fmt: skip
    sources = [h.event.source_ids for h in result.hits]
    assert (["u"] in sources) != (["a"] in sources)  # one slot for the fact and its echo
    kept = next(h for h in result.hits if h.event.source_ids in (["u"], ["a"]))
    assert any(step.startswith("echo ") for step in kept.path)


@pytest.mark.parametrize("repeats", [40, 120])
def test_a_long_verbatim_turn_is_encoded_as_its_part_about_the_query(repeats):
    """The verbatim memory of a whole turn has no stored vector; a long one is encoded at query time
    as its clauses about the question, not whole (an assistant's answer of hundreds of tokens cost
    seconds per query), and still comes back whole."""
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    long_reaction = ", ".join(["haha sounds good"] * repeats) + ", lol ok cool."
    turns = [
        Turn(id="t0", session="s", time=start, speaker="Ana",
             text="We signed the lease for the Pell Street office."),
        Turn(id="t1", session="s", time=start + timedelta(minutes=1), speaker="Bo", text=long_reaction),
    ]  # fmt: skip
    assert not [e for e in compress([turns[1]]) if "t1" in e.source_ids]
    embedder = RecordingEmbedder()
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=embedder)
    memory.add_many(turns)
    embedder.seen.clear()
    at = start + timedelta(days=1)
    hits = retrieve("sounds good", memory.store, namespace="u", embedder=embedder, k=5, at=at).hits
    found = [h.event for h in hits if h.event.source_ids == ["t1"]]
    assert found and found[0].text == long_reaction
    assert count_tokens(long_reaction) > 2 * _QUERY_TIME_EMBED_TOKENS
    assert embedder.seen and max(count_tokens(t) for t in embedder.seen) <= _QUERY_TIME_EMBED_TOKENS
