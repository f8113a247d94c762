"""Every step of the global pass computes a delta and writes it in one `apply_delta`: a crash
leaves each step applied whole or not at all (the kill -9 test in tests/integration runs this
against real processes; this one names the step that would write twice)."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime

from simplemem_graph.config import DecayPolicy
from simplemem_graph.consolidate import consolidate_pass, global_pass
from simplemem_graph.consolidate.global_pass import plan_aliases, plan_decay, plan_duplicates
from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import EventPatch, EventStatus, GraphDelta
from simplemem_graph.stores.queries import EventVectors
from tests.durability_support import GRAPH_WRITES
from tests.store_writes import write

from .conftest import CST, NS

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=CST)
STEPS = 9  # duplicates, entities, aliases, implied, updates, chains, topics, decay, patterns


def _record_writes(store) -> list[str]:
    writes: list[str] = []
    for name in GRAPH_WRITES:
        original = getattr(store, name)

        def write(*args, _name=name, _original=original, **kwargs):
            writes.append(_name)
            return _original(*args, **kwargs)

        setattr(store, name, write)
    return writes


def _two_sessions(store, make_event, embedder) -> None:
    """A copy of a statement in a later session (a duplicate to merge), an old done task (to
    archive), and a retrieved event (accesses the merge must carry)."""
    consolidate_batch(
        [
            make_event("d1", "Kingsway shipped the M3 screws", "2026-02-20T10:00:00", orgs=("Kingsway",)),
            make_event("t1", "Send the Kingsway invoice", "2025-10-01T09:00:00", orgs=("Kingsway",)),
        ],
        store,
        embedder=embedder,
    )
    consolidate_batch(
        [
            make_event(
                "d2",
                "Kingsway shipped the M3 screws.",
                "2026-02-26T18:20:00",
                session="s2",
                orgs=("Kingsway",),
            )
        ],
        store,
        embedder=embedder,
    )
    store.apply_delta(
        GraphDelta(
            namespace=NS,
            event_patches=[EventPatch(ids=["t1"], fields={"is_task": True, "status": EventStatus.DONE})],
        )
    )
    store.apply_delta(GraphDelta(namespace=NS, touched=["d1", "d2"], touched_at=NOW))


def test_each_step_of_the_pass_writes_once_through_apply_delta(store, make_event, embedder, monkeypatch):
    _two_sessions(store, make_event, embedder)
    writes = _record_writes(store)
    calibrated = global_pass.calibrated

    @contextmanager
    def step_boundary(current):  # the pass runs each step inside `calibrated`: mark where it starts
        writes.append("|")
        with calibrated(current):
            yield

    monkeypatch.setattr(global_pass, "calibrated", step_boundary)
    counts = consolidate_pass(store, NS, now=NOW, embedder=embedder, decay=DecayPolicy(archive_days=90))
    assert counts["duplicates_merged"] == 1 and counts["topics"] >= 1
    per_step = [step.split() for step in " ".join(writes).split("|")[1:]]
    assert len(per_step) == STEPS
    # At most one write a step, always a delta; the steps with work here all write theirs.
    assert all(step in ([], ["apply_delta"]) for step in per_step), per_step
    steps_with_work = [per_step[i] for i in (0, 1, 2, 6, 7)]  # duplicates, entities, aliases, topics, decay
    assert steps_with_work == [["apply_delta"]] * 5, per_step


def test_the_plans_read_only_and_their_deltas_hold_the_whole_step(store, make_event, embedder):
    _two_sessions(store, make_event, embedder)
    writes = _record_writes(store)
    merge = plan_duplicates(store, NS, embedder)
    decay = plan_decay(store, NS, now=NOW, decay=DecayPolicy(archive_days=90))
    aliases = plan_aliases(store, NS)
    assert writes == []  # planning wrote nothing
    # The merge: the original with both copies' sources and accesses, the copy deleted.
    assert merge.deleted_events == ["d2"]
    (kept,) = merge.events
    assert kept.id == "d1" and kept.source_ids == ["s1:d1", "s2:d2"] and kept.access_count == 2
    # Decay: the old done task archived, and the tier record in the same delta.
    assert any(p.ids == ["t1"] and p.fields == {"status": EventStatus.ARCHIVED} for p in decay.event_patches)
    assert list(decay.meta) == [f"tier_pass/{NS}"]
    assert not aliases.deleted_events and aliases.counts["aliases"] == 0


def test_events_stored_without_vectors_get_them_in_the_merge_delta_and_still_merge(
    store, make_event, embedder
):
    events = [
        make_event("d1", "Kingsway shipped the M3 screws", "2026-02-20T10:00:00"),
        make_event("d2", "Kingsway has shipped the M3 screws", "2026-02-26T18:20:00", session="s2"),
        make_event("x1", "The pilot line starts in May", "2026-03-02T09:00:00", session="s3"),
    ]
    write(store, events=[e.model_copy(update={"embedding": None}) for e in events])
    assert store.events(NS, EventVectors())[0] == []
    writes = _record_writes(store)
    delta = plan_duplicates(store, NS, embedder)
    assert writes == []
    # The texts differ, so the copy is found through the vectors the plan made: it folds into the
    # original, which gets its vector in the same delta, as does the event that is not a copy.
    assert delta.deleted_events == ["d2"] and delta.counts == {"duplicates_merged": 1}
    assert sorted(e.id for e in delta.events) == ["d1", "x1"]
    assert all(e.embedding is not None for e in delta.events)
    store.apply_delta(delta)
    assert store.events(NS, EventVectors())[0] == ["d1", "x1"]
