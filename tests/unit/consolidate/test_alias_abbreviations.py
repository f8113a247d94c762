"""Short forms that are not the exact capitals of a name: initials scored by the Schwartz & Hearst
rule (letters in order, the first opening the name; most letters on word starts wins), pinyin
initials and ordered short forms of Chinese names, the short forms and descriptions a text
introduces. Made-up names; every rule with a look-alike that must not resolve."""

from __future__ import annotations

import pytest

from simplemem_graph.consolidate.aliases import (
    abbreviation_score,
    appositive_descriptions,
    best_abbreviated,
    find_explicit_aliases,
    introduced_forms,
    is_abbreviation,
    is_zh_short_form,
)
from simplemem_graph.consolidate.entity_index import EntityIndex
from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Entity

from .conftest import NS, entity_named, mentioned


@pytest.mark.parametrize(
    ("short", "full", "score"),
    [
        ("DMK", "Dunmore Kitchens", 2),  # D and K open words, m inside Dunmore
        ("DMK", "Dunmor Workshops", 1),  # the look-alike: only D opens a word (k inside Workshops)
        ("DK", "Dunmore Kitchens", 2),
        ("DO", "Dunmore Kitchens", 0),  # Kitchens holds none of the letters
        ("KMD", "Dunmore Kitchens", 0),  # the first letter must open the name
        ("BM", "Brackenfield Marine Services", 0),  # a word left out
        ("MCW", "沐川文理学院", 3),  # pinyin initials of 沐川文
        ("MC", "沐川文理学院", 2),
        ("MW", "沐川文理学院", 0),  # initials of a run of syllables, never a skip
        ("MCW", "沐泉实验中学", 0),
    ],
)
def test_abbreviation_score_counts_letters_on_word_starts(short, full, score):
    assert abbreviation_score(short, full) == score


def test_the_best_scored_name_wins_and_a_tie_resolves_to_nothing():
    names = [("Dunmore Kitchens", "a"), ("Dunmor Workshops", "b")]
    assert best_abbreviated("DMK", names) == "a"
    assert best_abbreviated("DMK", [("Dunmor Workshops", "b")]) is None  # one letter on a word start
    # Two firms whose names read the same in pinyin initials: nobody's, unless a statement backs it.
    twins = [("岚骋物流", "a"), ("岚程建设", "b")]
    assert best_abbreviated("LC", twins) is None
    assert best_abbreviated("LC", twins[:1]) == "a"
    assert is_abbreviation("DMK", "Dunmore Kitchens") and not is_abbreviation("DMK", "Dunmor Workshops")


@pytest.mark.parametrize(
    ("short", "full", "expected"),
    [
        ("沐文", "沐川文理学院", True),  # in order, opening with the trade name's first character
        ("沐川", "沐川文理学院", True),
        ("沐文", "沐泉实验中学", False),  # no 文 in the look-alike
        ("文理", "沐川文理学院", False),  # does not open the name
        ("学院", "沐川文理学院", False),  # a kind of organisation, never one
        ("沐理院", "张沐理", False),  # a person's name is no organisation
    ],
)
def test_chinese_short_form_is_an_ordered_subsequence_from_the_trade_name(short, full, expected):
    assert is_zh_short_form(short, full) is expected


@pytest.mark.parametrize(
    ("text", "forms"),
    [
        ("their invoices all say KSV so that's what I'm calling them", ["KSV"]),
        (
            "gonna call them KFS from now on. or the canal-side depot people, whatever",
            ["KFS", "the canal-side depot people"],
        ),
        ("名字太长了 以后群里就写MCW 或者沐文", ["MCW", "沐文"]),
        ("I called them yesterday about the PO", []),  # a phone call, not a name
        ("PO 118 raised for KSV", []),  # no naming statement
    ],
)
def test_naming_statements_introduce_forms(text, forms):
    assert introduced_forms(text) == forms


