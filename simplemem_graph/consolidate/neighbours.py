"""Nearest neighbours of every event vector at once, for the global pass (duplicates, topic
communities): exact up to EXACT_MAX_ROWS rows, a seeded inverted-file index beyond, so the cost
grows as N^1.5 instead of N^2."""

from __future__ import annotations

import numpy as np

EXACT_MAX_ROWS = 10_000  # exact nearest neighbours up to this many events (~2 s), an IVF index beyond
IVF_CELLS_PER_SQRT_ROW = 2  # k-means cells of the IVF index: 2 sqrt(N) (~160 events a cell at 100k)
IVF_PROBES = 8  # cells searched per event: N x 8 cells x sqrt(N)/2 events, 1.3% of the rows at 100k
IVF_TRAIN_PER_CELL = 40  # k-means learns the cells from 40 events a cell (a seeded sample): linear in N
IVF_SEED = 1234  # k-means seed: the same events give the same cells, hence the same neighbours


def nearest_neighbours(matrix: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's k most similar rows (itself included), as (indices, scores), best first, ties by
    lower index. A row with fewer than k neighbours found has index -1 (score -inf) in the rest.

    Up to EXACT_MAX_ROWS rows: exact (faiss's flat inner-product search, BLAS in blocks; memory
    O(N x k)). Beyond: an inverted-file index (faiss IVF-Flat, k-means cells, seeded) searched in
    the IVF_PROBES cells nearest each row, so the cost grows as N^1.5 instead of N^2; on the
    clustered vectors of bench/scale.py it finds the exact neighbours (recall@16 1.0 on 500 rows at
    100k), and a near-copy (the duplicates the pass merges) falls in its original's cell or a next one.

    Example:
        >>> nearest_neighbours(np.eye(3, dtype=np.float32), 1)[0].tolist()
        [[0], [1], [2]]
    """
    import faiss  # loaded here only, for the global pass

    rows = np.ascontiguousarray(matrix, dtype=np.float32)
    n = rows.shape[0]
    k = min(k, n)
    if n == 0 or k <= 0:
        return np.zeros((n, 0), dtype=np.int64), np.zeros((n, 0), dtype=np.float32)
    dim = rows.shape[1]
    index: faiss.Index
    if n <= EXACT_MAX_ROWS:
        index = faiss.IndexFlatIP(dim)
    else:
        cells = int(IVF_CELLS_PER_SQRT_ROW * np.sqrt(n))
        ivf = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, cells, faiss.METRIC_INNER_PRODUCT)
        ivf.cp.seed = IVF_SEED
        ivf.cp.max_points_per_centroid = IVF_TRAIN_PER_CELL
        ivf.train(rows)
        ivf.nprobe = IVF_PROBES
        index = ivf
    index.add(rows)
    scores, indices = index.search(rows, k)
    scores[indices < 0] = -np.inf
    order = np.lexsort((np.where(indices < 0, n, indices), -scores), axis=1)
    return np.take_along_axis(indices, order, axis=1), np.take_along_axis(scores, order, axis=1)
