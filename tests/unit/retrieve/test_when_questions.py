"""A question asking when gets each memory with the day it was said, paid from the budget.

A restatement names a day only when its turn did ("今天", "last Friday"); asked "我是哪天说要去骑行的？",
the day the turn was said is the answer. Benchmarks give the raw baselines the same label by the
same rule (`bench.harness.ask_baseline`), so a "when" question is won by finding the right memory,
not by showing a day.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, time, timedelta

import pytest

from bench.baselines import RawTurnIndex
from bench.harness import ask_baseline
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, Participant, stable_id
from simplemem_graph.retrieve import retrieve
from simplemem_graph.retrieve.context import build_context
from simplemem_graph.retrieve.query import asks_when
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.text import count_tokens
from tests.date_text import random_day
from tests.durability_support import HashEmbedder

_DAY_LABEL = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\] ")


@pytest.mark.parametrize(
    "question",
    [
        "When did I start learning the piano?",
        "So when did we last talk about the move?",
        "What day did I adopt the dog?",
        "Which date was the dentist appointment?",
        "How many days ago did I buy the tent?",
        "How many days passed between the concert and the wedding?",
        "How many weeks had passed between the two trips?",
        "How long before the party did I order the gift?",
        "两次体检隔了多少天？",
        "What time did the train leave?",
        "我是哪天说要去准备骑行的？",
        "我一个人逛古城是哪天来着？",
        "我什么时候跟你说学编程进度慢的？",
        "老板是几号把任务交给我的？",
        "我们是哪一年认识的？",
    ],
)
def test_a_question_for_a_day_or_a_time_asks_when(question):
    assert asks_when(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did I buy when I was in Paris?",
        "How long have I been learning the piano?",
        "How many days a week do I go to the gym?",
        "What did you recommend for rainy days?",
        "Which hobbies do I have besides music?",
        "我喜欢什么花？",
        "你推荐我在家玩点啥？",
        "我每天几点起床？这个不算",  # a time of day asked of a habit: no 哪天 / 几号 / 什么时候
    ],
)
def test_a_question_about_something_else_does_not(question):
    assert not asks_when(question)


def _memory(said: list[tuple[datetime, str]]) -> Memory:
    """One user event per (time, text), each from its own turn (stage 1 by hand)."""
    memory = Memory(EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder())
    events = [
        Event(
            id=stable_id("ev", "u", str(i)),
            namespace="u",
            text=text,
            source_ids=[f"t{i}"],
            session=f"s{i}",
            speaker="user",
            time=when,
            participants=[Participant(name="user", type="person", role="agent")],
            embedding=memory.embedder.encode([text])[0].tolist(),
        )
        for i, (when, text) in enumerate(said)
    ]
    consolidate_batch(events, memory.store, embedder=memory.embedder)
    return memory


def _ask(memory: Memory, question: str, at: datetime, budget: int | None):
    return retrieve(question, memory.store, namespace="u", embedder=memory.embedder, at=at, budget=budget)


def _days(seed: int) -> list[datetime]:
    rng = random.Random(seed)
    first = random_day(rng)
    return [
        datetime.combine(first + timedelta(days=gap), time(20), tzinfo=UTC) for gap in (0, rng.randint(2, 40))
    ]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("budget", [None, 40, 100])
def test_each_memory_shown_for_a_when_question_opens_with_its_day(seed, budget):
    first, second = _days(seed)
    memory = _memory([(first, "陈阳要去准备骑行了"), (second, "陈阳去公园散步了")])
    at = second + timedelta(days=1)
    result = _ask(memory, "我是哪天说要去准备骑行的？", at, budget)
    assert result.hits
    for hit in result.hits:
        label = _DAY_LABEL.match(hit.event.text)
        assert label and label.group(1) == hit.event.time.date().isoformat(), hit.event.text
        assert "dated: the question asks when" in hit.path
    top = result.hits[0].event.text
    assert "骑行" in top and top.startswith(f"[{first.date().isoformat()}] ")
    if budget is not None:  # the label is paid from the budget
        assert sum(count_tokens(h.event.text) for h in result.hits) <= budget
    # The prompt block shows the day once, not twice.
    block = build_context(result.hits, budget_tokens=200)
    assert block.count(first.date().isoformat()) == 1, block


@pytest.mark.parametrize("seed", range(4))
def test_a_memory_is_not_dated_when_the_question_does_not_ask_when_or_its_text_names_the_day(seed):
    first, second = _days(seed)
    named = f"今天({second.date().isoformat()})陈阳去公园散步了"
    memory = _memory([(first, "陈阳要去准备骑行了"), (second, named)])
    at = second + timedelta(days=1)
    plain = _ask(memory, "我要去准备什么？", at, 100)
    assert plain.hits and not any(_DAY_LABEL.match(h.event.text) for h in plain.hits)
    asked = _ask(memory, "我哪天去公园散步了？", at, 100)
    walk = next(h for h in asked.hits if "散步" in h.event.text)
    assert walk.event.text == named  # the day is in its text already: no label


def test_a_baseline_is_dated_by_the_same_rule():
    turns = ["user: I went to the old town alone", "user: I bought a new tent"]
    index = RawTurnIndex(["a", "b"], turns, ["s1", "s2"], HashEmbedder())
    days = {"a": "2024-03-02", "b": "2024-05-09"}
    question = "When did I go to the old town?"
    dated = ask_baseline(index, "bm25", question, days).deep
    raw = index.rank("bm25", question, 120)
    assert raw and [item.text for item in dated] == [f"[{days[i.ids[0]]}] {i.text}" for i in raw]
    plain = ask_baseline(index, "bm25", "Where did I go alone?", days).deep
    assert not any(_DAY_LABEL.match(item.text) for item in plain)
