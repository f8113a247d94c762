"""A small hand-built memory graph in a real EmbeddedStore, embedded with the real default model.

The graph (namespace "t", questions asked at AT = 2026-03-11 10:00 +08:00):

    kickoff   2026-03-02  Ana: Acme Corp moved the kickoff to 2026-03-12   (Ana, Acme Corp)
    cto       2026-03-02  Acme Corp's CTO is travelling until 2026-03-11   (Acme Corp)   CAUSES-> kickoff
    invoice   2026-02-10  Ben paid invoice INV-4471 of 3200 USD to Globex   (Ben, Globex)
    lunch     2026-01-05  Ana had lunch with Carla at Trattoria Roma        (Ana, Carla)
    price_old 2025-10-01  Globex quoted 3.6 USD per bracket (superseded)    (Globex)
    price_new 2026-02-20  Globex raised the bracket price to 3.85 USD       (Globex)  SUPERSEDES-> price_old
    report    2026-03-05  小王 must send the report to 李经理 of 市场部 by 2026-03-10  (小王, 李经理)
    ruituo    2026-03-06  锐拓 quoted QM-220 brackets at 3.6 CNY each        (锐拓, alias 深圳那家)
    standup   2026-03-04  Ana ran the weekly standup and Dev demoed the search page  (Ana, Dev)
NEXT links follow each session: kickoff -> cto, report -> ruituo.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from simplemem_graph.embedding import Embedder, check_store_model, make_embedder
from simplemem_graph.models import Entity, Event, Link, LinkKind, Participant
from simplemem_graph.stores.embedded import EmbeddedStore
from tests.store_writes import write

NS = "t"
CST = timezone(timedelta(hours=8))
AT = datetime(2026, 3, 11, 10, 0, tzinfo=CST)

ENTITIES = [
    Entity(id="ent-ana", namespace=NS, name="Ana", type="person"),
    Entity(id="ent-acme", namespace=NS, name="Acme Corp", type="org", aliases=["Acme"]),
    Entity(id="ent-ben", namespace=NS, name="Ben", type="person"),
    Entity(id="ent-globex", namespace=NS, name="Globex", type="org"),
    Entity(id="ent-carla", namespace=NS, name="Carla", type="person"),
    Entity(id="ent-wang", namespace=NS, name="小王", type="person"),
    Entity(id="ent-li", namespace=NS, name="李经理", type="person"),
    Entity(id="ent-ruituo", namespace=NS, name="锐拓", type="org", aliases=["深圳那家"]),
    Entity(id="ent-dev", namespace=NS, name="Dev", type="person"),
]
_NAMES = {e.id: e.name for e in ENTITIES}

# id, text, session, time, mentions, extra fields
_EVENTS = [
    ("kickoff", "Ana said Acme Corp moved the kickoff meeting to 2026-03-12.", "s3",
     datetime(2026, 3, 2, 9, 0), ["ent-ana", "ent-acme"], {"dates": [date(2026, 3, 12)]}),
    ("cto", "Acme Corp's CTO is travelling until 2026-03-11.", "s3", datetime(2026, 3, 2, 9, 5),
     ["ent-acme"], {"dates": [date(2026, 3, 11)]}),
    ("invoice", "Ben paid invoice INV-4471 of 3200 USD to Globex.", "s2", datetime(2026, 2, 10, 15, 0),
     ["ent-ben", "ent-globex"], {}),
    ("lunch", "Ana had lunch with Carla at Trattoria Roma.", "s1", datetime(2026, 1, 5, 12, 30),
     ["ent-ana", "ent-carla"], {}),
    ("price_old", "Globex quoted 3.6 USD per bracket.", "s0", datetime(2025, 10, 1, 10, 0),
     ["ent-globex"], {"status": "superseded"}),
    ("price_new", "Globex raised the bracket price to 3.85 USD.", "s2", datetime(2026, 2, 20, 11, 0),
     ["ent-globex"], {}),
    ("report", "小王要在2026-03-10之前把数据分析报告发给市场部的李经理。", "s4", datetime(2026, 3, 5, 10, 0),
     ["ent-wang", "ent-li"], {"deadline": date(2026, 3, 10), "lang": "zh"}),
    ("ruituo", "锐拓报价QM-220铝支架含税单价3.6元。", "s4", datetime(2026, 3, 6, 10, 0),
     ["ent-ruituo"], {"lang": "zh"}),
    ("standup", "Ana ran the weekly standup and Dev demoed the search page.", "s5",
     datetime(2026, 3, 4, 9, 30), ["ent-ana", "ent-dev"], {}),
]  # fmt: skip

LINKS = [
    Link(kind=LinkKind.NEXT, source="kickoff", target="cto", namespace=NS, props={"scope": "session:s3"}),
    Link(kind=LinkKind.CAUSES, source="cto", target="kickoff", namespace=NS, props={"marker": "because"}),
    Link(kind=LinkKind.SUPERSEDES, source="price_new", target="price_old", namespace=NS),
    Link(kind=LinkKind.NEXT, source="report", target="ruituo", namespace=NS, props={"scope": "session:s4"}),
]


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default model, loaded once for the whole test session."""
    model = make_embedder()
    model.encode(["warm up"])
    return model


def make_events(embedder) -> list[Event]:
    """The events above, embedded with the real model."""
    vectors = embedder.encode([text for _, text, *_ in _EVENTS])
    events = []
    for (event_id, text, session, when, mentions, extra), vector in zip(_EVENTS, vectors, strict=True):
        events.append(
            Event(
                id=event_id,
                namespace=NS,
                text=text,
                source_ids=[f"{session}:{event_id}"],
                session=session,
                time=when.replace(tzinfo=CST),
                participants=[Participant(name=_NAMES[m], type=_type(m)) for m in mentions],
                embedding=vector.tolist(),
                created_at=datetime(2026, 3, 11, tzinfo=UTC),
                **extra,
            )
        )
    return events


def _type(entity_id: str) -> str:
    return next(e.type for e in ENTITIES if e.id == entity_id)


def build_store(embedder) -> EmbeddedStore:
    store = EmbeddedStore(":memory:")
    check_store_model(store, embedder)  # the store records which model made its vectors
    write(store, events=make_events(embedder))
    write(store, entities=ENTITIES)
    mentions = [
        Link(kind=LinkKind.MENTIONS, source=event_id, target=entity_id, namespace=NS)
        for event_id, _, _, _, entity_ids, _ in _EVENTS
        for entity_id in entity_ids
    ]
    write(store, links=[*mentions, *LINKS])
    return store


@pytest.fixture
def store(embedder):
    """A fresh store per test: some tests touch or archive events."""
    s = build_store(embedder)
    yield s
    s.close()
