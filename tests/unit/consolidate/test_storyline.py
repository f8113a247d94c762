"""Storyline quality: implied subjects, trade names, descriptive references, mid-turn causes, updates.

Small conversations written for these tests (not the dev data); events are built by hand as stage 1
would hand them over, and the raw turns are logged so consolidation can read them.
"""

from __future__ import annotations

from datetime import datetime

from simplemem_graph.consolidate.name_matching import entity_id
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import Atom, LinkKind, Quantity, Turn
from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter

from .conftest import CST, NS, entity_named, link_props, links_of, mentioned

HENGTONG = "苏州市恒通精密机械有限公司"
HUALI = "宁波华力包装有限公司"


def _log(store, *turns: tuple[str, str]) -> None:
    """Log raw turns (id, text) of session s1, one minute apart."""
    store.add_turns(
        [
            Turn(
                id=turn_id,
                namespace=NS,
                session=turn_id.split(":")[0],
                speaker="user",
                time=datetime(2026, 4, 1, 9, i, tzinfo=CST),
                text=text,
            )
            for i, (turn_id, text) in enumerate(turns)
        ]
    )


def _implied(store, event_id: str) -> dict[str, str]:
    """Entity name -> `via` of the implied MENTIONS of one event."""
    names = {e.id: e.name for e in store.entities(NS, EntityQuery())}
    return {
        names[target]: props["via"]
        for (source, target), props in link_props(store, LinkKind.MENTIONS).items()
        if source == event_id and props.get("role") == "implied"
    }


def test_clause_and_session_subjects_are_inherited_until_another_org_is_named(store, make_event, embedder):
    _log(
        store,
        ("s1:1", f"{HENGTONG}发来报价，单价2.40元"),
        ("s1:2", "恒通又发通知了，从5月1日起单价涨到2.60元"),
        ("s1:3", "合同今天下午签"),
        ("s1:4", f"另外{HUALI}的报价也到了"),
        ("s1:5", "交期两周"),
    )
    events = [
        make_event(
            "e1",
            f"{HENGTONG}发来报价，单价2.40元",
            "2026-04-01T09:00:00",
            turn="s1:1",
            orgs=(HENGTONG,),
            money=(2.4,),
        ),
        # stage 1 dropped the clause naming 恒通: the subject comes from the raw turn
        make_event("e2", "从2026-05-01起单价涨到2.60元", "2026-04-01T09:01:00", turn="s1:2", money=(2.6,)),
        # the date stage 1 finds in 今天 is the day it was said: no fact beyond it, and no word shared
        # with the thread, so it is told apart from small talk ("ok 今天就到这") by nothing: not inherited
        make_event("e3", "合同今天下午签", "2026-04-01T09:02:00", turn="s1:3", dates=("2026-04-01",)),
        make_event("e4", f"另外{HUALI}的报价也到了", "2026-04-01T09:03:00", turn="s1:4", orgs=(HUALI,)),
        # with the duration stage 1 finds in 两周
        make_event("e5", "交期两周", "2026-04-01T09:04:00", turn="s1:5").model_copy(
            update={"quantities": [Quantity(value="P2W", surface="两周", kind="duration")]}
        ),
    ]
    delta = consolidate_batch(events, store, embedder=embedder)

    assert _implied(store, "e2") == {HENGTONG: "turn"}
    assert _implied(store, "e3") == {}
    assert _implied(store, "e4") == {} and mentioned(store, "e4") == {HUALI}
    assert _implied(store, "e5") == {HUALI: "session"}
    assert [
        e.id
        for e in store.events(
            NS, EventQuery(entity_ids=[entity_named(store, HENGTONG).id], filter=RecallFilter(None))
        )
    ] == [
        "e1",
        "e2",
    ]
    assert (delta.counts["implied_turn"], delta.counts["implied_session"]) == (1, 1)


def test_the_focus_survives_a_batch_boundary_but_not_a_new_session(store, make_event, embedder):
    # the continuation states a fact (a date other than today), so it is on the thread
    _log(store, ("s1:1", f"{HENGTONG}发来报价"), ("s1:2", "合同下周一签"), ("s2:1", "合同下周一签"))
    consolidate_batch(
        [make_event("e1", f"{HENGTONG}发来报价", "2026-04-01T09:00:00", turn="s1:1", orgs=(HENGTONG,))],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event("e2", "合同下周一签", "2026-04-01T09:01:00", turn="s1:2", dates=("2026-04-06",)),
            make_event(
                "e3",
                "合同下周一签",
                "2026-04-01T09:02:00",
                turn="s2:1",
                session="s2",
                dates=("2026-04-06",),
            ),
        ],
        store,
        embedder=embedder,
    )
    assert _implied(store, "e2") == {HENGTONG: "session"}
    assert _implied(store, "e3") == {}


