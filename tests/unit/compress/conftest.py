"""Fixtures for stage 1 tests: the real spaCy pipeline, loaded once per session, and a turn factory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from simplemem_graph.compress import compress, load_english_pipeline
from simplemem_graph.models import Turn


@pytest.fixture(scope="session")
def nlp():
    return load_english_pipeline()


@pytest.fixture
def make_turn():
    def _make(
        text: str,
        time: str = "2026-03-10T09:30:00+08:00",
        speaker: str = "user",
        turn_id: str = "s1:1",
        session: str = "s1",
    ) -> Turn:
        return Turn(
            id=turn_id, session=session, speaker=speaker, time=datetime.fromisoformat(time), text=text
        )

    return _make


def participants_of(*texts: str) -> dict[str, str]:
    """Name -> type of every participant stage 1 reads in the turns: the user's, one session, a
    minute apart."""
    start = datetime(2026, 2, 2, 9, tzinfo=UTC)
    turns = [
        Turn(id=f"s1:{i}", session="s1", speaker="user", time=start + timedelta(minutes=i), text=text)
        for i, text in enumerate(texts, start=1)
    ]
    return {p.name: p.type for e in compress(turns) for p in e.participants}