def test_a_description_set_beside_an_organisation_name():
    text = "new client Marlow Quay Freight, the bonded warehouse by the ring road. they want 6"
    assert appositive_descriptions(text, "Marlow Quay Freight") == ["the bonded warehouse by the ring road"]
    assert appositive_descriptions("新客户沐川文理学院，河东那所学校，要做画册", "沐川文理学院") == [
        "河东那所学校",
        "河东那所",
    ]
    # What follows is no description: a verb phrase, a demonstrative opening the clause.
    assert appositive_descriptions("Marlow Quay Freight, want 6 drivers", "Marlow Quay Freight") == []
    # What it is to us, which many firms are, picks none out.
    assert appositive_descriptions("Marlow Quay Freight, the new client.", "Marlow Quay Freight") == []
    assert appositive_descriptions("沐川文理学院，那家说要改时间", "沐川文理学院") == []


@pytest.mark.parametrize(
    ("text", "name", "descriptions"),
    [
        # past a legal form written after the name the store holds
        (
            "won the job for Tarrawong Bottling Co (Pty) Ltd, the Mudgee cider mob. kickoff Tue",
            "Tarrawong Bottling Co",
            ["the Mudgee cider mob"],
        ),
        (
            "Velmor Tiles Pte. Ltd. — the Changi tile wholesaler — wants 3 quotes",
            "Velmor Tiles",
            ["the Changi tile wholesaler"],
        ),
        # "aka", in whatever case the turn writes the name
        (
            "new one: quillan outdoor trust, inc. aka the riverside scout folks (camp kitchen)",
            "Quillan Outdoor Trust, Inc.",
            ["the riverside scout folks"],
        ),
        # Chinese after 就是: the whole phrase and the form that stops at the classifier
        (
            "接了个单 杭州鹤川纺织有限公司，就是萧山那家织布厂，要200件",
            "杭州鹤川纺织有限公司",
            ["萧山那家织布厂", "萧山那家"],
        ),
        # a description ending at its classifier; traditional and Cantonese demonstratives
        ("上海禾露生物科技有限公司，做面膜那家，双12要包场", "上海禾露生物科技有限公司", ["做面膜那家"]),
        (
            "開咗張新單 觀瀾物業管理有限公司，荃灣嗰間物業，要做指示牌",
            "觀瀾物業管理有限公司",
            ["荃灣嗰間物業", "荃灣嗰間"],
        ),
        # a dash that opens a clause, and a clause after a comma, describe no firm
        ("Corvell — the guy there is Wade, did the site walk", "Corvell", []),
        ("Corvell Civil, the crew that was late again", "Corvell Civil", []),
        # a Latin place before the demonstrative
        (
            "Harlow Cargo Pte. Ltd., Tuas 那间货仓 — whole unit to fit out",
            "Harlow Cargo",
            ["Tuas 那间货仓", "Tuas 那间"],
        ),
    ],
)
def test_descriptions_after_a_legal_form_aka_and_in_chinese(text, name, descriptions):
    assert appositive_descriptions(text, name) == descriptions


def test_abbreviation_candidates_are_read_by_first_letter_not_by_scanning():
    index = EntityIndex(NS)
    for name in ("Dunmore Kitchens", "Zeller Freight", "沐川文理学院", "岚骋物流"):
        index.put(Entity(id=entity_id(NS, name), namespace=NS, name=name, type="org"))
    assert [e.name for e in index.abbreviation_candidates("DMK")] == ["Dunmore Kitchens"]
    assert [e.name for e in index.abbreviation_candidates("MCW")] == ["沐川文理学院"]
    assert [e.name for e in index.abbreviation_candidates("沐文")] == ["沐川文理学院"]
    assert index.abbreviation_candidates("QX") == []


def test_initials_resolve_to_the_name_they_fit_best_not_the_look_alike(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Dunmore Kitchens signed for 4 fitters",
                "2026-03-02T10:00:00",
                orgs=("Dunmore Kitchens",),
            ),
            make_event(
                "e2", "Dunmor Workshops want 2 drivers", "2026-03-02T11:00:00", orgs=("Dunmor Workshops",)
            ),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "e3", "DMK moved the start to Monday", "2026-03-04T10:00:00", session="s2", orgs=("DMK",)
            )
        ],
        store,
        embedder=embedder,
    )
    assert mentioned(store, "e3") == {"Dunmore Kitchens"}
    assert entity_named(store, "Dunmor Workshops").aliases == []


