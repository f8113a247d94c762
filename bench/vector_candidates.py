# ruff: noqa: E402, E501, B905  (a flat measurement script: each candidate is imported where it is measured)
"""Vector index candidates for the embedded store: insert rate, search p50/p95, recall@10 against
exact search, disk and open time, on seeded random unit vectors (384-d).

    python3 bench/vector_candidates.py 100000

Needs the candidates installed (`pip install sqlite-vec pysqlite3-binary usearch hnswlib faiss-cpu`);
they are not dependencies of simplemem-graph: this script is the measurement behind the choice
documented in simplemem_graph/stores/vector_index.py.
"""

import os
import sys
import tempfile
import time

import numpy as np

N = int(sys.argv[1])
D = 384
Q = 30
rng = np.random.default_rng(0)
X = rng.standard_normal((N, D)).astype(np.float32)
X /= np.linalg.norm(X, axis=1, keepdims=True)
qs = X[rng.integers(0, N, Q)] + 0.1 * rng.standard_normal((Q, D)).astype(np.float32)
truth = [set(np.argsort(-(X @ q))[:10]) for q in qs]


def rep(name, ins, lat, rec, disk, opn):
    print(
        f"{name:22s} insert {N / ins:9.0f}/s  p50 {np.median(lat) * 1000:7.2f} ms  p95 {np.percentile(lat, 95) * 1000:7.2f} ms  recall {rec:.3f} disk {disk / 1e6:7.1f}MB open {opn * 1000:7.1f} ms",
        flush=True,
    )


d = tempfile.mkdtemp()
# sqlite-vec
import pysqlite3 as s
import sqlite_vec

p = f"{d}/v.db"
c = s.connect(p, isolation_level=None)
c.enable_load_extension(True)
sqlite_vec.load(c)
c.execute(
    "create virtual table v using vec0(ns text partition key, status text, embedding float[384] distance_metric=cosine)"
)
t = time.perf_counter()
for i in range(0, N, 500):
    c.execute("begin")
    c.executemany(
        "insert into v(rowid,ns,status,embedding) values (?,?,?,?)",
        [(j + 1, "a", "active", X[j].tobytes()) for j in range(i, min(N, i + 500))],
    )
    c.execute("commit")
ins = time.perf_counter() - t
c.close()
t = time.perf_counter()
c = s.connect(p)
c.enable_load_extension(True)
sqlite_vec.load(c)
c.execute("select rowid from v where embedding match ? and k=10 and ns='a'", (qs[0].tobytes(),)).fetchall()
opn = time.perf_counter() - t
lat = []
rec = 0
for q, tr in zip(qs, truth):
    t = time.perf_counter()
    r = c.execute(
        "select rowid, distance from v where embedding match ? and k=10 and ns='a' and status in ('active','done')",
        (q.tobytes(),),
    ).fetchall()
    lat.append(time.perf_counter() - t)
    rec += len({x[0] - 1 for x in r} & tr) / 10
rep("sqlite-vec exact", ins, lat, rec / Q, os.path.getsize(p), opn)
# numpy exact
lat = []
for q in qs:
    t = time.perf_counter()
    sc = X @ q
    top = np.argpartition(-sc, 10)[:10]
    lat.append(time.perf_counter() - t)
rep("numpy exact (RAM)", 1e-9, lat, 1.0, 0, 0)
# usearch
from usearch.index import Index

idx = Index(ndim=D, metric="cos", dtype="f32")
t = time.perf_counter()
for i in range(0, N, 500):
    idx.add(np.arange(i, min(N, i + 500)), X[i : i + 500])
ins = time.perf_counter() - t
idx.save(f"{d}/u.usearch")
t = time.perf_counter()
idx2 = Index.restore(f"{d}/u.usearch", view=True)
idx2.search(qs[0], 10)
opn = time.perf_counter() - t
for exact in (False, True):
    lat = []
    rec = 0
    for q, tr in zip(qs, truth):
        t = time.perf_counter()
        m = idx2.search(q, 10, exact=exact)
        lat.append(time.perf_counter() - t)
        rec += len(set(m.keys.tolist()) & tr) / 10
    rep(f"usearch {'exact' if exact else 'hnsw'}", ins, lat, rec / Q, os.path.getsize(f"{d}/u.usearch"), opn)
import hnswlib

h = hnswlib.Index(space="cosine", dim=D)
h.init_index(max_elements=N, ef_construction=100, M=16)
t = time.perf_counter()
for i in range(0, N, 500):
    h.add_items(X[i : i + 500], np.arange(i, min(N, i + 500)))
ins = time.perf_counter() - t
h.save_index(f"{d}/h.bin")
h.set_ef(64)
t = time.perf_counter()
h2 = hnswlib.Index(space="cosine", dim=D)
h2.load_index(f"{d}/h.bin")
h2.set_ef(64)
h2.knn_query(qs[0], 10)
opn = time.perf_counter() - t
lat = []
rec = 0
for q, tr in zip(qs, truth):
    t = time.perf_counter()
    labels, _ = h2.knn_query(q, 10)
    lat.append(time.perf_counter() - t)
    rec += len(set(labels[0].tolist()) & tr) / 10
rep("hnswlib", ins, lat, rec / Q, os.path.getsize(f"{d}/h.bin"), opn)
import faiss

f = faiss.IndexHNSWFlat(D, 16, faiss.METRIC_INNER_PRODUCT)
t = time.perf_counter()
for i in range(0, N, 500):
    f.add(X[i : i + 500])
ins = time.perf_counter() - t
faiss.write_index(f, f"{d}/f.idx")
t = time.perf_counter()
f2 = faiss.read_index(f"{d}/f.idx")
f2.search(qs[:1], 10)
opn = time.perf_counter() - t
lat = []
rec = 0
for q, tr in zip(qs, truth):
    t = time.perf_counter()
    _, found = f2.search(q[None], 10)
    lat.append(time.perf_counter() - t)
    rec += len(set(found[0].tolist()) & tr) / 10
rep("faiss hnsw", ins, lat, rec / Q, os.path.getsize(f"{d}/f.idx"), opn)
