"""Asked what the listener said ("你上次让我怎么凉快下来来着？"), the reply is shown, not the asker's turn.

The asker's statement that matches such a question is its setting ("我在办公室，没有空调"); what was
said is in the agent's reply after it, which shares none of the question's words. At a token
budget that reply takes the statement's place, the mirror of a question about the asker, where
an agent's reply gives its place to the asker's statement.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, Participant, Turn, stable_id
from simplemem_graph.retrieve import retrieve
from simplemem_graph.retrieve.query import asks_about_listener, asks_about_self
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder

START = datetime(2025, 7, 14, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "你上次给我推荐过哪些电影？",
        "你推荐的那本书叫什么？",
        "小说写不动那回，你让我试着干嘛来着？",
        "朋友那事让我很累的时候，你建议我找什么帮助？",
        "What did you suggest for my trip to Lisbon?",
        "You mentioned a light beer for the stew, which one was it?",
        "Can you remind me of the restaurant you recommended?",
    ],
)
def test_a_question_about_what_the_listener_said(question):
    assert asks_about_listener(question)
    assert not asks_about_self(question)


@pytest.mark.parametrize(
    "question",
    [
        "你能给我推荐几部电影吗？",  # a request, not a memory
        "你给我推荐几部好看的电影吧",
        "我跟你说过我喜欢什么？",  # 你 is the one told
        "我之前跟你说我喜欢什么来着？",
        "Can you recommend a show for me to watch tonight?",
        "What did I tell you about my sister?",
        "我喜欢什么花？",
    ],
)
def test_a_request_or_a_question_about_the_asker_is_not(question):
    assert not asks_about_listener(question)


def _memory(turns: list[tuple[str, str, str]]) -> Memory:
    """A session of (speaker, turn text, event text) turns, one event each (stage 1 by hand)."""
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    rows = [
        Turn(
            namespace="u",
            id=f"t{i}",
            session="s",
            time=START + timedelta(minutes=i),
            speaker=speaker,
            text=said,
        )
        for i, (speaker, said, _) in enumerate(turns)
    ]
    memory.store.add_turns(rows, pending=False)
    events = [
        Event(
            id=stable_id("ev", "u", turn.id),
            namespace="u",
            text=text,
            source_ids=[turn.id],
            session=turn.session,
            speaker=turn.speaker,
            time=turn.time,
            participants=[Participant(name=turn.speaker, type="person", role="agent")],
            embedding=memory.embedder.encode([text])[0].tolist(),
        )
        for turn, (_, _, text) in zip(rows, turns, strict=True)
    ]
    consolidate_batch(events, memory.store, embedder=memory.embedder)
    return memory


_SESSION = [
    ("user", "我在办公室，热得不行，没有空调。", "陈阳在办公室，热得不行，没有空调。"),
    ("assistant", "你可以用湿毛巾擦额头，穿棉质衣服。", "陈阳可以用湿毛巾擦额头，穿棉质衣服。"),
    ("user", "好的，谢谢。", "好的"),
    ("user", "周末我去了海边。", "陈阳周末去了海边。"),
]


def _shown(question: str, budget: int) -> str:
    """What a search of `_SESSION` at `budget` tokens shows, two days later."""
    memory = _memory(_SESSION)
    at = START + timedelta(days=2)
    found = retrieve(question, memory.store, namespace="u", embedder=memory.embedder, at=at, budget=budget)
    hits = found.hits
    return " ".join(h.event.text for h in hits)


@pytest.mark.parametrize("budget", [30, 60, 100])
def test_the_reply_takes_the_place_of_the_askers_turn(budget):
    shown = _shown("那次在办公室热得不行，你让我怎么凉快下来来着？", budget)
    assert "湿毛巾" in shown, shown
    assert "没有空调" not in shown, shown  # the setting gave its place to the reply


def test_a_question_about_the_asker_still_shows_the_askers_turn():
    assert "没有空调" in _shown("我那次在办公室热得不行，是因为没有什么？", 100)
