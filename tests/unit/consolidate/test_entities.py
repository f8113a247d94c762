"""Entity resolution: canonical entities, aliases on strong evidence only, MENTIONS roles, WORKS_AT."""

from __future__ import annotations

from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind
from simplemem_graph.stores.queries import EntityQuery

from .conftest import NS, entity_named, link_props, links_of, mentioned


def test_chinese_short_name_in_parentheses_becomes_alias(store, make_event, embedder):
    first = make_event(
        "e1",
        "深圳市锐拓精密五金有限公司（下面简称锐拓）发来报价",
        "2026-01-08T10:02:00",
        orgs=("深圳市锐拓精密五金有限公司",),
    )
    later = make_event("e2", "锐拓说交期是21天", "2026-01-08T10:20:00")
    delta = consolidate_batch([first, later], store, embedder=embedder)

    company = entity_named(store, "锐拓")
    assert company.name == "深圳市锐拓精密五金有限公司"
    assert company.type == "org"
    assert company.aliases == ["锐拓"]
    assert links_of(store, LinkKind.ALIAS_OF) == {(entity_id(NS, "锐拓"), company.id)}
    assert mentioned(store, "e2") == {"深圳市锐拓精密五金有限公司"}
    assert delta.counts["aliases"] == 1


def test_nickname_called_and_title_forms(store, make_event, embedder):
    events = [
        make_event(
            "e1", "销售总监黄建国，大家都叫他黄工，手机13826617705", "2026-01-08T10:05:00", people=("黄建国",)
        ),
        make_event(
            "e2",
            "佛山宏达五金的罗志强（罗总）说样品今天寄出",
            "2026-01-08T10:20:00",
            people=("罗志强",),
            orgs=("佛山宏达五金",),
        ),
        make_event("e3", "老黄回电话了，不认11天", "2026-01-08T16:20:00"),
    ]
    consolidate_batch(events, store, embedder=embedder)

    huang = entity_named(store, "黄建国")
    assert sorted(huang.aliases) == ["老黄", "黄工"]  # 老黄: same session, only 黄 person known
    luo = entity_named(store, "罗总")
    assert luo.name == "罗志强" and luo.aliases == ["罗总"]
    assert mentioned(store, "e3") == {"黄建国"}
    hongda = entity_named(store, "佛山宏达五金")
    assert (luo.id, hongda.id) in links_of(store, LinkKind.WORKS_AT)


def test_nickname_of_the_only_person_with_that_surname_is_a_low_confidence_alias(store, make_event, embedder):
    consolidate_batch(
        [make_event("e1", "QA 工程师蒋文博入职了", "2026-01-02T09:00:00", session="s1", people=("蒋文博",))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e2", "小蒋下午去测试", "2026-02-02T09:00:00", session="s2", people=("小蒋",))],
        store,
        embedder=embedder,
    )

    jiang = entity_named(store, "蒋文博")
    assert entity_named(store, "小蒋").id == jiang.id and jiang.aliases == ["小蒋"]
    props = link_props(store, LinkKind.ALIAS_OF)[(entity_id(NS, "小蒋"), jiang.id)]
    # No session or employer backs it: inferred from the surname alone, so below the backed 0.9.
    assert props["reason"] == "surname-unique" and props["confidence"] == 0.7
    assert "蒋文博" in props["evidence"]


def test_nickname_shared_by_two_people_stays_unresolved(store, make_event, embedder):
    consolidate_batch(
        [
            make_event("e1", "蒋文博负责测试", "2026-01-02T09:00:00", session="s1", people=("蒋文博",)),
            make_event("e2", "蒋丽负责采购", "2026-01-02T09:05:00", session="s1", people=("蒋丽",)),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [make_event("e3", "小蒋下午去测试", "2026-02-02T09:00:00", session="s2", people=("小蒋",))],
        store,
        embedder=embedder,
    )

    xiao = entity_named(store, "小蒋")
    assert xiao.name == "小蒋"
    assert links_of(store, LinkKind.ALIAS_OF) == set()
    assert links_of(store, LinkKind.CANDIDATE_ALIAS) == {
        (xiao.id, entity_named(store, "蒋文博").id),
        (xiao.id, entity_named(store, "蒋丽").id),
    }


def test_english_short_and_first_names_resolve_to_the_full_name(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Emma Hale of Kingsway Fasteners quoted M3 screws",
                "2026-02-02T09:45:00",
                people=("Emma Hale",),
                orgs=("Kingsway Fasteners",),
            )
        ],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [
            make_event(
                "e2",
                "Emma says the Kingsway shipment left Felixstowe",
                "2026-02-11T17:00:00",
                session="s2",
                people=("Emma",),
                orgs=("Kingsway",),
            )
        ],
        store,
        embedder=embedder,
    )

    emma, kingsway = entity_named(store, "Emma"), entity_named(store, "Kingsway")
    assert (emma.name, emma.aliases) == ("Emma Hale", ["Emma"])
    assert (kingsway.name, kingsway.aliases) == ("Kingsway Fasteners", ["Kingsway"])
    assert mentioned(store, "e2") == {"Emma Hale", "Kingsway Fasteners"}
    assert (emma.id, kingsway.id) in links_of(store, LinkKind.WORKS_AT)
    assert delta.counts["aliases"] == 2 and delta.counts["entities_new"] == 0


