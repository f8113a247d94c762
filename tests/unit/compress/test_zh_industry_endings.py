"""A Chinese firm whose name ends in a trade's 业 (窑业, 瓷业, 茶业, 乳业 …) is an organisation to stage 1,
also after a place (景德镇瓷合窑业 had been a person 景德镇 and no firm). Made-up names; fails on the
code before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from simplemem_graph.compress import compress
from simplemem_graph.models import Turn


def _orgs(text: str) -> list[str]:
    turn = Turn(id="t", session="s", speaker="user", time=datetime(2026, 8, 3, 9, tzinfo=UTC), text=text)
    return [p.name for e in compress([turn]) for p in e.participants if p.type == "org"]


@pytest.mark.parametrize("name", ["景德镇瓷合窑业", "龙泉青岫瓷业", "安溪云雾茶业", "呼伦乳业"])
def test_a_trade_ending_closes_a_firm_name(name):
    assert name in _orgs(f"窑厂是他们自己签的供应商，{name}，对接人老温。")
