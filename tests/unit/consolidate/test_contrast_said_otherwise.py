"""A look-alike named to say it is not the client, in the words held-out stories used (stop 54):
"与沧澜无关", "Not connected to X". Such a turn is the other firm's: it is no revision of the client's
value (its "每周一趟" revises no count of the client's), nor a step of the client's thread between
two of its turns. Made-up names, end to end on the embedded store; each case failed on the code
before."""

from __future__ import annotations

from datetime import UTC, datetime

from simplemem_graph import Memory

from .conftest import consolidated_memory, story_turns

START = datetime(2026, 3, 16, 9, 0, tzinfo=UTC)


def _memory(embedder, *turns: tuple[str, str, str]) -> Memory:
    return consolidated_memory(embedder, START, *turns)


def test_a_look_alike_said_to_have_nothing_to_do_with_the_client_is_not_its_revision(embedder):
    client = "青岛沧澜餐饮管理有限公司"
    memory = _memory(
        embedder,
        ("s1", "user", f"新客户 {client} 四个店 每周3趟 单趟1200"),
        ("s1", "assistant", "记下了：沧澜每周3趟，单趟¥1,200。"),
        ("s1", "user", "黄岛那边也有个新客户 青岛苍澜海鲜酒楼有限公司 跟沧澜不是一家 要拉冻品 一个礼拜一趟"),
        ("s1", "assistant", "记下了：苍澜海鲜酒楼（黄岛）是另一家客户，与沧澜无关；每周一趟冻品。"),
        ("s2", "user", "沧澜那边定金到了 3600 下礼拜二开始跑"),
    )
    story = story_turns(memory, client)
    assert {"s1:0", "s2:4"} <= story
    assert not {"s1:2", "s1:3"} & story


def test_not_connected_to_the_client_is_a_contrast(embedder):
    client = "Larkmoor Family Dental Group"
    memory = _memory(
        embedder,
        ("s1", "user", f"new client {client}, nightly cleaning at 3 offices, 6300/mo"),
        (
            "s1",
            "assistant",
            f"Noted separately: Larkwood Dental Studio (Oak Park) — quote request, biweekly. "
            f"Not connected to {client}.",
        ),
        ("s1", "user", f"{client} deposit landed"),
    )
    story = story_turns(memory, client)
    assert {"s1:0", "s1:2"} <= story
    assert "s1:1" not in story


def test_unrelated_to_us_is_no_contrast_of_firms():
    from simplemem_graph.lexicon import CONTRAST_MARKER

    assert CONTRAST_MARKER.search("蓝湾海鲜酒楼是另一家客户，与澜湾无关")
    assert CONTRAST_MARKER.search("Larkwood Dental Studio. Not connected to Larkmoor Family Dental Group.")
    assert not CONTRAST_MARKER.search("他们两家自己的事 跟我们没关系了")  # us, not a firm
