"""One haystack, ours and every raw-turn baseline, the same questions: shared by the benchmarks.

`evaluate` asks each question of ours (a k=5 call as a user makes it, and a deep call for k=10 and
the token budgets) and of each baseline of bench/baselines.py, and scores all of them with
bench/scoring.py into one `Board`, each baseline also filled to the tokens ours returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bench.baselines import BASELINES, Item, RawTurnIndex
from bench.scoring import BUDGETS, Board, Ranked, score_question
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, Participant, Turn, stable_id
from simplemem_graph.retrieve import retrieve
from simplemem_graph.retrieve.query import asks_when
from simplemem_graph.text import count_tokens

BASELINE_DEPTH = 120


@dataclass
class EvalQuestion:
    text: str
    gold: set[str]
    bucket: str
    at: datetime
    gold_sessions: set[str] | None = None
    answer: str | None = None


def turn_text(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


def ingest_turn_events(memory: Memory, turns: list[Turn]) -> int:
    """The `--ingest turns` ablation: one verbatim event per turn ("Speaker: text"), then the real
    stage 2. It measures retrieval on its own, whatever stage 1 keeps or restates."""
    memory.store.add_turns(turns)
    texts = [turn_text(t) for t in turns]
    vectors = memory.embedder.encode(texts)
    events = [
        Event(
            id=stable_id("ev", memory.namespace, t.id),
            namespace=memory.namespace,
            text=text,
            source_ids=[t.id],
            session=t.session,
            speaker=t.speaker,
            time=t.time,
            participants=[Participant(name=t.speaker, type="person", role="agent")],
            verbatim=True,
            embedding=vector.tolist(),
        )
        for t, text, vector in zip(turns, texts, vectors, strict=True)
    ]
    consolidate_batch(events, memory.store, embedder=memory.embedder)
    return len(events)


def hits_to_items(hits) -> list[Item]:
    return [Item(tuple(h.event.source_ids), h.event.text) for h in hits]


def ask_ours(memory: Memory, question: str, at, plan, scorer=None) -> Ranked:
    """Retrieve directly (not `Memory.search`): a benchmark must not refresh access counts between
    questions, or the answer to one question would depend on the ones asked before it. The k=5
    call is what a user gets; the deep call (k=40, recall 40) feeds k=10; each token budget is
    what the product returns when asked for that budget (`budget=B`)."""
    common = {
        "namespace": memory.namespace,
        "embedder": memory.embedder,
        "at": at,
        "plan": plan,
        "scorer": scorer,
    }
    five = retrieve(question, memory.store, k=5, recall_k=15, **common)
    deep = retrieve(question, memory.store, k=40, recall_k=40, **common)
    budgets = {
        budget: hits_to_items(retrieve(question, memory.store, budget=budget, **common).hits)
        for budget in BUDGETS
    }
    return Ranked(hits_to_items(five.hits), hits_to_items(deep.hits), five.took_ms, budgets)


def ask_baseline(
    index: RawTurnIndex, system: str, question: str, days: dict[str, str] | None = None
) -> Ranked:
    """A baseline's ranking. Given `days` (turn id -> the day it was said), a question asking when
    gets each item opened with its turn's day, by the rule ours uses (`asks_when`, and the label
    paid from the budget): raw history with its timestamps, as a sceptic would give it, so that
    ours does not win a "when" question only by showing a day."""
    started = time.perf_counter()
    # Deep enough to fill the largest budget with short items (sentences are ~12 tokens).
    deep = index.rank(system, question, BASELINE_DEPTH)
    if days is not None and asks_when(question):
        deep = [Item(item.ids, f"[{days[item.ids[0]]}] {item.text}") for item in deep]
    return Ranked(deep[:5], deep, (time.perf_counter() - started) * 1000)


def evaluate(
    memory: Memory,
    turns: Sequence[Turn],
    questions: Sequence[EvalQuestion],
    ours: dict[str, tuple[object, object]],
    board: Board,
    *,
    session_of: Callable[[str], str] | None = None,
) -> None:
    """Our variants and every baseline on one haystack's questions, into `board`.

    `ours`: system name -> (plan, scorer or None); the first is the headline ("ours"), whose
    tokens at k=5 set the budget every other system is filled to (R@ours5).
    """
    index = RawTurnIndex(
        [t.id for t in turns], [turn_text(t) for t in turns], [t.session for t in turns], memory.embedder
    )
    days = {t.id: t.time.date().isoformat() for t in turns}
    for q in questions:
        extra = {"gold_sessions": q.gold_sessions, "session_of": session_of, "answer": q.answer}
        budget = None
        for name, (plan, scorer) in ours.items():
            ranked = ask_ours(memory, q.text, q.at, plan, scorer)
            if budget is None:
                budget = sum(count_tokens(item.text) for item in ranked.top5)
            own = name == next(iter(ours))
            board.add(name, q.bucket, score_question(ranked, q.gold, ours_budget=budget, own=own, **extra))
        for system in BASELINES:
            ranked = ask_baseline(index, system, q.text, days)
            board.add(system, q.bucket, score_question(ranked, q.gold, ours_budget=budget, **extra))


def ingest(memory: Memory, turns: list[Turn], mode: str) -> int:
    """`pipeline`: Memory.add_many (compress + consolidate); `turns`: one verbatim event per turn."""
    return memory.add_many(turns).events if mode == "pipeline" else ingest_turn_events(memory, turns)
