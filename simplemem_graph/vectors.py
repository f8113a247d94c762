"""Vector helpers shared by every stage (one cosine for the whole package)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def cosine(a: Sequence[float] | np.ndarray | None, b: Sequence[float] | np.ndarray | None) -> float:
    """Cosine of two vectors; 0.0 when either is missing or zero."""
    if a is None or b is None:
        return 0.0
    va, vb = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    norm = float(np.linalg.norm(va) * np.linalg.norm(vb))
    return float(va @ vb) / norm if norm else 0.0
