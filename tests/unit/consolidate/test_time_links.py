"""ON / DUE Day links and NEXT chains per session and per entity storyline."""

from __future__ import annotations

from simplemem_graph.ingest import consolidate_batch
from simplemem_graph.models import LinkKind

from .conftest import entity_named, link_props, links_of


def test_on_uses_the_local_date_and_due_the_deadline(store, make_event, embedder):
    late_evening = make_event(
        "e1", "下周一之前把补充协议签字版发过去", "2026-02-26T23:50:00", deadline="2026-03-02", is_task=True
    )
    consolidate_batch([late_evening], store, embedder=embedder)
    assert links_of(store, LinkKind.ON) == {("e1", "2026-02-26")}  # +08:00 date, not the UTC one
    assert links_of(store, LinkKind.DUE) == {("e1", "2026-03-02")}


def test_next_chains_per_session_and_per_entity_across_batches(store, make_event, embedder):
    consolidate_batch(
        [
            make_event(
                "a1",
                "Acme Corp quoted 3.6 USD per bracket",
                "2026-01-08T10:00:00",
                session="s1",
                orgs=("Acme Corp",),
            ),
            # on the thread (it shares "bracket" with a1): a nameless turn continues the focus's story
            make_event("a2", "We asked for a bracket sample first", "2026-01-08T10:05:00", session="s1"),
            make_event("b1", "Globex sent the screws", "2026-01-08T11:00:00", session="s2", orgs=("Globex",)),
        ],
        store,
        embedder=embedder,
    )
    delta = consolidate_batch(
        [
            make_event(
                "a3", "Acme Corp shipped the sample", "2026-01-20T09:00:00", session="s3", orgs=("Acme Corp",)
            ),
            make_event("a4", "The sample passed the salt spray test", "2026-01-20T09:10:00", session="s3"),
        ],
        store,
        embedder=embedder,
    )

    acme = entity_named(store, "Acme Corp")
    props = link_props(store, LinkKind.NEXT)
    # a2 names no company: it is about Acme, the focus of its session, so Acme's storyline runs a1, a2, a3
    assert set(props) == {("a1", "a2"), ("a3", "a4"), ("a2", "a3")}
    assert props[("a1", "a2")] == {"scope": "session:s1"}
    assert props[("a3", "a4")] == {"scope": "session:s3"}
    assert props[("a2", "a3")] == {"scope": f"entity:{acme.id}"}  # the storyline skips Globex's session
    assert delta.counts["NEXT"] == 2
