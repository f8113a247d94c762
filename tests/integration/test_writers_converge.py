"""Writers converge exactly: after the global pass, the graph does not depend on the order in which
batches of turns arrived (several writers, a log imported late), on both stores.

The same sessions are ingested twice, one batch per session, in time order and in another order,
with the real default embedder; after the global pass the two graphs must be equal link for link:
every entity (name, type, aliases), every event (text, status, valid_to, open questions) and every
link of every kind, properties included, topics by id.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.embedding import DIMENSION_KEY, MODEL_KEY
from simplemem_graph.loaders import load_locomo
from simplemem_graph.memory import Memory
from simplemem_graph.models import GraphDelta, Turn
from simplemem_graph.stores.embedded import EmbeddedStore
from simplemem_graph.stores.queries import EntityQuery, EventQuery
from tests.shared_data import LOCOMO_DEV

GLOBAL_PASS_AT = datetime(2027, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def fresh_store(request, tmp_path):
    """`fresh_store()` gives an empty place to write: a new embedded file, or the one Neo4j store
    (its namespace is deleted between the two runs and at the end)."""
    if request.param == "embedded":
        opened = []

        def new_file():
            opened.append(EmbeddedStore(str(tmp_path / f"run{len(opened)}.db")))
            return opened[-1]

        yield new_file
        for store in opened:
            store.close()
    else:
        # The server is shared with tests that embed with other models, and a store holds one
        # model's vectors: it records this test's model for the test's duration.
        store, embedder = request.getfixturevalue("neo4j_store"), request.getfixturevalue("embedder")
        before = {key: store.get_meta(key) for key in (MODEL_KEY, DIMENSION_KEY)}
        store.apply_delta(GraphDelta(meta={MODEL_KEY: embedder.name}))
        store.apply_delta(GraphDelta(meta={DIMENSION_KEY: str(embedder.dimension)}))
        yield lambda: store
        for key, value in before.items():
            store.apply_delta(
                GraphDelta(deleted_meta=[key]) if value is None else GraphDelta(meta={key: value})
            )


def _graph_after(
    store, namespace: str, batches: list[list[Turn]], embedder, *, passes: int = 1
) -> dict[str, list]:
    """Ingest the batches in the order given (each one logged and consolidated on its own, as a
    writer's batch arrives), run the global pass (`passes` times), and return everything the
    namespace holds."""
    memory = Memory(store, namespace=namespace, embedder=embedder)
    for batch in batches:
        memory.add_many(batch, batch_size=len(batch))
    for _ in range(passes):
        memory.consolidate(now=GLOBAL_PASS_AT)
    try:
        return {
            "entities": sorted(
                (e.id, e.name, e.type, tuple(sorted(e.aliases)))
                for e in store.entities(namespace, EntityQuery())
            ),
            "events": sorted(
                (e.id, e.text, str(e.status), str(e.valid_to), tuple(e.open_slots))
                for e in store.events(namespace, EventQuery())
            ),
            "links": sorted(
                (lk.kind.value, lk.source, lk.target, json.dumps(lk.props, sort_keys=True, default=str))
                for lk in store.links(namespace)
            ),
        }
    finally:
        store.delete_namespace(namespace)


def _assert_same_graph(got: dict[str, list], expected: dict[str, list]) -> None:
    assert got["entities"] == expected["entities"]
    assert got["events"] == expected["events"]
    kinds = sorted({link[0] for link in got["links"] + expected["links"]})
    for kind in kinds:  # kind by kind, so a failure names the kind
        assert [lk for lk in got["links"] if lk[0] == kind] == [
            lk for lk in expected["links"] if lk[0] == kind
        ], kind


def _turn(session: str, when: datetime, speaker: str, text: str, n: int) -> Turn:
    return Turn(id=f"{session}:{n}", session=session, speaker=speaker, time=when, text=text)


def test_a_name_typed_differently_by_two_sessions_gets_one_type_whatever_arrives_first(fresh_store, embedder):
    # Stage 1 reads "Jordan" as a person in the first session and as a place in the second, and
    # "Amazon" as a firm, then a place: ingest keeps the type of whichever it saw first.
    first, second = datetime(2026, 3, 2, 9, 0, tzinfo=UTC), datetime(2026, 3, 9, 9, 0, tzinfo=UTC)
    s1 = [
        _turn("s1", first, "Ana", "I met Jordan at the cafe yesterday and we talked for hours.", 1),
        _turn("s1", first + timedelta(minutes=1), "Bo", "Jordan said the budget is fine.", 2),
        _turn("s1", first + timedelta(minutes=2), "Ana", "Amazon sent me the package yesterday.", 3),
    ]
    s2 = [
        _turn("s2", second, "Ana", "We flew to Jordan last spring and loved the desert.", 1),
        _turn("s2", second + timedelta(minutes=1), "Bo", "We hiked along the Amazon river for days.", 2),
    ]
    namespace = f"converge-{uuid.uuid4().hex[:8]}"
    in_time_order = _graph_after(fresh_store(), namespace, [s1, s2], embedder)
    late_first = _graph_after(fresh_store(), namespace, [s2, s1], embedder)

    types = {name: type_ for _id, name, type_, _aliases in in_time_order["entities"]}
    assert types["Jordan"] == "person" and types["Amazon"] == "org"  # as first said, in time order
    _assert_same_graph(late_first, in_time_order)


@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev data not available")
def test_a_real_conversation_ingested_in_another_session_order_leaves_the_same_graph(fresh_store, embedder):
    turns = load_locomo(LOCOMO_DEV, sample="conv-26")["conv-26"]
    # Four sessions (97 turns): in 10 a pride parade that 11 revises the date of, in 12 "the Pride
    # fest" (read as an organisation), in 14 "Pride Month" (read as a person). In time order "Pride"
    # is its own organisation and 11's event SUPERSEDES 10's; in reverse, "Pride" became a
    # first-name alias of the person "Pride Month", and 10's event arrived after 11's.
    sessions = [f"conv-26:session_{n}" for n in (10, 11, 12, 14)]
    batches = [[t for t in turns if t.session == s] for s in sessions]
    namespace = f"converge-{uuid.uuid4().hex[:8]}"
    in_time_order = _graph_after(fresh_store(), namespace, batches, embedder)
    # The last session first, then the others, as a writer logging late leaves them; and a second
    # global pass changes nothing.
    arrived = _graph_after(fresh_store(), namespace, batches[::-1], embedder, passes=2)

    assert len(in_time_order["events"]) > 60 and len(in_time_order["entities"]) > 3
    _assert_same_graph(arrived, in_time_order)
