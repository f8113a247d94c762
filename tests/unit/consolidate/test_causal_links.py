"""CAUSES links from discourse markers, within a turn and across adjacent turns, cause -> effect."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind

from .conftest import link_props


def test_chinese_because_so_within_one_turn_gives_one_link(store, make_event, embedder):
    events = [
        make_event("c1", "因为龙岗外协厂被环保检查停产了", "2026-02-02T09:15:00", turn="s3:1"),
        make_event("c2", "所以锐拓第一批没按时到", "2026-02-02T09:15:00", turn="s3:1"),
        make_event("c3", "冯总很不高兴", "2026-02-02T09:18:00", turn="s3:2"),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert link_props(store, LinkKind.CAUSES) == {("c1", "c2"): {"marker": "所以", "scope": "turn"}}


def test_english_markers_across_adjacent_turns(store, make_event, embedder):
    consolidate_batch(
        [make_event("k1", "Acme moved the kickoff to March 12", "2026-03-02T10:00:00", turn="s1:1")],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [
            make_event(
                "k2", "Because their CTO is travelling until March 11", "2026-03-02T10:01:00", turn="s1:2"
            ),
            make_event("k3", "That's why we cancelled the flights", "2026-03-02T10:02:00", turn="s1:3"),
            make_event("k4", "Lunch was great", "2026-03-02T12:00:00", session="s2", turn="s2:1"),
        ],
        store,
        embedder=embedder,
    )

    assert link_props(store, LinkKind.CAUSES) == {
        ("k2", "k1"): {"marker": "because", "scope": "adjacent"},
        ("k2", "k3"): {"marker": "that's why", "scope": "adjacent"},
    }
    assert delta.counts["CAUSES"] == 2


def test_so_inside_a_word_or_sentence_is_not_a_marker(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("x1", "Ana met the supplier", "2026-03-02T10:00:00"),
            make_event("x2", "Sofia approved the budget, so it is final", "2026-03-02T10:01:00"),
        ],
        store,
        embedder=embedder,
    )
    assert link_props(store, LinkKind.CAUSES) == {}
