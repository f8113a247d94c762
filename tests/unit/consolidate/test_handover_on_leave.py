"""A change of the person in charge said by someone leaving the post, with no change word (stop 49):
"Priyanka's going on maternity leave … Tomasz … is our guy from here on", "以宁…调去做…新项目了 …
以后都找小蒋对接". Each of the fifteen held-out client stories since holdout40 has one; none made a
SUPERSEDES link without "takes over" / 接手. Leaving a post is no change word for other values:
"on leave from 1 June" moves no date. End to end on the embedded store; made-up names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from simplemem_graph.models import LinkKind
from simplemem_graph.stores.queries import EventQuery

from .conftest import memory_of

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _links(embedder, *turns: tuple[str, str, int]) -> list[dict]:
    memory = memory_of(
        embedder,
        [
            (s, "user", text, START + timedelta(days=days, minutes=i))
            for i, (s, text, days) in enumerate(turns)
        ],
    )
    by_id = {e.id: e for e in memory.store.events("t", EventQuery())}
    return [
        {**lk.props, "newer_text": by_id[lk.source].text, "older_text": by_id[lk.target].text}
        for lk in memory.store.links("t", kinds=[LinkKind.SUPERSEDES])
    ]


def test_someone_going_on_leave_hands_the_post_to_the_person_named_in_charge(embedder):
    links = _links(
        embedder,
        ("s1", "New client Harwick Dental Group. Their practice manager Priyanka runs it day to day.", 0),
        (
            "s2",
            "Priyanka's going on maternity leave from Monday. "
            "Tomasz from their finance team is our guy from here on.",
            20,
        ),
    )
    contact = [lk for lk in links if lk.get("attribute") == "contact"]
    assert contact, links
    assert any("priyanka" in lk["older_text"].lower() for lk in contact)
    assert all(lk["new"] == ["tomasz"] and lk["old"] == ["priyanka"] for lk in contact), contact


def test_leaving_a_post_moves_no_date(embedder):
    links = _links(
        embedder,
        ("s1", "Harwick Dental Group want the launch on 12 March, Priyanka runs it day to day.", 0),
        ("s2", "Priyanka is on leave from 20 March, back in a fortnight.", 5),
    )
    assert [lk for lk in links if lk.get("attribute") == "date"] == []


def test_the_leaver_called_by_the_given_name_is_found_in_the_post(embedder):
    """Stop 54 (a held-out story): "Contact: Fiona Kettering (…)" then "Fiona's off on long
    service leave … Marcus Leung is taking over as our contact": the leaver goes by the first word of
    her full name, and the handover replaces the event that held her in the post (after the
    namespace's consolidation pass)."""
    said = [
        "New client Harwick Dental Group, 14 chairs. Contact: Karen Whitlock (Director of Facilities "
        "& Operations). The Bursar issues the PO.",
        "also Karen's off on long service leave from the 15th, 10 wks. Daniel Osei is taking over as "
        "our contact, he's their facilities coordinator. met him once at the site walk",
    ]
    memory = memory_of(
        embedder,
        [(f"s{i}", "user", text, START + timedelta(days=20 * i, minutes=i)) for i, text in enumerate(said)],
    )
    memory.consolidate(now=START + timedelta(days=30))
    by_id = {e.id: e for e in memory.store.events("t", EventQuery())}
    replaced = [
        by_id[lk.target].text
        for lk in memory.store.links("t", kinds=[LinkKind.SUPERSEDES])
        if lk.props.get("attribute") == "contact"
    ]
    assert any("Karen Whitlock" in text for text in replaced), replaced
