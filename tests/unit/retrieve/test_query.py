"""Query analysis against a real store: names, aliases, fuzzy spellings, references, time range."""

import random
from datetime import date

import pytest

from simplemem_graph.retrieve.query import analyze_query
from tests.store_writes import write

from .conftest import AT, NS


def names(entities):
    return sorted(e.name for e in entities)


def test_finds_names_and_aliases(store):
    analysis = analyze_query("When is the Acme kickoff with Ana?", store, namespace=NS, at=AT)
    assert names(analysis.entities) == ["Acme Corp", "Ana"]
    assert analysis.surfaces["ent-acme"] == "Acme"


def test_possessive_and_fuzzy_spelling(store):
    analysis = analyze_query("What did Globexx's team quote?", store, namespace=NS, at=AT)
    assert names(analysis.entities) == ["Globex"]


def test_chinese_names_and_aliases_inside_the_sentence(store):
    analysis = analyze_query("深圳那家的报价是多少？李经理知道吗", store, namespace=NS, at=AT)
    assert names(analysis.entities) == ["李经理", "锐拓"]
    assert analysis.lang == "zh"


def test_common_words_are_not_entities(store):
    analysis = analyze_query("what did the team demo at the standup", store, namespace=NS, at=AT)
    assert analysis.entities == []


def test_reference_resolves_to_most_recent_entity_of_its_type(store):
    # The most recent org mentioned before AT is 锐拓 (2026-03-06), not Acme Corp (2026-03-02).
    analysis = analyze_query("what price did that supplier quote?", store, namespace=NS, at=AT)
    assert analysis.entities == []
    assert names(analysis.references) == ["锐拓"]
    assert analysis.surfaces["ent-ruituo"] == "that supplier"


def test_reference_prefers_the_session(store):
    analysis = analyze_query("what did that client change?", store, namespace=NS, at=AT, session="s3")
    assert names(analysis.references) == ["Acme Corp"]


def test_reference_not_resolved_when_the_query_names_one(store):
    analysis = analyze_query("did Ana say when he is back?", store, namespace=NS, at=AT)
    assert names(analysis.entities) == ["Ana"]
    assert analysis.references == []


def test_focus_is_what_was_recent_at_question_time(store):
    # Asked on 2026-02-21, the latest org is Globex (2026-02-20): later events do not exist yet.
    asked = AT.replace(month=2, day=21)
    analysis = analyze_query("那家公司后来怎么样了", store, namespace=NS, at=asked)
    assert names(analysis.references) == ["Globex"]


def test_time_range_and_tokens(store):
    analysis = analyze_query("What did Ana do last week?", store, namespace=NS, at=AT)
    assert (analysis.time_range.start, analysis.time_range.end) == (date(2026, 3, 2), date(2026, 3, 8))
    assert "ana" in analysis.tokens and "what" not in analysis.tokens
    assert analysis.as_dict()["time_range"] == {
        "from": "2026-03-02",
        "to": "2026-03-08",
        "surface": "last week",
    }


def _random_cjk(rng, length):
    return "".join(rng.choice("岚茗烁琪璐珂瑶翎骁澜昕锦湘黛珀蔚霁汐榕樾") for _ in range(length))


@pytest.mark.parametrize("seed", range(4))
def test_a_chinese_name_written_short_is_found(store, seed):
    """肖玉 for 肖玉嘉, 乐光鞋 for 乐光跑鞋: the name's first character, its order, 2/3 of it. A short
    form two names share, or one that keeps too little, names nobody. Names are random."""
    from simplemem_graph.models import Entity

    rng = random.Random(seed)
    person = "肖" + _random_cjk(rng, 2)
    item = _random_cjk(rng, 2) + "跑鞋"
    shared = "顾" + _random_cjk(rng, 1)
    twins = [shared + c for c in "甲乙"]
    write(
        store,
        entities=[
            Entity(id="p", namespace=NS, name=person, type="person"),
            Entity(id="i", namespace=NS, name=item, type="product"),
            *[Entity(id=f"t{i}", namespace=NS, name=n, type="person") for i, n in enumerate(twins)],
        ],
    )

    def found(query):
        return names(analyze_query(query, store, namespace=NS, at=AT).entities)

    assert found(f"上次跟{person[:2]}吃饭是在哪来着") == [person]
    assert found(f"诶{item[:2]}鞋多少钱买的") == [item]
    assert found(f"上次跟{twins[0][:2]}吃饭是在哪") == []  # 顾x is both twins
    assert found(f"上次跟{item[0]}吃饭了吗") == []  # one character of four
