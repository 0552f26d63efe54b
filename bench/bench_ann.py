"""Approximate nearest neighbours for the embedded store, measured side by side in one run.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_ann.py [--sizes 100000,1000000] \
        [--queries 200] [--methods exact,hnswlib,faiss-hnsw,...]

The same SYNTHETIC clustered vectors for every method (384-d, built as
``bench_search_latency`` builds them: the sum of real all-MiniLM-L6-v2 embeddings of a
fact's "predicate object" phrase and 0.6 x its subject's first and last names, plus
Gaussian noise, unit length); queries are ``bench_search_latency``'s question texts
embedded by the real model. Each
query runs under three filter masks that allow 100%, 10% and 1% of the entries (as a
scope or time mode does); the ground truth is the exact top 10 among the allowed.

Each method runs in its own process (its RSS is its own) and reports: build seconds,
the RSS it adds, its file bytes once saved, the seconds to open that file again,
recall@10 against the exact scan and p50/p95 latency per mask (one thread, as a query
runs in the store). Methods:

- ``exact``: numpy float32, one matrix product over the allowed rows (the baseline);
- ``exact-f16``: the same over a float16 copy (half the bytes), in float32 blocks;
- ``hnswlib``: the store's index before this bench (M=12, ef_construction=64), the
  mask as a Python filter callback;
- ``faiss-hnsw``: faiss IndexHNSWFlat (M=32), the mask as a native IDSelectorBitmap;
- ``faiss-hnsw-sq8`` / ``faiss-hnsw-f16``: the same graph over int8 / float16 codes,
  the top 40 re-scored exactly from the float32 vectors;
- ``faiss-ivf-flat`` / ``faiss-ivf-sq8``: faiss IVF, ~4·sqrt(n) k-means cells, float32 /
  int8 codes, the mask native; each query scans the cells nearest to it, about 32k
  entries widened by 1/sqrt(share) (int8: the top 40 re-scored exactly);
- ``usearch-f16`` / ``usearch-i8``: usearch HNSW (connectivity 16); usearch's Python
  search takes no filter, so it over-fetches k / share and filters after, then
  re-scores exactly;
- ``sqlite-vec``: sqlite-vec's vec0 table (exact KNN inside SQLite, float32),
  filtered by a metadata column (100k only: it scans);
- ``graphmem``: the store's own index, as chosen from the above: faiss IVF over int8
  codes (``faiss-ivf-sq8``), the top 4k re-scored exactly from the mapped float32 file,
  an exact scan when at most 20k entries are allowed. (Until this bench's second run it
  was faiss HNSW over int8 codes, ``faiss-hnsw-sq8``: recall@10 0.84 at 1M.)

Every HNSW method walks with the same beam (``EF``, widened by 1/sqrt(share) under a
mask, as the store does). Ratios are printed against ``exact`` at the same size and
mask.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

SHARES = (1.0, 0.1, 0.01)
K = 10
RERANK = 40  # candidates re-scored exactly for quantised codes
# One beam for every HNSW method (ef / expansion_search), widened by 1/sqrt(share) under
# a mask as the store does: question embeddings lie far from the facts, and a graph walk
# needs ~512 to find their exact top 10 (bench_search_latency's questions, 100k).
EF = 512


def beam(fetch: int, share: float) -> int:
    return int(min(max(EF, fetch) / math.sqrt(max(share, 0.01)), 2000))


METHODS = ("exact", "exact-f16", "hnswlib", "faiss-hnsw", "faiss-hnsw-sq8", "faiss-hnsw-f16",
           "faiss-ivf-flat", "faiss-ivf-sq8", "usearch-f16", "usearch-i8", "sqlite-vec",
           "graphmem")  # fmt: skip


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


# -- data ---------------------------------------------------------------------------------
def make_data(n: int, n_queries: int, folder: str) -> None:
    """Vectors, queries, masks and the exact top 10 per (query, mask), as .npy files."""
    from bench_search_latency import CITIES, COMPANIES, FIRST, HOBBIES, LAST, PETS

    from graphmem.retrieval.embedder import default_embedder

    embedder = default_embedder()
    phrases = ([f"lives in {c}" for c in CITIES] + [f"works at {c}" for c in COMPANIES]
               + [f"hobby: {h}" for h in HOBBIES] + [f"has a pet {p}" for p in PETS])  # fmt: skip
    base = embedder.embed(phrases).astype(np.float32)
    firsts = embedder.embed(FIRST).astype(np.float32)
    lasts = embedder.embed(LAST).astype(np.float32)
    rng = np.random.default_rng(3)

    def draw(count: int, noise: float) -> np.ndarray:
        # A person (first, last) has 8 facts: people are clusters, phrases cut across them.
        people = np.repeat(np.arange(-(-count // 8)), 8)[:count]
        person_rng = np.random.default_rng(11)
        f = person_rng.integers(0, len(FIRST), people.max() + 1)[people]
        la = person_rng.integers(0, len(LAST), people.max() + 1)[people]
        p = rng.integers(0, len(phrases), count)
        out = np.empty((count, base.shape[1]), dtype=np.float32)
        for start in range(0, count, 100_000):
            s = slice(start, min(count, start + 100_000))
            v = base[p[s]] + 0.6 * firsts[f[s]] + 0.6 * lasts[la[s]]
            v += rng.standard_normal(v.shape).astype(np.float32) * noise
            out[s] = v / np.linalg.norm(v, axis=1, keepdims=True)
        return out

    vectors = draw(n, 0.3 / math.sqrt(384))
    # Queries are real questions embedded by the model, as the store gets them: farther
    # from every fact than facts are from each other (harder for a graph walk than
    # queries drawn like the data, where every method here finds ~0.99).
    from bench_search_latency import queries as question_plan

    texts = [text for text, _ in question_plan(max(1, n // 8), n_queries)]
    queries = embedder.embed(texts).astype(np.float32)
    masks = np.stack([rng.random(n) < share for share in SHARES])
    truth = np.zeros((len(SHARES), n_queries, K), dtype=np.int64)
    for s in range(len(SHARES)):
        allowed = np.flatnonzero(masks[s])
        sub = vectors[allowed]
        for start in range(0, n_queries, 50):
            scores = queries[start : start + 50] @ sub.T
            top = np.argpartition(-scores, K - 1, axis=1)[:, :K]
            order = np.argsort(-np.take_along_axis(scores, top, 1), axis=1)
            truth[s, start : start + 50] = allowed[np.take_along_axis(top, order, 1)]
    np.save(os.path.join(folder, "vectors.npy"), vectors)
    np.save(os.path.join(folder, "vectors16.npy"), vectors.astype(np.float16))
    np.save(os.path.join(folder, "queries.npy"), queries)
    np.save(os.path.join(folder, "masks.npy"), masks)
    np.save(os.path.join(folder, "truth.npy"), truth)


# -- methods ------------------------------------------------------------------------------
def rescore(vectors: np.ndarray, q: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    candidates = candidates[candidates >= 0]
    scores = np.asarray(vectors[np.sort(candidates)], dtype=np.float32) @ q
    ordered = np.sort(candidates)[np.argsort(-scores)]
    return ordered[:K]


def exact_top(vectors, q, allowed_positions) -> np.ndarray:
    scores = vectors[allowed_positions] @ q
    top = np.argpartition(-scores, K - 1)[:K]
    return allowed_positions[top[np.argsort(-scores[top])]]


class Exact:
    def __init__(self, vectors, path):
        self.vectors = np.ascontiguousarray(vectors)  # in memory, float32

    def search(self, q, mask, positions, share):
        if share == 1.0:
            scores = self.vectors @ q
            top = np.argpartition(-scores, K - 1)[:K]
            return top[np.argsort(-scores[top])]
        return exact_top(self.vectors, q, positions)


class ExactF16:
    def __init__(self, vectors, path):
        self.vectors = vectors.astype(np.float16)

    def search(self, q, mask, positions, share):
        best_pos, best_scores = [], []
        for start in range(0, len(positions), 65_536):
            part = positions[start : start + 65_536]
            scores = self.vectors[part].astype(np.float32) @ q
            top = np.argpartition(-scores, min(K, len(part)) - 1)[:K]
            best_pos.append(part[top])
            best_scores.append(scores[top])
        pos, scores = np.concatenate(best_pos), np.concatenate(best_scores)
        return pos[np.argsort(-scores)[:K]]


class Hnswlib:
    def __init__(self, vectors, path):
        import hnswlib

        n, d = vectors.shape
        self.index = hnswlib.Index(space="ip", dim=d)
        # The store's settings before faiss: M=12, ef_construction=64.
        self.index.init_index(max_elements=n, ef_construction=64, M=12)
        self.index.set_num_threads(2)
        for start in range(0, n, 100_000):
            self.index.add_items(
                vectors[start : start + 100_000], np.arange(start, min(n, start + 100_000))
            )
        self.index.set_num_threads(1)
        self.path = path

    def save(self):
        self.index.save_index(self.path)

    def load(self, d):
        import hnswlib

        index = hnswlib.Index(space="ip", dim=d)
        index.load_index(self.path)
        return index

    def search(self, q, mask, positions, share):
        self.index.set_ef(beam(K, share))
        if share == 1.0:
            labels, _ = self.index.knn_query(q, k=K)
        else:
            labels, _ = self.index.knn_query(q, k=K, filter=lambda label: bool(mask[label]))
        return labels[0]


def faiss_search(method, params, q, mask, share):
    """A faiss index's search with ``params``: the mask as a native bitmap when it hides
    anything, the top ``RERANK`` re-scored exactly when the codes are quantised."""
    faiss = method.faiss
    if share < 1.0:
        bits = np.packbits(mask, bitorder="little")
        params.sel = faiss.IDSelectorBitmap(len(bits), faiss.swig_ptr(bits))
    fetch = K if method.rerank is None else RERANK
    _, labels = method.index.search(q[None, :], fetch, params=params)
    if method.rerank is None:
        return labels[0]
    return rescore(method.rerank, q, labels[0])


class FaissHnsw:
    def __init__(self, vectors, path, codes: str = "flat"):
        import faiss

        self.faiss = faiss
        faiss.omp_set_num_threads(2)
        n, d = vectors.shape
        if codes == "flat":
            self.index = faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
        else:
            qtype = {"sq8": faiss.ScalarQuantizer.QT_8bit, "f16": faiss.ScalarQuantizer.QT_fp16}
            self.index = faiss.IndexHNSWSQ(d, qtype[codes], 32, faiss.METRIC_INNER_PRODUCT)
            self.index.train(vectors[:: max(1, n // 100_000)])
        self.index.hnsw.efConstruction = 64
        for start in range(0, n, 100_000):
            self.index.add(np.ascontiguousarray(vectors[start : start + 100_000]))
        faiss.omp_set_num_threads(1)
        self.codes = codes
        self.rerank = None if codes == "flat" else vectors  # float32 memmap for re-scoring
        self.path = path

    def save(self):
        self.faiss.write_index(self.index, self.path)

    def load(self, d):
        return self.faiss.read_index(self.path, self.faiss.IO_FLAG_MMAP)

    def search(self, q, mask, positions, share):
        params = self.faiss.SearchParametersHNSW()
        params.efSearch = beam(K if self.rerank is None else RERANK, share)
        return faiss_search(self, params, q, mask, share)


class FaissIvf:
    """faiss IVF: k-means cells (``ann.cells_for``: ~4·sqrt(n)), int8 or float32 codes,
    the mask as a native IDSelectorBitmap, scanning ``ann.SCAN`` entries widened by
    1/sqrt(share) as the store does; int8 candidates re-scored exactly."""

    def __init__(self, vectors, path, codes: str = "sq8"):
        import faiss

        from graphmem.store.embedded import ann

        self.faiss, self.ann = faiss, ann
        faiss.omp_set_num_threads(2)
        n, d = vectors.shape
        cells = ann.cells_for(n)
        quantizer = faiss.IndexFlatIP(d)
        if codes == "flat":
            self.index = faiss.IndexIVFFlat(quantizer, d, cells, faiss.METRIC_INNER_PRODUCT)
        else:
            self.index = faiss.IndexIVFScalarQuantizer(
                quantizer, d, cells, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
            )
        quantizer.this.disown()
        self.index.own_fields = True
        self.index.train(np.ascontiguousarray(vectors[:: max(1, n // (64 * cells))]))
        for start in range(0, n, 100_000):
            self.index.add(np.ascontiguousarray(vectors[start : start + 100_000]))
        faiss.omp_set_num_threads(1)
        self.rerank = None if codes == "flat" else vectors
        self.path = path

    def save(self):
        self.faiss.write_index(self.index, self.path)

    def load(self, d):
        return self.faiss.read_index(self.path)

    def search(self, q, mask, positions, share):
        params = self.faiss.SearchParametersIVF()
        wide = self.ann.SCAN / self.index.ntotal / math.sqrt(max(share, 0.01))
        params.nprobe = max(1, min(self.index.nlist, math.ceil(self.index.nlist * wide)))
        return faiss_search(self, params, q, mask, share)


class Usearch:
    def __init__(self, vectors, path, dtype: str = "f16"):
        from usearch.index import Index

        n, d = vectors.shape
        self.index = Index(ndim=d, metric="ip", dtype=dtype, connectivity=16,
                           expansion_add=64, expansion_search=64)  # fmt: skip
        for start in range(0, n, 100_000):
            part = np.ascontiguousarray(vectors[start : start + 100_000])
            self.index.add(np.arange(start, start + len(part)), part, threads=2)
        self.rerank = vectors
        self.path = path

    def save(self):
        self.index.save(self.path)

    def load(self, d):
        from usearch.index import Index

        return Index.restore(self.path, view=True)

    def search(self, q, mask, positions, share):
        # No filter in usearch's Python search: over-fetch so ~RERANK allowed remain.
        fetch = min(len(mask), int(math.ceil(RERANK / share)))
        self.index.expansion_search = beam(fetch, 1.0)
        found = self.index.search(q, fetch, threads=1).keys.astype(np.int64)
        found = found[mask[found]] if share < 1.0 else found
        return rescore(self.rerank, q, found[:RERANK])


class Graphmem:
    """The store's own index (``graphmem.store.embedded.vector_index``): vectors in a
    mapped float32 file, faiss IVF over int8 codes, the mask as a bitmap, the top 4k
    re-scored exactly; exact below 20k allowed."""

    def __init__(self, vectors, path):
        import faiss

        from graphmem.store.embedded.vector_index import VectorIndex

        self.VectorIndex = VectorIndex
        faiss.omp_set_num_threads(2)
        n, d = vectors.shape
        self.index = VectorIndex(d, path=path)
        for start in range(0, n, 100_000):
            part = np.asarray(vectors[start : start + 100_000])
            self.index.add(list(range(start, start + len(part))), part)
        self.index.build()
        faiss.omp_set_num_threads(1)
        self.path = path

    def save(self):
        self.index.persist(with_ann=True)

    def load(self, d):
        index = self.VectorIndex(d, path=self.path)
        index._load_index()
        return index

    def search(self, q, mask, positions, share):
        return np.array([p for p, _ in self.index.search(q, K, mask)], dtype=np.int64)


class SqliteVec:
    def __init__(self, vectors, path):
        # The standard library's sqlite3 here is built without extension loading: apsw.
        import apsw
        import sqlite_vec

        self.db = apsw.Connection(path)
        self.db.enable_load_extension(True)
        self.db.load_extension(sqlite_vec.loadable_path())
        n, d = vectors.shape
        self.db.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{d}], allow integer)")
        self.db.execute("BEGIN")
        for start in range(0, n, 10_000):
            part = vectors[start : start + 10_000]
            self.db.executemany(
                "INSERT INTO v(rowid, embedding, allow) VALUES (?, ?, 0)",
                [(start + i, part[i].tobytes()) for i in range(len(part))],
            )
        self.db.execute("COMMIT")
        self.share = None
        self.path = path

    def save(self):
        pass  # committed as written

    def load(self, d):
        return None

    def search(self, q, mask, positions, share):
        if self.share != share:  # the metadata column holds the current mask
            self.db.execute("BEGIN")
            self.db.execute("UPDATE v SET allow=0")
            self.db.executemany(
                "UPDATE v SET allow=1 WHERE rowid=?", [(int(p),) for p in positions]
            )
            self.db.execute("COMMIT")
            self.share = share
        found = self.db.execute(
            "SELECT rowid FROM v WHERE embedding MATCH ? AND k = ? AND allow = 1",
            (q.tobytes(), K),
        ).fetchall()
        return np.array([r[0] for r in found], dtype=np.int64)


def build(method: str, vectors: np.ndarray, path: str):
    if method == "exact":
        return Exact(vectors, path)
    if method == "exact-f16":
        return ExactF16(vectors, path)
    if method == "hnswlib":
        return Hnswlib(vectors, path)
    if method.startswith("faiss-hnsw"):
        return FaissHnsw(vectors, path, {"faiss-hnsw": "flat", "faiss-hnsw-sq8": "sq8",
                                         "faiss-hnsw-f16": "f16"}[method])  # fmt: skip
    if method.startswith("faiss-ivf"):
        return FaissIvf(vectors, path, method.rsplit("-", 1)[1])
    if method.startswith("usearch"):
        return Usearch(vectors, path, method.split("-")[1])
    if method == "sqlite-vec":
        return SqliteVec(vectors, path)
    if method == "graphmem":
        return Graphmem(vectors, path)
    raise SystemExit(f"unknown method {method}")


def run_method(method: str, folder: str) -> dict:
    vectors = np.load(os.path.join(folder, "vectors.npy"), mmap_mode="r")
    queries = np.load(os.path.join(folder, "queries.npy"))
    masks = np.load(os.path.join(folder, "masks.npy"))
    truth = np.load(os.path.join(folder, "truth.npy"))
    path = os.path.join(folder, f"index-{method}")
    rss0 = rss_bytes()
    t0 = time.perf_counter()
    index = build(method, vectors, path)
    out: dict = {"method": method, "n": len(vectors), "build_s": time.perf_counter() - t0}
    out["rss_added"] = rss_bytes() - rss0
    if hasattr(index, "save"):
        t0 = time.perf_counter()
        index.save()
        out["save_s"] = time.perf_counter() - t0
        out["file_bytes"] = sum(
            os.path.getsize(os.path.join(folder, f))
            for f in os.listdir(folder)
            if f.startswith(f"index-{method}")
        )
        t0 = time.perf_counter()
        reopened = index.load(vectors.shape[1])
        out["open_s"] = time.perf_counter() - t0
        del reopened
    import threadpoolctl

    with threadpoolctl.threadpool_limits(1):
        for s, share in enumerate(SHARES):
            positions = np.flatnonzero(masks[s])
            lat, recall = [], []
            for i, q in enumerate(queries):
                t0 = time.perf_counter()
                found = index.search(q, masks[s], positions, share)
                lat.append(time.perf_counter() - t0)
                recall.append(len(set(np.asarray(found).tolist()) & set(truth[s, i].tolist())) / K)
            out[f"p50_{share}"] = percentile(lat, 50) * 1000
            out[f"p95_{share}"] = percentile(lat, 95) * 1000
            out[f"recall_{share}"] = float(np.mean(recall))
    return out


def report(results: list[dict]) -> None:
    mb = 1 / 2**20
    print("\nANN side by side (k=10, one query thread; recall@10 against the exact scan over "
          "the allowed; ratio = p95 / exact's p95 at the same size and mask)")  # fmt: skip
    head = "".join(f" | {f'{s:.0%} allowed: recall p50 p95 ratio':>36}" for s in SHARES)
    print(f"{'n':>9} {'method':<15} {'build s':>7} {'+RSS MiB':>8} {'file MiB':>8} "
          f"{'open s':>6}{head}")  # fmt: skip
    base = {(r["n"], s): r[f"p95_{s}"] for r in results if r["method"] == "exact" for s in SHARES}
    for r in results:
        cells = ""
        for s in SHARES:
            ratio = r[f"p95_{s}"] / base[(r["n"], s)] if (r["n"], s) in base else float("nan")
            cells += (f" | {r[f'recall_{s}']:>15.3f} {r[f'p50_{s}']:>6.2f} {r[f'p95_{s}']:>6.2f}"
                      f" {ratio:>6.2f}")  # fmt: skip
        print(f"{r['n']:>9,} {r['method']:<15} {r['build_s']:>7.1f} {r['rss_added'] * mb:>8.0f} "
              f"{r.get('file_bytes', 0) * mb:>8.0f} {r.get('open_s', 0):>6.2f}{cells}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--method", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--data", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.method:
        print("RESULT " + json.dumps(run_method(args.method, args.data)), flush=True)
        return
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}", flush=True)
    results = []
    for n in [int(s) for s in args.sizes.split(",")]:
        folder = tempfile.mkdtemp(prefix="graphmem-ann-", dir="/tmp")
        try:
            t0 = time.perf_counter()
            make_data(n, args.queries, folder)
            print(f"{n:,} vectors: data and exact ground truth in {time.perf_counter() - t0:.0f} s",
                  flush=True)  # fmt: skip
            for method in args.methods.split(","):
                if method == "sqlite-vec" and n > 200_000:
                    continue  # an exact scan inside SQLite: minutes per mask at 1M
                proc = subprocess.run(
                    [sys.executable, __file__, "--method", method, "--data", folder],
                    capture_output=True, text=True,
                )  # fmt: skip
                lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
                if proc.returncode != 0 or not lines:
                    print(f"  {method}: failed\n{proc.stderr[-2000:]}", flush=True)
                    continue
                results.append(json.loads(lines[-1][len("RESULT ") :]))
                r = results[-1]
                print(f"  {method}: build {r['build_s']:.1f} s, recall "
                      + " / ".join(f"{r[f'recall_{s}']:.3f}" for s in SHARES) + ", p95 "
                      + " / ".join(f"{r[f'p95_{s}']:.2f}" for s in SHARES) + " ms", flush=True)  # fmt: skip
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    report(results)


if __name__ == "__main__":
    main()
