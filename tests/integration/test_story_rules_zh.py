"""Chinese client stories end to end on the embedded store, with made-up names in the register of a
WeChat work log: the client's boss by surname and title after "他们<title>", its staff by given name
alone with a role in apposition, a supplier the client signed itself ("自己签了家…叫X"), a turn that
points back with 他们, and value changes written as a note's arrow or "又提前了"."""

from datetime import datetime, timedelta, timezone

import pytest

from simplemem_graph import Memory
from simplemem_graph.models import LinkKind, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EntityQuery, EventQuery

TZ = timezone(timedelta(hours=8))
NS = "story-zh"


@pytest.fixture
def memory(embedder):
    mem = Memory(EmbeddedStore(":memory:"), namespace=NS, embedder=embedder)
    yield mem
    mem.close()


def _turns(rows):
    return [
        Turn(id=f"{s}:{i}", namespace=NS, session=s, speaker=who, time=datetime.fromisoformat(t), text=x)
        for i, (s, t, who, x) in enumerate(rows, 1)
    ]


_STORY = [
    ("s1", "2026-05-04T09:00:00+08:00", "user", "新客户：澜序建筑设计事务所，做他们的展板和画册"),
    ("s1", "2026-05-04T09:01:00+08:00", "assistant", "记下了：澜序建筑设计事务所。他们那边谁负责？"),
    ("s1", "2026-05-04T09:03:00+08:00", "user", "拍板的是他们总监，姓温，大家都叫温总监"),
    ("s1", "2026-05-04T09:05:00+08:00", "user", "日常对接找若溪，项目助理，人很靠谱"),
    ("s1", "2026-05-04T09:08:00+08:00", "user", "展板40张，报价1.6万，5月20号交货"),
    ("s1", "2026-05-04T09:20:00+08:00", "user", "有个麻烦，事务所自己签了家打样公司叫墨川快印，打样他们出"),
    ("s1", "2026-05-04T09:40:00+08:00", "user", "楼下奶茶店开了 好喝"),
    ("s2", "2026-05-08T10:00:00+08:00", "user", "若溪说展板加到50张"),
    ("s2", "2026-05-08T10:02:00+08:00", "assistant", "已更新：展板40张 → 50张；报价1.6万 → 2万。"),
    ("s3", "2026-05-12T10:00:00+08:00", "user", "又提前了 温总监说18号必须交"),
]


def _ties(memory) -> set[tuple[str, str]]:
    names = {e.id: e.name for e in memory.store.entities(NS, EntityQuery())}
    return {
        (names.get(lk.source, lk.source), names.get(lk.target, lk.target))
        for lk in memory.store.links(NS, kinds=[LinkKind.WORKS_AT])
    }


def test_people_by_title_and_by_given_name_and_the_clients_own_supplier_are_tied(memory):
    memory.add_many(_turns(_STORY))
    memory.consolidate(now=datetime.fromisoformat("2026-05-13T09:00:00+08:00"))
    client = "澜序建筑设计事务所"
    ties = _ties(memory)
    assert ("温总监", client) in ties, ties  # 他们总监 … 温总监
    assert ("若溪", client) in ties, ties  # 若溪，项目助理: a given name alone, a role in apposition
    assert any(src.startswith("墨川") and dst == client for src, dst in ties), ties
    texts = [h.event.text for h in memory.timeline(client)]
    assert any("若溪说展板加到50张" in t for t in texts), texts  # her turn joins the story
    assert any("墨川快印" in t for t in texts), texts
    assert not any("奶茶" in t for t in texts), texts


def test_an_arrow_and_moved_again_chain_the_values(memory):
    memory.add_many(_turns(_STORY))
    memory.consolidate(now=datetime.fromisoformat("2026-05-13T09:00:00+08:00"))
    events = {e.id: e for e in memory.store.events(NS, EventQuery())}
    links = [
        (events[lk.source].text, events[lk.target].text, lk.props.get("attribute"))
        for lk in memory.store.links(NS, kinds=[LinkKind.SUPERSEDES])
        if lk.source in events and lk.target in events
    ]
    assert any("→" in new and "1.6万" in old for new, old, _ in links), links
    assert any("18号" in new and "5月20号" in old and a == "date" for new, old, a in links), links


def test_a_given_name_is_not_read_into_a_trade_name_or_a_predicate():
    from simplemem_graph.compress.names_zh import find_names_zh

    assert [(m.kind, m.value) for m in find_names_zh("若溪说明天到")] == [("person", "若溪")]
    assert ("org", "云岫教育") in [(m.kind, m.value) for m in find_names_zh("云岫教育有个新联系人")]
    assert not any(m.value == "云岫" and m.kind == "person" for m in find_names_zh("云岫教育有个新联系人"))
    # a degree adverb makes what follows a predicate, never a firm ("人挺客气")
    assert not [m for m in find_names_zh("老尹对接，人挺客气") if m.kind == "org"]


def test_a_kind_of_firm_after_a_measure_word_is_no_name():
    from simplemem_graph.compress.names_zh import find_names_zh

    assert [(m.kind, m.value) for m in find_names_zh("事务所自己签了家打样公司叫墨川快印")] == [
        ("org", "墨川快印")
    ]
    assert not find_names_zh("找了一家物流公司")
    # a trade name the dictionary holds as a proper noun stays a firm after a measure word
    assert ("org", "恒通公司") in [(m.kind, m.value) for m in find_names_zh("两家恒通公司")]