def test_look_alike_names_stay_apart(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "深圳市锐拓精密五金有限公司（简称锐拓）报价3.6元",
                "2026-01-08T10:00:00",
                orgs=("深圳市锐拓精密五金有限公司",),
            ),
            make_event(
                "e2",
                "东莞锐丰塑胶制品有限公司报价1.25元",
                "2026-01-08T10:10:00",
                orgs=("东莞锐丰塑胶制品有限公司",),
            ),
            make_event(
                "e3",
                "锐丰那边邱敏也确认了",
                "2026-01-12T10:15:00",
                session="s2",
                orgs=("锐丰",),
                people=("邱敏",),
            ),
        ],
        store,
        embedder=embedder,
    )

    ruifeng = entity_named(store, "锐丰")
    assert ruifeng.name == "东莞锐丰塑胶制品有限公司"
    assert mentioned(store, "e3") == {"东莞锐丰塑胶制品有限公司", "邱敏"}
    assert entity_named(store, "锐拓").aliases == ["锐拓"]


def test_speakers_are_person_entities_and_mentions_carry_roles(store, make_event, embedder):
    event = make_event(
        "e1",
        "蒋文博：宏达的铜柱样品到了，盐雾测试不合格",
        "2026-01-12T14:30:00",
        speaker="蒋文博",
        orgs=("佛山宏达五金",),
    )
    event.participants[0].role = "target"
    consolidate_batch([event], store, embedder=embedder)

    mentions = link_props(store, LinkKind.MENTIONS)
    roles = {
        (e.name, e.type): mentions[("e1", e.id)]["role"]
        for e in store.entities(NS, EntityQuery())
        if ("e1", e.id) in mentions
    }
    assert roles == {("蒋文博", "person"): "speaker", ("佛山宏达五金", "org"): "target"}
    assert entity_named(store, "宏达").name == "佛山宏达五金"  # the trade name in the text is an alias


def test_fuzzy_spelling_is_a_candidate_never_a_merge(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "e1",
                "Globex Corporation sent the invoice",
                "2026-01-02T09:00:00",
                orgs=("Globex Corporation",),
            )
        ],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [make_event("e2", "Globex Corporaton paid", "2026-01-03T09:00:00", orgs=("Globex Corporaton",))],
        store,
        embedder=embedder,
    )

    right, typo = entity_named(store, "Globex Corporation"), entity_named(store, "Globex Corporaton")
    assert right.id != typo.id
    assert links_of(store, LinkKind.CANDIDATE_ALIAS) == {(typo.id, right.id)}
    assert delta.counts["candidate_aliases"] == 1


def test_two_words_opening_a_known_firms_name_are_that_firm(store, make_event, embedder):
    first = make_event(
        "e1",
        "new client Tan Hock Seng Freight Pte. Ltd., office reno at Kallang",
        "2026-05-04T09:00:00",
        orgs=("Tan Hock Seng Freight Pte. Ltd.",),
    )
    # NER read the trade name as a person's
    later = make_event("e2", "Tan Hock sign with them direct", "2026-05-04T09:05:00", people=("Tan Hock",))
    consolidate_batch([first, later], store, embedder=embedder)
    firm = entity_named(store, "Tan Hock")
    assert firm.name == "Tan Hock Seng Freight Pte. Ltd." and firm.type == "org"


def test_one_word_or_a_person_of_no_firm_stays_a_person(store, make_event, embedder):
    firm = "Tan Hock Seng Freight Pte. Ltd."
    first = make_event("e1", f"new client {firm}", "2026-05-04T09:00:00", orgs=(firm,))
    later = make_event("e2", "Lim Wei Ming called back", "2026-05-04T09:05:00", people=("Lim Wei",))
    consolidate_batch([first, later], store, embedder=embedder)
    assert entity_named(store, "Lim Wei").type == "person"
