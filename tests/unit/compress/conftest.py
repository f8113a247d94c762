"""Fixtures for stage 1 tests: the real spaCy pipeline, loaded once per session, and a turn factory."""

from __future__ import annotations

from datetime import datetime

import pytest

from simplemem_graph.compress import load_english_pipeline
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
