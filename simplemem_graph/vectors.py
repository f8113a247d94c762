"""Vector helpers shared by every stage: one cosine and one unit-vector rule for the whole package."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def unit(vector: Sequence[float] | np.ndarray | None) -> np.ndarray | None:
    """The float32 unit vector; None when the vector is missing or zero (it has no direction)."""
    if vector is None:
        return None
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    return v / norm if norm else None


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Every row scaled to unit length (zero rows stay zero), so cosine is a dot product."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def cosine(a: Sequence[float] | np.ndarray | None, b: Sequence[float] | np.ndarray | None) -> float:
    """Cosine of two vectors; 0.0 when either is missing or zero."""
    ua, ub = unit(a), unit(b)
    return float(ua @ ub) if ua is not None and ub is not None else 0.0