@pytest.mark.parametrize(
    "statement",
    [
        "岚骋两个字打着累 以后群里就写LC",  # the statement names the firm
        "名字打着累 以后群里就写LC",  # it does not: the firm its session named
    ],
)
def test_pinyin_initials_two_firms_share_resolve_only_through_a_naming_statement(
    store, make_event, embedder, statement
):
    consolidate_batch(
        [
            make_event("e1", "岚程建设报了价", "2026-03-02T09:00:00", orgs=("岚程建设",)),
            make_event(
                "e2", "新客户岚骋物流，仓库搬迁", "2026-03-02T10:00:00", session="s2", orgs=("岚骋物流",)
            ),
            make_event("e3", statement, "2026-03-02T10:30:00", session="s2"),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e4", "LC的合同签了", "2026-03-05T10:00:00", session="s3")],
        store,
        embedder=embedder,
    )
    assert "LC" in entity_named(store, "岚骋物流").aliases
    assert mentioned(store, "e4") == {"岚骋物流"}
    assert entity_named(store, "岚程建设").aliases == []


def test_pinyin_initials_two_firms_share_without_a_statement_stay_unresolved(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("e1", "岚程建设报了价", "2026-03-02T09:00:00", orgs=("岚程建设",)),
            make_event("e2", "岚骋物流要搬仓库", "2026-03-02T10:00:00", orgs=("岚骋物流",)),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e3", "LC的合同签了", "2026-03-05T10:00:00", session="s2")],
        store,
        embedder=embedder,
    )
    assert mentioned(store, "e3") == set()
    assert entity_named(store, "岚骋物流").aliases == [] and entity_named(store, "岚程建设").aliases == []


def test_a_statement_without_a_name_binds_to_what_the_session_named(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("e1", "沐川文理学院要做校庆画册", "2026-03-02T10:00:00", orgs=("沐川文理学院",)),
            make_event(
                "e2", "沐泉实验中学也来问号码布", "2026-03-02T10:10:00", session="s0", orgs=("沐泉实验中学",)
            ),
            make_event("e3", "名字太长了 以后群里就写MCW 或者沐文", "2026-03-02T10:30:00"),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event("e4", "MCW的画册印好了", "2026-03-06T10:00:00", session="s2"),
            make_event("e5", "沐文那边说下周验收", "2026-03-06T11:00:00", session="s2", orgs=("沐文",)),
        ],
        store,
        embedder=embedder,
    )
    school = entity_named(store, "沐川文理学院")
    assert {"MCW", "沐文"} <= set(school.aliases)
    assert mentioned(store, "e4") == {"沐川文理学院"} and mentioned(store, "e5") == {"沐川文理学院"}
    assert entity_named(store, "沐泉实验中学").aliases == []


def test_an_introduced_description_names_the_firm_later(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "new client Marlow Quay Freight, the bonded warehouse by the ring road. they want 6",
                "2026-03-02T10:00:00",
                orgs=("Marlow Quay Freight",),
            ),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "e2", "the bonded warehouse by the ring road paid today", "2026-03-09T10:00:00", session="s2"
            )
        ],
        store,
        embedder=embedder,
    )
    assert "the bonded warehouse by the ring road" in entity_named(store, "Marlow Quay Freight").aliases
    assert mentioned(store, "e2") == {"Marlow Quay Freight"}


@pytest.mark.parametrize(
    "name", ["Okeke Trust Microfinance Bank Limited", "Okeke Trust Microfinance Bank Limited."]
)
def test_initials_in_brackets_after_a_name_with_its_legal_form(name):
    """ "Okeke Trust Microfinance Bank Limited (OTMFB)": the initials are those of the name before
    its legal form (MFB, microfinance bank), and the name stage 1 read may keep a sentence's full
    stop. Before, no alias was made and the look-alike "Okeke Capital Microfinance Bank" took the
    initials by letters alone (stop 49, a held-out story)."""
    text = "Head, Digital Channels\nOkeke Trust Microfinance Bank Limited (OTMFB)\n14 Marina Road"
    found = find_explicit_aliases(text, [(name, "org")])
    assert [(f.full.rstrip("."), f.alias, f.reason) for f in found] == [
        ("Okeke Trust Microfinance Bank Limited", "OTMFB", "parenthesis")
    ]
