"""`train-reranker` on synthetic feedback (issue 10): a planted predictive feature is learned,
cross-validated and applied, and changes the ranking; random labels are refused.

The memory: per question, one helpful event that only *mentions the entity the question names*
(no shared word, so no lexical or embedding similarity) and three distractors that share the
question's words but mention nobody. The shipped weights ignore entity overlap (weight 0 on
LoCoMo, where every question names a speaker) and rank the distractors first; feedback that
always marks the entity's event helpful plants the `entity` feature.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.embedding import check_store_model
from simplemem_graph.errors import InputError
from simplemem_graph.memory import Memory
from simplemem_graph.models import Entity, Event, Link, LinkKind, Participant
from simplemem_graph.retrieve.rerank import learned_scorer
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.durability_support import HashEmbedder
from tests.store_writes import write

NS = "fb"
AT = datetime(2026, 3, 20, 9, 0, tzinfo=UTC)
QUESTIONS = 50  # with 20, a random labelling can favour one kind of event by chance, and that generalises
_SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "tor", "vi", "del", "no", "bra", "quin", "zu", "fe", "ha"]


def _word(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(parts))


def _world(seed: int = 7) -> tuple[list[Event], list[Entity], list[Link], list[tuple[str, str]]]:
    """Events, entities, MENTIONS links and (question, helpful event id) pairs."""
    rng = random.Random(seed)
    embedder = HashEmbedder()
    events, entities, links, questions = [], [], [], []
    names, topics = set(), set()
    for q in range(QUESTIONS):
        name = _word(rng, 3).capitalize()
        topic = _word(rng, 4)
        while name in names or topic in topics:
            name, topic = _word(rng, 3).capitalize(), _word(rng, 4)
        names.add(name)
        topics.add(topic)
        entity = Entity(id=f"ent-{q}", namespace=NS, name=name, type="person")
        entities.append(entity)
        texts = {
            f"h{q}": "approved it on the call before lunch",
            f"d{q}a": f"the {topic} review is still open",
            f"d{q}b": f"notes on the {topic} plan were filed",
            f"d{q}c": f"someone asked about the {topic} budget",
        }
        for n, (event_id, text) in enumerate(texts.items()):
            helpful = event_id.startswith("h")
            events.append(
                Event(
                    id=event_id,
                    namespace=NS,
                    text=text,
                    source_ids=[f"s{q}:{event_id}"],
                    session=f"s{q}",
                    time=AT - timedelta(days=3, minutes=10 * q + n),
                    participants=[Participant(name=name, type="person")] if helpful else [],
                    embedding=embedder.encode([text])[0].tolist(),
                )
            )
            if helpful:
                links.append(Link(kind=LinkKind.MENTIONS, source=event_id, target=entity.id, namespace=NS))
        questions.append((f"what did {name} say about the {topic}?", f"h{q}"))
    return events, entities, links, questions


@pytest.fixture
def world():
    events, entities, links, questions = _world()
    store = EmbeddedStore(":memory:")
    embedder = HashEmbedder()
    check_store_model(store, embedder)  # record the model before writing its vectors
    write(store, events=events)
    write(store, entities=entities)
    write(store, links=links)
    memory = Memory(store, namespace=NS, embedder=embedder)
    yield memory, questions
    memory.close()


def _first(memory: Memory, question: str) -> str:
    return memory.search(question, at=AT).hits[0].event.id


def test_a_planted_feature_is_learned_cross_validated_and_applied(world):
    memory, questions = world
    before = [_first(memory, q) for q, _ in questions]
    assert (
        sum(first == helpful for first, (_, helpful) in zip(before, questions, strict=True))
        < len(questions) / 2
    ), "the shipped weights should miss the planted feature"
    for question, helpful in questions:
        shown = [h.event.id for h in memory.search(question, at=AT).hits]
        memory.feedback(question, [helpful], shown=sorted({*shown, helpful}), at=AT)

    dry = memory.train_reranker(folds=5)
    assert dry["applied"] is False and memory.reranker()[1] == "shipped"
    assert len(dry["folds"]) == 5 and dry["queries"] == QUESTIONS
    assert dry["gain_mrr"]["mean"] > 0.3 and dry["gain_mrr"]["min"] > 0
    assert dry["retrained"]["mrr"] > dry["current"]["mrr"]
    assert dry["retrained_weights"]["weights"]["entity"] > 0
    assert dry["current_weights"]["weights"] == dict(learned_scorer().weights)

    report = memory.train_reranker(folds=5, apply=True)
    assert report["applied"] is True
    scorer, source = memory.reranker()
    assert source == "store" and scorer.weights == report["retrained_weights"]["weights"]
    after = [_first(memory, q) for q, _ in questions]
    assert sum(first == helpful for first, (_, helpful) in zip(after, questions, strict=True)) > 0.9 * len(
        questions
    )
    # A second run compares against the applied weights, which already rank the helpful first.
    assert memory.train_reranker(folds=5)["current_source"] == "store"

    assert memory.reset_reranker() is True
    assert memory.reranker()[1] == "shipped"
    assert [_first(memory, q) for q, _ in questions] == before

    # Forgetting the namespace forgets its feedback and the weights learned from it.
    assert memory.train_reranker(folds=5, apply=True)["applied"] is True
    memory.forget(everything=True)
    assert memory.reranker()[1] == "shipped" and memory.store.feedback(NS) == []


def test_random_labels_are_refused(world):
    memory, questions = world
    rng = random.Random(1)
    for question, _ in questions:
        shown = [h.event.id for h in memory.search(question, at=AT).hits]
        memory.feedback(question, [rng.choice(shown)], shown=shown, at=AT)
    report = memory.train_reranker(folds=5, apply=True)
    assert report["improves"] is False and report["applied"] is False
    assert report["gain_mrr"]["mean"] <= 0 or report["gain_mrr"]["min"] < 0
    assert memory.reranker()[1] == "shipped"


def test_too_few_labels_is_a_clear_input_error(world):
    memory, questions = world
    for question, helpful in questions[:3]:
        memory.feedback(question, [helpful], at=AT)
    with pytest.raises(InputError, match=r"3 distinct labelled queries.*needs at least 10"):
        memory.train_reranker(folds=5)
    with pytest.raises(InputError, match="at least 2"):
        memory.train_reranker(folds=1)


# ---- the CLI verbs (in-process, over a file store, with the light embedder) -------------------------
@pytest.fixture
def cli_store(tmp_path, monkeypatch):
    from simplemem_graph.cli import common

    path = tmp_path / "m.db"
    events, entities, links, questions = _world()
    store = EmbeddedStore(str(path))
    check_store_model(store, HashEmbedder())
    write(store, events=events)
    write(store, entities=entities)
    write(store, links=links)
    store.close()

    # Each verb opens and closes its own Memory, as `open_memory` does.
    def memory(namespace=None, *, read_only=False):  # the store exists: nothing to refuse
        return Memory(EmbeddedStore(str(path)), namespace=NS, embedder=HashEmbedder())

    monkeypatch.setattr(common, "open_memory", memory)
    return path, questions


def _run(capsys, *args) -> tuple[int, str, str]:
    from simplemem_graph.cli import main

    with pytest.raises(SystemExit) as done:
        main([*args])
        raise SystemExit(0)
    captured = capsys.readouterr()
    return done.value.code or 0, captured.out, captured.err


def _recorded(path) -> int:
    store = EmbeddedStore(str(path))
    try:
        return len(store.feedback(NS))
    finally:
        store.close()


def test_cli_feedback_and_train_reranker(cli_store, capsys):
    path, questions = cli_store
    bad = ["feedback", questions[0][0], "--helpful", "h0", "--helpful", "ghost", "--json"]
    code, out, err = _run(capsys, *bad)
    assert code == 2 and "unknown event ids" in err and "ghost" in err and "Traceback" not in err
    assert _recorded(path) == 0

    code, out, _ = _run(capsys, "train-reranker", "--json")
    assert code == 2 and out == ""

    at = AT.isoformat()
    for question, helpful in questions:
        shown = [helpful, *(f"d{helpful[1:]}{s}" for s in "abc")]
        args = ["feedback", question, "--helpful", helpful, "--at", at, "--json"]
        code, out, _ = _run(capsys, *args, *(x for i in shown for x in ("--shown", i)))
        assert code == 0 and json.loads(out)["helpful"] == [helpful]
    assert _recorded(path) == len(questions)

    code, out, _ = _run(capsys, "train-reranker", "--folds", "5", "--apply", "--json")
    assert code == 0 and len(out.splitlines()) == 1
    report = json.loads(out)
    assert report["applied"] is True and len(report["folds"]) == 5 and report["gain_mrr"]["mean"] > 0

    code, out, _ = _run(capsys, "train-reranker", "--folds", "5")
    assert code == 0 and "MRR gain" in out and "weights in use: store" in out
    code, out, _ = _run(capsys, "train-reranker", "--reset", "--json")
    assert code == 0 and json.loads(out) == {"namespace": NS, "reset": True}