def test_employer_and_pronoun_subjects_in_english(store, make_event, embedder):
    _log(
        store,
        ("s1:1", "Lena Park of Northbridge Components sent the quote."),
        ("s1:2", "Lena Park called back this morning."),
        ("s1:3", "She said the pallets leave on Friday."),
    )
    events = [
        make_event(
            "e1",
            "Lena Park of Northbridge Components sent the quote.",
            "2026-04-01T09:00:00",
            turn="s1:1",
            people=("Lena Park",),
            orgs=("Northbridge Components",),
        ),
        make_event(
            "e2",
            "Lena Park called back this morning.",
            "2026-04-01T15:00:00",
            turn="s1:2",
            people=("Lena Park",),
        ),
        # with the date stage 1 reads in "on Friday"
        make_event(
            "e3",
            "She said the pallets leave on Friday.",
            "2026-04-01T15:01:00",
            turn="s1:3",
            dates=("2026-04-03",),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)

    assert _implied(store, "e2") == {"Northbridge Components": "employer"}
    assert _implied(store, "e3") == {"Lena Park": "pronoun", "Northbridge Components": "session"}


def test_trade_names_and_first_names_become_aliases_once_the_full_name_is_known(store, make_event, embedder):
    events = [
        make_event(
            "e1",
            f"{HENGTONG}和Northbridge Components的Lena Park都报了价",
            "2026-04-01T09:00:00",
            orgs=(HENGTONG, "Northbridge Components"),
            people=("Lena Park",),
        ),
        make_event("e2", "恒通说交期30天，Northbridge那边Lena说要等海运", "2026-04-01T09:05:00"),
    ]
    consolidate_batch(events, store, embedder=embedder)

    assert entity_named(store, "恒通").name == HENGTONG
    assert entity_named(store, "Northbridge").name == "Northbridge Components"
    assert entity_named(store, "Lena").name == "Lena Park"
    reasons = {props["reason"] for props in link_props(store, LinkKind.ALIAS_OF).values()}
    assert reasons == {"short-name"}
    assert mentioned(store, "e2") == {HENGTONG, "Northbridge Components", "Lena Park"}


def test_descriptive_reference_resolves_to_the_one_org_of_that_place(store, make_event, embedder):
    events = [
        make_event("e1", f"{HENGTONG}发来报价", "2026-04-01T09:00:00", orgs=(HENGTONG,)),
        make_event("e2", f"{HUALI}的报价也到了", "2026-04-01T09:01:00", orgs=(HUALI,)),
        make_event("e3", "苏州那家的第二批抽检有30件不合格", "2026-04-01T09:02:00"),
    ]
    consolidate_batch(events, store, embedder=embedder)

    company = entity_named(store, "苏州那家")
    assert company.name == HENGTONG and "苏州那家" in company.aliases
    props = link_props(store, LinkKind.ALIAS_OF)[(entity_id(NS, "苏州那家"), company.id)]
    assert props["reason"] == "description" and 0 < props["confidence"] < 1
    assert "苏州" in props["evidence"]
    assert mentioned(store, "e3") == {HENGTONG}


def test_descriptive_reference_with_two_fitting_orgs_is_only_a_candidate(store, make_event, embedder):
    other = "苏州市远帆塑胶制品有限公司"
    events = [
        make_event("e1", f"{HENGTONG}发来报价", "2026-04-01T09:00:00", orgs=(HENGTONG,)),
        make_event("e2", f"{other}也发来报价", "2026-04-01T09:01:00", orgs=(other,)),
        make_event("e3", "苏州那家的第二批抽检有30件不合格", "2026-04-01T09:02:00"),
    ]
    consolidate_batch(events, store, embedder=embedder)

    assert "description" not in {p["reason"] for p in link_props(store, LinkKind.ALIAS_OF).values()}
    names = {e.id: e.name for e in store.entities(NS, EntityQuery())}
    candidates = {
        (names[s], names[t]) for s, t in links_of(store, LinkKind.CANDIDATE_ALIAS) if names[s] == "苏州那家"
    }
    assert candidates == {("苏州那家", HENGTONG), ("苏州那家", other)}


def test_mid_turn_effect_clause_is_caused_by_the_clause_before(store, make_event, embedder):
    events = [
        make_event("e1", "恒通2026-03-27已经发货了", "2026-04-01T09:00:00", turn="s1:1"),
        make_event("e2", "结果物流在路上丢了两箱", "2026-04-01T09:00:00", turn="s1:1"),
    ]
    consolidate_batch(events, store, embedder=embedder)
    assert link_props(store, LinkKind.CAUSES) == {("e1", "e2"): {"marker": "结果", "scope": "turn"}}


def test_explicit_update_restating_the_old_value_supersedes_that_event(store, make_event, embedder):
    events = [
        make_event(
            "e1",
            f"{HENGTONG}第二批单价3.85元，交期5月6日",
            "2026-04-01T09:00:00",
            orgs=(HENGTONG,),
            money=(3.85,),
        ),
        make_event("e2", "违约金按每天200元算", "2026-04-01T09:01:00", money=(200.0,)),
        make_event(
            "e3", "恒通同意第二批单价从3.85降到3.65", "2026-04-08T09:00:00", session="s2", money=(3.85, 3.65)
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)

    assert link_props(store, LinkKind.SUPERSEDES) == {
        ("e3", "e1"): {"attribute": "money", "old": [], "new": ["3.65"], "marker": "降到"}
    }
    assert {e.id: e.status for e in store.events(NS, EventQuery())}["e1"] == "superseded"


def test_a_disputed_figure_is_a_contradiction_and_a_follow_up_is_not(store, make_event, embedder):
    events = [
        make_event(
            "e1",
            f"{HENGTONG}延期11天，违约金2117.5元",
            "2026-04-01T09:00:00",
            orgs=(HENGTONG,),
            money=(2117.5,),
        ),
        make_event(
            "e2",
            "恒通不认11天，只认7个工作日，也就是1347.5元",
            "2026-04-01T16:00:00",
            money=(1347.5,),
            negated=True,
            atoms=[Atom(kind="negation", surface="不", value="neg")],
        ),
        make_event(
            "e3",
            "恒通确认违约金2117.5元，另加运费300元",
            "2026-04-02T10:00:00",
            session="s2",
            money=(2117.5, 300.0),
        ),
    ]
    consolidate_batch(events, store, embedder=embedder)

    conflicts = link_props(store, LinkKind.CONTRADICTS)
    assert set(conflicts) == {("e2", "e1")}
    assert conflicts[("e2", "e1")]["attribute"] == "money"
    assert links_of(store, LinkKind.SUPERSEDES) == set()
