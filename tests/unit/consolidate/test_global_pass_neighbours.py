"""The global pass's bounded-memory helpers give what the full scans gave (issue 11)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import numpy as np

from simplemem_graph.consolidate import global_pass
from simplemem_graph.consolidate.entities import name_occurs
from simplemem_graph.models import Event


def test_nearest_neighbours_in_blocks_equal_the_full_similarity_matrix(monkeypatch):
    monkeypatch.setattr(global_pass, "_BLOCK_ROWS", 7)  # several blocks, one of them partial
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((50, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    indices, scores = global_pass.nearest_neighbours(matrix, 5)
    full = matrix @ matrix.T
    for i in range(50):
        expected = np.argsort(-full[i], kind="stable")[:5]
        assert indices[i].tolist() == expected.tolist()
        assert np.allclose(scores[i], full[i][expected])
    everything, _ = global_pass.nearest_neighbours(matrix[:4], 10)  # k above the row count
    assert everything.shape == (4, 4) and everything[:, 0].tolist() == [0, 1, 2, 3]


def _random_name(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "".join(
            rng.choice("王李张刘陈杨黄赵周吴徐孙马朱胡郭何林罗高") for _ in range(rng.randint(2, 3))
        )
    syllables = ["ka", "lo", "mi", "ren", "tas", "vu", "zel", "or", "an"]
    return " ".join(
        "".join(rng.choice(syllables) for _ in range(2)).title() for _ in range(rng.randint(1, 2))
    )


def test_names_found_by_the_automaton_are_those_name_occurs_finds():
    rng = random.Random(11)
    names = [(_random_name(rng), "person", f"en-{i}") for i in range(60)]
    events = []
    for i in range(80):
        picked = [n for n, _, _ in rng.sample(names, 3)]
        # lower-cased, glued to other words, or inside a longer word: the whole-word rule decides
        text = f"{picked[0]} met {picked[1].lower()} and x{picked[2]}y about {_random_name(rng)}"
        events.append(
            Event(id=f"e{i}", text=text, source_ids=["t"], time=datetime(2026, 1, 1, tzinfo=UTC), session="s")
        )
    found = global_pass._names_in_texts(names, events)
    for event in events:
        expected = {cid for name, _, cid in names if name_occurs(name, event.text)}
        assert found.get(event.id, set()) == expected
