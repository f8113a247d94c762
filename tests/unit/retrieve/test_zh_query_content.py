"""Chinese questions reduced to their content, and questions about the asker preferring what the
asker said over an agent's reply that shares their words."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from simplemem_graph.memory import Memory
from simplemem_graph.models import Event, Turn
from simplemem_graph.retrieve.query import QueryAnalysis, asks_about_self, content_text, content_words
from simplemem_graph.retrieve.recall import Candidate
from simplemem_graph.retrieve.rerank import AGENT_REPLY_WEIGHT, Scored, discount_agent_replies
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EventQuery

CST = timezone(timedelta(hours=8))
T0 = datetime(2026, 5, 2, 20, 0, tzinfo=CST)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("我那台笔记本用着怎么样来着？", ["笔记本", "用"]),
        ("我的生日是哪天？", ["生日"]),
        ("那部演员表演很精彩的电影叫什么名字来着？", ["演员", "表演", "精彩", "电影", "叫", "名字"]),
        ("我通过面试的那家公司是做什么的？", ["通过", "面试", "公司", "做"]),
        # a Latin word inside a Chinese question is content, whatever jieba tags it
        ("我周末一般去哪里淘CD来着？", ["周末", "一般", "去", "淘", "cd"]),
        ("我那个APP叫什么来着？", ["app", "叫"]),
        # a first person bound to a noun without 的 is how the asker said the thing ("我爸…")
        ("我爸以前是做什么工作的？", ["我爸", "以前", "做", "工作"]),
        ("我妈有什么病？", ["我妈", "病"]),
        # ...but not before a verb or 的, and not a name after it
        ("我们现在住的那个小区叫啥来着？", ["现在", "住", "小区", "叫"]),
    ],
)
def test_chinese_questions_keep_only_their_content_words(query, expected):
    assert content_words(query) == expected


def test_a_fused_first_person_keeps_the_word_it_swallowed():
    # jieba reads "我报" (I signed up) as one pronoun; 报 is the verb the question is about
    assert "我报" in content_text("我报的那个兴趣班是学什么的？")


def test_english_questions_keep_their_tokens():
    assert content_words("What laptop did I buy?") == ["laptop", "buy"]


@pytest.mark.parametrize(
    ("query", "about_self"),
    [
        ("我喜欢听什么音乐？", True),
        ("你给我推荐过哪些电影？", False),
        ("那部演员表演很精彩的电影叫什么名字来着？", True),
        ("你推荐的那部电影叫什么来着？", False),
        ("What did I buy last week?", True),
        ("What did you recommend to me?", False),
        ("When is the Acme kickoff?", False),
    ],
)
def test_a_question_about_the_asker(query, about_self):
    assert asks_about_self(query) is about_self


def _scored(event_id: str, speaker: str, score: float) -> Scored:
    event = Event(
        id=event_id,
        namespace="t",
        text=event_id,
        source_ids=[event_id],
        session="s",
        speaker=speaker,
        time=T0,
    )
    return Scored(Candidate(event_id), event, {}, score)


def test_agent_replies_are_discounted_only_for_questions_about_the_asker():
    scored = [_scored("reply", "assistant", 0.8), _scored("fact", "user", 0.6)]
    mine = QueryAnalysis(query="我的手机是什么？", lang="zh", tokens=["手机"], about_self=True)
    other = QueryAnalysis(query="你推荐了什么手机？", lang="zh", tokens=["推荐", "手机"], about_self=False)
    ranked = discount_agent_replies(scored, mine)
    assert [s.event.id for s in ranked] == ["fact", "reply"]
    assert ranked[1].score == pytest.approx(0.8 * AGENT_REPLY_WEIGHT)
    assert [s.event.id for s in discount_agent_replies(scored, other)] == ["reply", "fact"]


def test_a_scorer_that_learned_the_discount_is_not_discounted_twice():
    """The Chinese weights learned what an agent's reply or a question is worth to a question about
    the asker ("asked_or_replied"): the fixed discount stays for scorers that did not."""
    import numpy as np

    from simplemem_graph.config import DecayPolicy
    from simplemem_graph.retrieve.rerank import LinearScorer, compute_features

    scored = [_scored("reply", "assistant", 0.8), _scored("fact", "user", 0.6)]
    mine = QueryAnalysis(query="我的手机是什么？", lang="zh", tokens=["手机"], about_self=True)
    learned = LinearScorer(weights={"dense": 1.0, "asked_or_replied": -2.0})
    assert [s.score for s in discount_agent_replies(scored, mine, learned)] == [0.8, 0.6]
    unaware = LinearScorer(weights={"dense": 1.0})
    assert [s.event.id for s in discount_agent_replies(scored, mine, unaware)] == ["fact", "reply"]
    question = _scored("你喜欢什么手机？", "user", 0.5).event
    events = {e.id: e for e in (scored[0].event, scored[1].event, question)}
    rows = compute_features(
        [Candidate(i) for i in events], events, mine, np.zeros(4), at=T0, decay=DecayPolicy()
    )
    assert [r["asked_or_replied"] for r in rows] == [1.0, 0.0, 1.0]
    other = QueryAnalysis(query="你推荐了什么手机？", lang="zh", tokens=["推荐", "手机"], about_self=False)
    rows = compute_features(
        [Candidate(i) for i in events], events, other, np.zeros(4), at=T0, decay=DecayPolicy()
    )
    assert [r["asked_or_replied"] for r in rows] == [0.0, 0.0, 0.0]


def test_a_first_person_fact_ranks_above_chat_that_shares_its_function_words(embedder):
    said = [
        ("user", "我的笔记本是一台银色的旧款联想，用了三年了。"),
        ("assistant", "听起来不错！你平时用笔记本做什么呢？你觉得怎么样？"),
        ("user", "我也不知道该怎么办，最近有点累。"),
        ("assistant", "不知道怎么办的时候，可以先休息一下，你觉得怎么样？"),
    ]
    turns = [
        Turn(id=f"t{i}", session="s1", speaker=who, time=T0 + timedelta(minutes=i), text=text)
        for i, (who, text) in enumerate(said)
    ]
    memory = Memory(EmbeddedStore(":memory:"), namespace="zh", embedder=embedder)
    memory.add_many(turns)
    result = memory.search("我那台笔记本用着怎么样来着？", k=3, at=T0 + timedelta(days=1))
    assert result.hits and result.hits[0].event.source_ids == ["t0"]
    memory.close()


def _chat_memory(embedder) -> tuple[Memory, dict[str, Event]]:
    said = [
        ("user", "你能帮我记点事情吗？"),
        ("user", "其实我很喜欢下围棋和做木工，周末常去河边钓鱼。"),
        ("assistant", "听起来你的爱好很丰富，我也很喜欢你提到的这些爱好。"),
        ("user", "今天下了一整天的雨。"),
    ]
    turns = [
        Turn(id=f"t{i}", session="s1", speaker=who, time=T0 + timedelta(minutes=i), text=text)
        for i, (who, text) in enumerate(said)
    ]
    memory = Memory(EmbeddedStore(":memory:"), namespace="zh", embedder=embedder)
    memory.add_many(turns)
    events = {e.source_ids[0]: e for e in memory.store.events("zh", EventQuery())}
    return memory, events


@pytest.mark.parametrize("about_self", [True, False])
def test_an_agent_reply_gives_its_place_to_the_askers_statement_it_replies_to(embedder, about_self):
    from simplemem_graph.retrieve import _with_turn_context

    memory, events = _chat_memory(embedder)
    reply, rain = events["t2"], events["t3"]
    chosen = [Scored(Candidate(e.id), e, {}, score) for e, score in ((reply, 0.9), (rain, 0.2))]
    picked = _with_turn_context(memory.store, "zh", chosen, 200, 0.5, ("active",), about_self=about_self)
    first = picked[0].event
    if about_self:
        # the asker's statement (not their question, not the reply) takes the reply's place
        assert first.source_ids == ["t1"] and "围棋" in first.text
        assert "爱好很丰富" not in first.text and "帮" not in first.text
    else:
        # any other question: the reply keeps its place and carries the turn after it
        assert first.id == reply.id and first.source_ids == ["t2", "t3"]
    memory.close()


@pytest.mark.parametrize(
    ("query", "chinese"),
    [("老公他爸哪儿不舒服来着？", True), ("我那台笔记本用着怎么样", True), ("What laptop did I buy?", False)],
)
def test_a_chinese_question_fuses_its_channels_with_the_plans_chinese_weights(monkeypatch, query, chinese):
    """The lexical channels of a Chinese question meet chat on common words (最近, 情况): the
    default plan weighs its vector channel as much as the turn fulltext channel; English keeps
    the plan's own weights."""
    import simplemem_graph.retrieve as retrieve_module
    from simplemem_graph.retrieve import DEFAULT_PLAN, gather_candidates
    from tests.durability_support import HashEmbedder

    seen = []

    def spy(*args, **kwargs):
        seen.append(kwargs["weights"])
        return []

    monkeypatch.setattr(retrieve_module, "recall_candidates", spy)
    store = EmbeddedStore(":memory:")
    gather_candidates(query, store, namespace="u", embedder=HashEmbedder(), at=T0)
    expected = DEFAULT_PLAN.zh_channel_weights if chinese else DEFAULT_PLAN.channel_weights
    assert seen and all(w == expected for w in seen)
    assert DEFAULT_PLAN.zh_channel_weights["vector"] > DEFAULT_PLAN.channel_weights.get("vector", 1.0)


