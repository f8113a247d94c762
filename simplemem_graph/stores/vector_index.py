"""The embedded store's vector index: one append-only float32 file per namespace, memory-mapped.

Why this shape (measured with `bench/vector_candidates.py`, 100k x 384-d, 2 shared cores):

- exact search over a memory-mapped matrix is one BLAS matrix-vector product (numpy): ~30 ms p50 at
  100k rows, recall 1.0, nothing to build, nothing to load at start (the OS pages the file in);
- sqlite-vec (vec0, exact) is ~85 ms p50 at 100k and needs a SQLite build that loads extensions
  (Python's stdlib `sqlite3` here has none);
- HNSW libraries (usearch, hnswlib, faiss) answer in < 1 ms but persist by re-writing the whole
  index file (O(N) per write) and insert at 1.5-5k vectors/s, so they fit a periodic rebuild, not a
  write path that must stay flat.

Rows are never overwritten: a new or changed embedding gets the next slot, allocated inside the
SQLite transaction that records `events.vslot` (see `EmbeddedStore`), so a rolled-back batch only
leaves unreferenced rows and a reader never sees a half-written vector of a committed event. Slots
of deleted or re-embedded events become holes that searches skip (the SQL join drops them).
Vectors are stored L2-normalised, so cosine is a dot product.

`:memory:` stores keep the matrix in RAM with the same interface.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from simplemem_graph.vectors import unit_rows

_GROW_ROWS = 4096  # the file grows by at least this many rows: fewer remaps while ingesting


def normalise(vector) -> np.ndarray:
    """A float32 unit vector (a zero vector stays zero: a slot must hold a row even without direction)."""
    return unit_rows(np.asarray(vector, dtype=np.float32)[None, :])[0].astype(np.float32, copy=False)


class VectorFile:
    """Rows of `dim` float32 values addressed by slot; a file (`path`) or RAM (`path=None`)."""

    def __init__(self, path: Path | None, dim: int):
        self.path = path
        self.dim = dim
        self._ram = np.zeros((0, dim), dtype=np.float32) if path is None else None
        self._map: np.ndarray | None = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch(exist_ok=True)

    @staticmethod
    def file_for(db_path: str, namespace: str, dim: int) -> Path:
        """Where the `dim`-d vectors of a namespace live, beside the SQLite file."""
        return Path(db_path + ".vectors") / f"{_digest(namespace)}-{dim}.f32"

    @staticmethod
    def remove_files(db_path: str, namespace: str) -> None:
        """Delete every vector file of a namespace."""
        folder = Path(db_path + ".vectors")
        if folder.is_dir():
            for path in folder.glob(f"{_digest(namespace)}-*.f32"):
                path.unlink()

    def write(self, first_slot: int, rows: np.ndarray) -> None:
        """Write consecutive rows starting at `first_slot`."""
        rows = np.ascontiguousarray(rows, dtype=np.float32).reshape(-1, self.dim)
        end = first_slot + rows.shape[0]
        if self._ram is not None:
            if end > self._ram.shape[0]:
                grown = np.zeros((max(end, 2 * self._ram.shape[0], _GROW_ROWS), self.dim), dtype=np.float32)
                grown[: self._ram.shape[0]] = self._ram
                self._ram = grown
            self._ram[first_slot:end] = rows
            return
        assert self.path is not None
        fd = os.open(self.path, os.O_RDWR)
        try:
            row_bytes = 4 * self.dim
            size = os.fstat(fd).st_size
            if end * row_bytes > size:
                os.ftruncate(fd, max(end, size // row_bytes + _GROW_ROWS) * row_bytes)
            os.pwrite(fd, rows.tobytes(), first_slot * row_bytes)
        finally:
            os.close(fd)

    def matrix(self, rows: int) -> np.ndarray:
        """The first `rows` rows (a read-only view; re-mapped when the file has grown)."""
        if rows <= 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._ram is not None:
            return self._ram[:rows]
        if self._map is None or self._map.shape[0] < rows:
            assert self.path is not None
            available = self.path.stat().st_size // (4 * self.dim)
            if available < rows:
                raise ValueError(
                    f"vector file {self.path} holds {available} rows, the store expects {rows}: "
                    "it was truncated or deleted; stores.embedded.rebuild_vectors(store, namespace) "
                    "re-creates it"
                )
            self._map = np.memmap(self.path, dtype=np.float32, mode="r", shape=(available, self.dim))
        return self._map[:rows]

    def remove(self) -> None:
        self._map = None
        if self._ram is not None:
            self._ram = np.zeros((0, self.dim), dtype=np.float32)
        elif self.path is not None and self.path.exists():
            self.path.unlink()


def _digest(namespace: str) -> str:
    return hashlib.sha1(namespace.encode("utf-8")).hexdigest()[:20]


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest scores, best first (ties by lower index)."""
    if k >= scores.shape[0]:
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, k)[:k]
    return part[np.lexsort((part, -scores[part]))]
