"""A hit turn whose events left out words comes back whole, and a token budget may show two
memories of one turn: the facts stage 1 cut from a turn stay reachable and fit in the budget."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, Participant, Turn, stable_id
from simplemem_graph.retrieve import retrieve
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder

START = datetime(2026, 4, 27, 12, tzinfo=UTC)


def _memory(turns: list[Turn], clauses: dict[str, list[str]]) -> Memory:
    """A store holding `turns` and, for each turn id, the clause events named (stage 1 by hand)."""
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    memory.store.add_turns(turns, pending=False)
    by_id = {t.id: t for t in turns}
    events = [
        Event(
            id=stable_id("ev", "u", turn_id, str(i)),
            namespace="u",
            text=text,
            source_ids=[turn_id],
            session=by_id[turn_id].session,
            speaker=by_id[turn_id].speaker,
            time=by_id[turn_id].time,
            participants=[Participant(name=by_id[turn_id].speaker, type="person", role="agent")],
            embedding=memory.embedder.encode([text])[0].tolist(),
        )
        for turn_id, texts in clauses.items()
        for i, text in enumerate(texts)
    ]
    consolidate_batch(events, memory.store, embedder=memory.embedder)
    return memory


def _turn(i: int, text: str, speaker: str = "user") -> Turn:
    return Turn(
        namespace="u", id=f"t{i}", session="s", time=START + timedelta(minutes=i), speaker=speaker, text=text
    )


@pytest.mark.parametrize("kept", ["陈阳喜欢户外活动，像滑板", "陈阳喜欢户外活动"])
def test_a_turn_whose_events_dropped_list_items_comes_back_whole(kept):
    said = "是的，我喜欢户外活动，像滑板、攀岩和街舞等等。"
    turns = [_turn(0, said), _turn(1, "今天天气不错，我去公园散步了。")]
    memory = _memory(turns, {"t0": [kept], "t1": ["陈阳去公园散步了"]})
    at = START + timedelta(days=1)
    hits = retrieve(
        "我喜欢哪些户外活动？", memory.store, namespace="u", embedder=memory.embedder, at=at, budget=100
    ).hits
    shown = " ".join(h.event.text for h in hits)
    assert "攀岩" in shown and "街舞" in shown, shown
    whole = [h.event for h in hits if h.event.text == said]
    assert whole and whole[0].verbatim and whole[0].source_ids == ["t0"]


def test_a_turn_whose_events_kept_every_word_is_not_repeated():
    turns = [_turn(0, "我喜欢滑板和攀岩。")]
    memory = _memory(turns, {"t0": ["陈阳喜欢滑板和攀岩。"]})
    hits = retrieve(
        "我喜欢什么运动？",
        memory.store,
        namespace="u",
        embedder=memory.embedder,
        at=START + timedelta(days=1),
    ).hits
    assert [h.event.text for h in hits] == ["陈阳喜欢滑板和攀岩。"]


def test_a_budget_shows_two_clauses_of_one_turn_and_k_results_one():
    turns = [_turn(0, "我最近在学钢琴，也在学游泳。")]
    memory = _memory(turns, {"t0": ["陈阳最近在学钢琴", "陈阳也在学游泳"]})
    at = START + timedelta(days=1)
    common = {"namespace": "u", "embedder": memory.embedder, "at": at}
    budget = retrieve("我最近在学什么？", memory.store, budget=100, **common).hits
    shown = [h.event.text for h in budget]
    # Both clauses, each once: apart, or the first carrying the rest of its turn.
    assert sum(s.count("陈阳也在学游泳") for s in shown) == 1, shown
    assert sum(s.count("陈阳最近在学钢琴") for s in shown) == 1, shown
    assert len(retrieve("我最近在学什么？", memory.store, k=5, **common).hits) == 1


def test_a_question_ranks_below_a_statement_when_the_asker_asks_about_themself():
    turns = [_turn(0, "你平时喜欢做菜吗？"), _turn(1, "我平时喜欢做菜，最拿手的是红烧肉。")]
    memory = _memory(turns, {"t0": ["你平时喜欢做菜吗？"], "t1": ["陈阳平时喜欢做菜，最拿手的是红烧肉。"]})
    at = START + timedelta(days=1)
    hits = retrieve("我平时喜欢做什么菜？", memory.store, namespace="u", embedder=memory.embedder, at=at).hits
    assert hits[0].event.source_ids == ["t1"]