@pytest.mark.parametrize(
    ("query", "lang"),
    [("老公他爸哪儿不舒服来着？", "zh"), ("我那台笔记本用着怎么样", "zh"), ("What laptop did I buy?", "en")],
)
def test_a_chinese_question_is_ranked_by_the_weights_learned_on_chinese(monkeypatch, query, lang):
    """The default plan's learned scorer is the one shipped for the question's language: the Chinese
    weights learned the discount of an agent's reply (`asked_or_replied` < 0); the English ones leave
    it unlearned (LoCoMo has no agent), so the fixed discount applies."""
    import simplemem_graph.retrieve as retrieve_module
    from simplemem_graph.retrieve import retrieve
    from simplemem_graph.retrieve.rerank import learned_scorer
    from tests.durability_support import HashEmbedder

    used = []

    def spy(candidates, events, features, scorer, **kwargs):
        used.append(scorer)
        return []

    monkeypatch.setattr(retrieve_module, "score_candidates", spy)
    retrieve(query, EmbeddedStore(":memory:"), namespace="u", embedder=HashEmbedder(), at=T0)
    assert used == [learned_scorer(lang)]
    assert learned_scorer("zh") != learned_scorer("en")
    assert learned_scorer("zh").weights["asked_or_replied"] < 0
    assert learned_scorer("en").weights.get("asked_or_replied", 0) == 0
