"""The global pass's bounded-memory helpers give what the full scans gave (issue 11)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import numpy as np

from simplemem_graph.consolidate import global_pass, neighbours
from simplemem_graph.consolidate.name_matching import name_occurs, outside_longer_names
from simplemem_graph.models import Event


def test_exact_nearest_neighbours_equal_the_full_similarity_matrix():
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((50, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    indices, scores = neighbours.nearest_neighbours(matrix, 5)
    full = matrix @ matrix.T
    for i in range(50):
        expected = np.argsort(-full[i], kind="stable")[:5]
        assert indices[i].tolist() == expected.tolist()
        assert np.allclose(scores[i], full[i][expected], atol=1e-6)
    everything, _ = neighbours.nearest_neighbours(matrix[:4], 10)  # k above the row count
    assert everything.shape == (4, 4) and everything[:, 0].tolist() == [0, 1, 2, 3]


def _clustered(rows: int, clusters: int, dim: int, seed: int) -> np.ndarray:
    """Unit rows scattered around random centres, with a near-copy of every tenth row."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dim))
    matrix = centres[rng.integers(0, clusters, rows)] + 0.5 * rng.standard_normal((rows, dim))
    copies = len(matrix[1::10])
    matrix[1::10] = matrix[0::10][:copies] + 0.01 * rng.standard_normal((copies, dim))
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


def test_indexed_nearest_neighbours_find_the_exact_ones_and_every_near_copy(monkeypatch):
    matrix = _clustered(3000, 30, 32, seed=5)
    exact, exact_scores = neighbours.nearest_neighbours(matrix, 11)
    monkeypatch.setattr(neighbours, "EXACT_MAX_ROWS", 1000)  # the IVF index above 1000 rows
    indexed, scores = neighbours.nearest_neighbours(matrix, 11)
    pairs = zip(exact.tolist(), indexed.tolist(), strict=True)
    assert np.mean([len(set(a) & set(b)) / 11 for a, b in pairs]) >= 0.95  # recall@11 against exact
    for copy in range(1, 3000, 10):  # each near-copy's nearest other row is its original
        assert indexed[copy][:2].tolist() in ([copy, copy - 1], [copy - 1, copy])
    assert np.all(scores[:, :-1] >= scores[:, 1:])  # best first
    found = indexed >= 0
    assert np.allclose(scores[found], np.sum(matrix[:, None, :] * matrix[indexed], axis=2)[found], atol=1e-5)
    again, _ = neighbours.nearest_neighbours(matrix, 11)
    assert np.array_equal(again, indexed)  # seeded: the same rows give the same neighbours
    assert exact_scores.shape == scores.shape


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
    types = {cid: type_ for _name, type_, cid in names}
    for event in events:
        occurring = [(name, cid) for name, _, cid in names if name_occurs(name, event.text)]
        # a name that occurs only inside a longer name of another entity names that one
        expected = {cid for _name, cid in outside_longer_names(occurring, event.text, types.__getitem__)}
        assert found.get(event.id, set()) == expected
