"""A client's thread between two of its turns: the turns said between two events of the story in
one session belong to it when nothing in between names another party ("he rang back twenty
minutes later, all sorted" between two turns about the client); a turn naming another firm ends
the thread there, and a turn outside the two is no part of it.

Small conversations written for these tests (names made up here); events are built by hand as
stage 1 would hand them over.
"""

from __future__ import annotations

from simplemem_graph.retrieve.story import BETWEEN_PATH, entity_story

from .conftest import NS, ingest_turns

ALL = None


def _paths(story) -> dict[str, list[str]]:
    return {h.event.source_ids[0]: h.path for h in story.hits}


THREAD = [
    ("s1:1", "2026-05-04T09:00:00", "Quillfern Orchards want the cold room relined before harvest"),
    ("s1:2", "2026-05-04T09:05:00", "rang their yard twice, nobody picked up"),
    ("s1:3", "2026-05-04T09:25:00", "he came round later, all sorted"),
    ("s1:4", "2026-05-04T09:40:00", "Quillfern Orchards confirmed the relining for the 20th"),
    ("s1:5", "2026-05-04T18:00:00", "knackered, heading home"),
]


def test_turns_between_two_of_the_clients_turns_are_its_story(store, make_event, embedder):
    orgs = {"s1:1": ["Quillfern Orchards"], "s1:4": ["Quillfern Orchards"]}
    ingest_turns(store, make_event, embedder, THREAD, orgs)
    paths = _paths(entity_story(store, NS, "Quillfern Orchards", statuses=ALL))
    assert {"s1:1", "s1:2", "s1:3", "s1:4"} <= set(paths)
    assert BETWEEN_PATH in paths["s1:3"]  # no name, no shared word, no value: only the thread holds it
    assert "s1:5" not in paths  # after the client's last turn of the session: not between two


INTERRUPTED = [
    ("s1:1", "2026-05-04T09:00:00", "Quillfern Orchards want the cold room relined before harvest"),
    ("s1:2", "2026-05-04T09:05:00", "Brackwater Joinery asked for a quote on shelving"),
    ("s1:3", "2026-05-04T09:25:00", "he came round later, all sorted"),
    ("s1:4", "2026-05-04T09:40:00", "Quillfern Orchards confirmed the relining for the 20th"),
]


def test_another_party_named_in_between_ends_the_thread(store, make_event, embedder):
    orgs = {"s1:1": ["Quillfern Orchards"], "s1:2": ["Brackwater Joinery"], "s1:4": ["Quillfern Orchards"]}
    ingest_turns(store, make_event, embedder, INTERRUPTED, orgs)
    paths = _paths(entity_story(store, NS, "Quillfern Orchards", statuses=ALL))
    assert "s1:2" not in paths
    assert BETWEEN_PATH not in paths.get("s1:3", [])  # the thread was broken by another firm's turn
