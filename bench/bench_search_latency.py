"""Search latency on the embedded store at 10k / 100k / 1M facts, against a numpy scan.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_search_latency.py \
        [--sizes 10000,100000,1000000] [--queries 200] [--warm 300]

Each size runs in its own process (so its memory is its own) on a fresh store in a
temporary folder under /tmp, deleted afterwards. Facts go in through the ordinary write
path (``Memory.apply``, batches of <=20k assertions, one transaction each, recorded
at times spread over 2012-2022), with
``embeddings=`` given so the model is not run a million times: SYNTHETIC vectors, each
the sum of real all-MiniLM-L6-v2 embeddings of its fact's parts (the "predicate object"
phrase, plus 0.6 x the subject's first name and 0.6 x the last name) and a little
Gaussian noise, re-normalised, so facts cluster and vary the way real text does.
Texts are realistic renderings ("Maya Okafor-5812 lives in Lisbon"); each person has a
past and a current home and employer (valid intervals), hobbies and pets.

Queries are ``Memory.search(text, k=10, ...)`` end to end: query embedding with the
real model (every query text distinct, so the model's text cache never answers), scope
and time filters as a mask applied inside the vector and keyword indexes before
ranking, graph expansion, fusion and scoring. Modes: current, ``as_of`` a past date,
a question window ("in 2016"), ``known_at``. The baseline, in the same run on the
same queries, is a brute-force numpy scan: embed the query, build the same mask, score
every allowed vector with one matrix product, take the top 10. Printed: p50/p95 per
mode and overall, the ratio to the scan, recall@10 of the vector index against the
exact scan, the ANN index build time, RSS and index bytes. ``--warm N`` runs N untimed
searches of other questions first (default 4, the code paths only): the first questions
after a load are the first to touch their pages of the mapped files, so the default
measures a cold store and a few hundred a running one.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

FIRST = ("Maya Liam Noah Emma Olivia Ava Lucas Mia Amara Kenji Sofia Mateo Aisha Omar Chen Priya "
         "Ravi Elena Ivan Fatima Tom Ana Leo Zoe Ines Hugo Nora Yuki Diego Sara").split()  # fmt: skip
LAST = ("Okafor Smith Garcia Müller Rossi Tanaka Kowalski Silva Dubois Novak Haddad Kim Patel "
        "Nguyen Johansson Costa Ibrahim Schmidt Moreau Lopez").split()  # fmt: skip
CITIES = ("Lisbon Berlin Paris Madrid Porto Oslo Tokyo Osaka Lagos Nairobi Cairo Lima Quito Bogota "
          "Toronto Denver Austin Boston Seattle Chicago Sydney Perth Dublin Vienna Prague Krakow "
          "Warsaw Athens Rome Milan Naples Seville Valencia Lyon Nice Munich Hamburg Zurich Geneva "
          "Bern Mumbai Pune Delhi Hanoi Manila Seoul Busan Taipei Lhasa Reykjavik").split()  # fmt: skip
COMPANIES = ("Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Wonka Cyberdyne Tyrell "
             "Soylent Aperture Oscorp Pied-Piper Dunder-Mifflin Monarch Gringotts Nakatomi "
             "Massive-Dynamic").split()  # fmt: skip
HOBBIES = ("climbing chess pottery sailing baking gardening photography cycling running yoga "
           "painting knitting surfing fishing birdwatching woodworking origami tennis").split()  # fmt: skip
PETS = "cat dog parrot hamster rabbit tortoise goldfish ferret".split()
BASE = time.mktime((2012, 1, 1, 0, 0, 0, 0, 0, 0))


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def day(n: int) -> str:
    from graphmem.time.instant import format_instant, to_instant

    return format_instant(to_instant("2012-01-01") + timedelta(days=n))


def workload(n: int, seed: int = 11):
    """n fact operations over n/8 people (8 facts each), with valid intervals."""
    rng = random.Random(seed)
    people = max(1, n // 8)
    for i in range(people):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}-{i}"
        moved = rng.randrange(365, 4000)  # days after 2012-01-01
        changed_job = rng.randrange(365, 4000)
        a, b = rng.sample(CITIES, 2)
        c, d = rng.sample(COMPANIES, 2)
        yield name, "lives_in", a, 0, moved
        yield name, "lives_in", b, moved, None
        yield name, "works_at", c, 0, changed_job
        yield name, "works_at", d, changed_job, None
        for hobby in rng.sample(HOBBIES, 3):
            yield name, "hobby", hobby, rng.randrange(0, 4000), None
        yield name, "owns_pet", rng.choice(PETS), rng.randrange(0, 4000), None


def queries(n_people: int, count: int, seed: int = 5) -> list[tuple[str, dict]]:
    """(text, search options): distinct texts, mixed modes."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        person = rng.randrange(max(1, n_people))
        who = f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}-{person}"
        kind = i % 4
        if kind == 0:
            out.append((f"where does {who} live now? ({i})", {"mode": "current"}))
        elif kind == 1:
            out.append((f"who works at {rng.choice(COMPANIES)} with {who}? ({i})",
                        {"mode": "as_of", "as_of": day(rng.randrange(0, 4000))}))  # fmt: skip
        elif kind == 2:
            year = rng.randrange(2012, 2023)
            out.append((f"which hobbies did {who} pick up in {year}? ({i})", {"mode": "window"}))
        else:
            out.append((f"what pet does {who} have ({i})",
                        {"mode": "known_at", "known_at": day(rng.randrange(0, 4000))}))  # fmt: skip
    return out


def run_one(n: int, n_queries: int, batch: int, gc_freeze: bool = False, warm: int = 4) -> dict:
    from graphmem import CandidateFact, Memory
    from graphmem.model import text_owner
    from graphmem.retrieval.embedder import default_embedder
    from graphmem.store.embedded import vector_index
    from graphmem.time.instant import POS_INF, to_instant

    out: dict = {"facts": n, "queries": n_queries}
    rss0 = rss_bytes()
    embedder = default_embedder()
    embedder.embed(["warm up"])
    rng = np.random.default_rng(3)
    phrases = {}
    for city in CITIES:
        phrases[("lives_in", city)] = f"lives in {city}"
    for company in COMPANIES:
        phrases[("works_at", company)] = f"works at {company}"
    for hobby in HOBBIES:
        phrases[("hobby", hobby)] = f"hobby: {hobby}"
    for pet in PETS:
        phrases[("owns_pet", pet)] = f"has a pet {pet}"
    keys = list(phrases)
    base = dict(zip(keys, embedder.embed([phrases[k] for k in keys]), strict=True))
    firsts = dict(zip(FIRST, embedder.embed(FIRST), strict=True))
    lasts = dict(zip(LAST, embedder.embed(LAST), strict=True))
    rss_model = rss_bytes()

    folder = tempfile.mkdtemp(prefix="graphmem-latency-", dir="/tmp")
    try:
        mem = Memory.open(os.path.join(folder, "m.db"), durability="normal")
        registry = mem.registry
        scope = "bench"
        t0 = time.perf_counter()
        ops, vectors = [], {}
        tx = 0
        noise_scale = 0.3 / np.sqrt(384)

        batch = min(batch, max(1, n // 10))
        n_batches = -(-n // batch)

        def flush():
            # Batches are recorded at times spread over 2012-2022, so known_at filters bite.
            nonlocal ops, vectors, tx
            if ops:
                tx += 1
                mem.apply(ops, embeddings=vectors, recorded_at=day(tx * 4000 // n_batches))
            ops, vectors = [], {}

        for subject, predicate, obj, start, end in workload(n):
            ops.append(
                CandidateFact(
                    op="assert",
                    subject=subject,
                    predicate=predicate,
                    object=obj,
                    scope=scope,
                    valid_from=day(start) if start else "2000-01-01",
                    valid_to=day(end) if end else POS_INF,
                )  # fmt: skip
            )
            text = registry.get(predicate).render(subject, obj)
            first, last = subject.split(" ", 1)
            v = (
                base[(predicate, obj)]
                + 0.6 * firsts[first]
                + 0.6 * lasts[last.rsplit("-", 1)[0]]
                + rng.standard_normal(384).astype(np.float32) * noise_scale
            )
            vectors[text_owner(scope, text)] = v / np.linalg.norm(v)
            if len(ops) >= batch:
                flush()
        flush()
        out["write_s"] = time.perf_counter() - t0
        out["write_facts_s"] = n / out["write_s"]
        stats = mem.stats()
        out["rows"] = stats["rows"]
        out["file_bytes"] = stats["bytes"]
        # The embedded store fills its search indexes lazily, at the first search; the
        # ANN index is built at the first large query. Both are timed here, apart.
        backend = mem.backend
        t0 = time.perf_counter()
        with backend._lock:
            backend._refresh()
            backend._flush_search()
        out["first_search_s"] = time.perf_counter() - t0
        table = backend._tables["facts"]  # the embedded store's search table (internal)
        t0 = time.perf_counter()
        table.vectors.build()
        out["ann_build_s"] = time.perf_counter() - t0
        out["ann"] = table.vectors.ann_built
        out["rss_bytes"] = rss_bytes()
        out["rss_store_bytes"] = rss_bytes() - rss_model
        out["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        out["rss_start_bytes"] = rss0
        out["index_bytes"] = table.nbytes
        out["ann_bytes"] = table.vectors.ann_nbytes

        reference = to_instant(day(4200))
        plan = queries(n // 8, n_queries)
        # Warm up code paths and (with ``--warm``) the mapped pages, with other questions.
        _warm_up(mem, n // 8, warm, scope, reference)
        if gc_freeze:
            # Long-lived objects (a million rows) leave the collector's view, so a full
            # collection no longer walks them all (a server would do this after loading).
            gc.collect()
            gc.freeze()
        pauses: list[float] = []  # garbage-collector pauses during the timed queries
        started_gc: list[float] = []

        def on_gc(phase: str, info: dict) -> None:
            if phase == "start":
                started_gc.append(time.perf_counter())
            elif started_gc:
                pauses.append((info["generation"], time.perf_counter() - started_gc.pop()))

        gc.callbacks.append(on_gc)
        if os.environ.get("GRAPHMEM_BENCH_PROFILE"):  # where the store-side time goes
            import cProfile
            import pstats

            for text, _ in plan[:20]:
                mem.embedder.embed([text])
            profile = cProfile.Profile()
            profile.enable()
            for text, opts in plan[:20]:
                kwargs = {k: v for k, v in opts.items() if k != "mode"}
                mem.search(text, k=10, scope=scope, reference=reference, **kwargs)
            profile.disable()
            pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
        timings: dict[str, dict[str, list[float]]] = {}  # mode -> measure -> seconds
        recalls, ratios = [], []
        allowed_share = []
        # Three passes over the same queries, so that one measure's memory traffic (the
        # scan's gathers are ~800 MB at 1M facts) does not land in another's timings.
        results = []
        for text, opts in plan:  # 1. end to end: the model embeds each (new) query text
            kwargs = {k: v for k, v in opts.items() if k != "mode"}
            got = timings.setdefault(
                opts["mode"], {"e2e": [], "index": [], "scan_e2e": [], "scan": []}
            )
            t0 = time.perf_counter()
            results.append(mem.search(text, k=10, scope=scope, reference=reference, **kwargs))
            got["e2e"].append(time.perf_counter() - t0)
        for text, opts in plan:  # 2. the store side alone: the query vector is now cached
            kwargs = {k: v for k, v in opts.items() if k != "mode"}
            t0 = time.perf_counter()
            mem.search(text, k=10, scope=scope, reference=reference, **kwargs)
            timings[opts["mode"]]["index"].append(time.perf_counter() - t0)
        for (text, opts), result in zip(plan, results, strict=True):  # 3. brute force
            got = timings[opts["mode"]]
            t0 = time.perf_counter()
            q = embedder.embed([text + " "])[0]  # a distinct text: the model runs again
            t1 = time.perf_counter()
            mask = table.mask(scope, _bounds(result, reference, opts))
            positions = np.flatnonzero(mask)
            exact = positions[:0]
            if len(positions):
                scores = table.vectors._file.vectors[positions] @ q
                top = np.argpartition(-scores, min(10, len(scores) - 1))[:10]
                exact = positions[top[np.argsort(-scores[top])]]
            t2 = time.perf_counter()
            got["scan_e2e"].append(t2 - t0)
            got["scan"].append(t2 - t1)
            allowed_share.append(len(positions) / max(1, table.size))
            found = [p for p, _ in table.vectors.search(q, 10, mask)]
            if len(exact):
                recalls.append(len(set(found) & set(exact.tolist())) / min(10, len(exact)))
                vectors = table.vectors._file.vectors
                ratios.append(float((vectors[found] @ q).mean() / (vectors[exact] @ q).mean()))
        out["exact_limit"] = vector_index.EXACT_LIMIT
        measures = ("e2e", "index", "scan_e2e", "scan")
        out["modes"] = {
            mode: {f"{m}_{q}": percentile(got[m], q) * 1000 for m in measures for q in (50, 95)}
            for mode, got in timings.items()
        }
        for m in measures:
            every = [x for got in timings.values() for x in got[m]]
            out[f"{m}_50"] = percentile(every, 50) * 1000
            out[f"{m}_95"] = percentile(every, 95) * 1000
        gc.callbacks.remove(on_gc)
        full = [t for g, t in pauses if g == 2]
        out["gc_full"] = len(full)
        out["gc_full_max_ms"] = max(full, default=0.0) * 1000
        out["gc_total_ms"] = sum(t for _, t in pauses) * 1000
        out["gc_freeze"] = gc_freeze
        out["vector_recall@10"] = statistics.mean(recalls)
        out["similarity_ratio"] = statistics.mean(ratios)
        out["allowed_share"] = statistics.mean(allowed_share)
        t0 = time.perf_counter()
        for text, _ in plan[:50]:
            embedder.embed([text + "  "])
        out["embed_ms"] = (time.perf_counter() - t0) / min(50, len(plan)) * 1000
        t0 = time.perf_counter()
        mem.close()  # saves the ANN index beside the database
        out["close_s"] = time.perf_counter() - t0
        out["vector_file_bytes"] = sum(
            os.path.getsize(os.path.join(folder, f))
            for f in os.listdir(folder)
            if f.startswith("m.db.vectors.")
        )
        mem = backend = table = results = None  # let the loaded store go before reopening
        gc.collect()
        # Reopening, in a fresh process (its RSS is the reopened store's alone).
        proc = subprocess.run(
            [sys.executable, __file__, "--reopen", os.path.join(folder, "m.db"),
             "--queries", str(min(n_queries, 100)), "--warm", str(warm)],
            capture_output=True, text=True,
        )  # fmt: skip
        lines = [x for x in proc.stdout.splitlines() if x.startswith("REOPEN ")]
        if proc.returncode != 0 or not lines:
            print(proc.stderr[-3000:], file=sys.stderr)
            raise SystemExit("reopen failed")
        out["reopen"] = json.loads(lines[-1][len("REOPEN ") :])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def _warm_up(mem, n_people: int, count: int, scope: str, reference) -> None:
    """``count`` untimed searches of other questions (distinct texts, another seed)."""
    for text, opts in queries(n_people, count, seed=17):
        kwargs = {k: v for k, v in opts.items() if k != "mode"}
        mem.search(text + " warm", k=10, scope=scope, reference=reference, **kwargs)


def reopen(path: str, n_queries: int, warm: int = 4) -> dict:
    """Open a written store again and search it: open time, the first search (which
    fills the keyword index and loads the saved ANN index), RSS, latency."""
    from graphmem import Memory
    from graphmem.retrieval.embedder import default_embedder
    from graphmem.time.instant import to_instant

    embedder = default_embedder()
    embedder.embed(["warm up"])
    rss_model = rss_bytes()
    out: dict = {}
    t0 = time.perf_counter()
    mem = Memory.open(path, durability="normal", embedder=embedder)
    out["open_s"] = time.perf_counter() - t0
    out["rss_open_bytes"] = rss_bytes() - rss_model
    reference = to_instant(day(4200))
    plan = queries(int(mem.stats()["rows"]) // 8, n_queries, seed=9)
    t0 = time.perf_counter()
    mem.search(plan[0][0] + " first", k=10, scope="bench", reference=reference)
    out["first_search_s"] = time.perf_counter() - t0
    _warm_up(mem, int(mem.stats()["rows"]) // 8, warm, "bench", reference)
    lat = []
    for text, opts in plan:
        kwargs = {k: v for k, v in opts.items() if k != "mode"}
        t0 = time.perf_counter()
        mem.search(text, k=10, scope="bench", reference=reference, **kwargs)
        lat.append(time.perf_counter() - t0)
    out["e2e_50"] = percentile(lat, 50) * 1000
    out["e2e_95"] = percentile(lat, 95) * 1000
    out["rss_bytes"] = rss_bytes()
    out["rss_store_bytes"] = rss_bytes() - rss_model
    out["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out["graph_loaded"] = mem.backend._tables["facts"].vectors.ann_built
    mem.close()
    return out


def _bounds(result, reference, opts):
    """The time bounds the search used, for the brute-force scan over the same entries."""
    from graphmem.time.bounds import TemporalBounds
    from graphmem.time.instant import POS_INF, to_instant
    from graphmem.time.interval import Interval

    known_at = to_instant(opts["known_at"]) if "known_at" in opts else POS_INF
    if "as_of" in opts:
        return TemporalBounds.as_of(to_instant(opts["as_of"]), known_at=known_at)
    if result.window is not None:
        return TemporalBounds.during(Interval(*result.window), known_at=known_at)
    return TemporalBounds.as_of(reference, known_at=known_at)


def report(results: list[dict]) -> None:
    mb = 1 / 2**20
    print("\nSearch latency, embedded store: Memory.search(k=10), facts + episodes, all sources")
    print("vectors: SYNTHETIC (real MiniLM phrase embeddings + noise), written through "
          "Memory.apply with embeddings given")  # fmt: skip
    print("e2e = with query embedding (model runs); index = same search, query vector cached;")
    print("scan = brute-force numpy: same mask, one matrix product over every allowed vector\n")
    print(f"{'facts':>9} {'write s':>7} {'ann s':>6} | {'e2e p50':>7} {'p95':>6} | "
          f"{'scan e2e p50':>12} {'p95':>6} | {'ratio p50':>9} {'p95':>5} | {'index p50':>9} "
          f"{'p95':>6} | {'scan p50':>8} {'p95':>6} | {'ratio p50':>9} {'p95':>5} | "
          f"{'recall@10':>9} | {'RSS MiB':>7} {'index MiB':>9} {'ann MiB':>8}")  # fmt: skip
    for r in results:
        print(
            f"{r['facts']:>9,} {r['write_s']:>7.0f} {r['ann_build_s']:>6.0f} | "
            f"{r['e2e_50']:>7.1f} {r['e2e_95']:>6.1f} | {r['scan_e2e_50']:>12.1f} "
            f"{r['scan_e2e_95']:>6.1f} | {r['e2e_50'] / r['scan_e2e_50']:>9.2f} "
            f"{r['e2e_95'] / r['scan_e2e_95']:>5.2f} | {r['index_50']:>9.1f} {r['index_95']:>6.1f} | "
            f"{r['scan_50']:>8.1f} {r['scan_95']:>6.1f} | {r['index_50'] / r['scan_50']:>9.2f} "
            f"{r['index_95'] / r['scan_95']:>5.2f} | {r['vector_recall@10']:>9.3f} | "
            f"{r['rss_bytes'] * mb:>7.0f} {r['index_bytes'] * mb:>9.0f} {r['ann_bytes'] * mb:>8.0f}"
        )
    print("\nper mode, ms (e2e p50/p95 | index p50/p95 | scan p50/p95):")
    for r in results:
        for mode, v in r["modes"].items():
            print(f"  {r['facts']:>9,} {mode:<9} {v['e2e_50']:6.1f} /{v['e2e_95']:6.1f} | "
                  f"{v['index_50']:6.1f} /{v['index_95']:6.1f} | {v['scan_50']:6.1f} /"
                  f"{v['scan_95']:6.1f}")  # fmt: skip
    print("\nwrite and reopen (the reopened store in a fresh process; first search = keyword "
          "index filled + saved ANN index loaded):")  # fmt: skip
    print(f"{'facts':>9} {'facts/s':>8} {'close s':>7} {'vector files MiB':>16} | {'open s':>6} "
          f"{'RSS open MiB':>12} {'first search s':>14} {'e2e p50':>7} {'p95':>6} "
          f"{'RSS searching MiB':>17} {'peak MiB':>8} {'graph':>6}")  # fmt: skip
    for r in results:
        o = r["reopen"]
        print(f"{r['facts']:>9,} {r['write_facts_s']:>8,.0f} {r['close_s']:>7.1f} "
              f"{r['vector_file_bytes'] * mb:>16,.0f} | {o['open_s']:>6.2f} "
              f"{o['rss_open_bytes'] * mb:>12,.0f} {o['first_search_s']:>14.2f} "
              f"{o['e2e_50']:>7.1f} {o['e2e_95']:>6.1f} {o['rss_store_bytes'] * mb:>17,.0f} "
              f"{o['peak_rss_bytes'] * mb:>8,.0f} {'loaded' if o['graph_loaded'] else 'none':>6}")  # fmt: skip
    print("\nnotes:")
    for r in results:
        print(
            f"  {r['facts']:>9,}: {r['rows']:,} rows; mask allows {r['allowed_share']:.0%} of rows "
            f"on average; ANN index {'built' if r['ann'] else 'not built (exact scans)'} (used when "
            f"more than {r['exact_limit']:,} entries are allowed); query embedding alone "
            f"{r['embed_ms']:.1f} ms; vector index top-10 mean similarity / exact top-10's "
            f"{r['similarity_ratio']:.4f}; RSS of the store {r['rss_store_bytes'] * mb:.0f} MiB "
            f"(process {r['rss_bytes'] * mb:.0f}, peak {r['peak_rss_bytes'] * mb:.0f}); "
            f"SQLite file {r['file_bytes'] * mb:.0f} MiB; filling the (lazy) search indexes "
            f"{r['first_search_s']:.1f} s; gc.freeze {'on' if r['gc_freeze'] else 'off'}: "
            f"{r['gc_full']} full garbage collections during the {3 * r['queries']} timed "
            f"searches and scans, longest {r['gc_full_max_ms']:.0f} ms, all collections "
            f"{r['gc_total_ms']:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=20_000)
    parser.add_argument(
        "--torch-threads", type=int, default=1,
        help="intra-op threads for the query embedding (default 1: one short text gains "
        "nothing from more, and a busy machine makes them wait on each other); 0: torch's",
    )  # fmt: skip
    parser.add_argument(
        "--gc-freeze", action="store_true",
        help="gc.freeze() after loading: full collections stop walking the loaded rows",
    )  # fmt: skip
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--backend", choices=("embedded", "neo4j"), default="embedded",
        help="neo4j: bench_neo4j.py's search benchmark (Neo4j and the embedded store side "
        "by side; GRAPHMEM_NEO4J_URI, --scopes tenants)",
    )  # fmt: skip
    parser.add_argument("--scopes", default="1,1000", help="with --backend neo4j")
    parser.add_argument(
        "--warm", type=int, default=4,
        help="untimed searches of other questions before the timed ones (default 4: the code "
        "paths; a few hundred also bring the mapped files' pages in, as a running server has)",
    )  # fmt: skip
    parser.add_argument("--reopen", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.backend == "neo4j":  # kept apart: bench_neo4j.py owns the Neo4j side
        import bench_neo4j

        uri = os.environ.get("GRAPHMEM_NEO4J_URI", "bolt://127.0.0.1:7687")
        sizes, scopes = (list(map(int, x.split(","))) for x in (args.sizes, args.scopes))
        bench_neo4j.search_main(sizes, scopes, args.queries, min(args.batch, 2000), uri, 1)
        return
    if args.reopen is not None:
        import torch

        torch.set_num_threads(max(1, args.torch_threads))
        print("REOPEN " + json.dumps(reopen(args.reopen, args.queries, args.warm)), flush=True)
        return
    if args.one is not None:
        if args.torch_threads:
            import torch

            torch.set_num_threads(args.torch_threads)
        result = run_one(args.one, args.queries, args.batch, args.gc_freeze, args.warm)
        print("RESULT " + json.dumps(result), flush=True)
        return
    print(f"torch intra-op threads for query embedding: {args.torch_threads or 'default'}; "
          f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    results = []
    for size in [int(s) for s in args.sizes.split(",")]:
        print(f"{size:,} facts ...", flush=True)
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--queries", str(args.queries),
             "--batch", str(args.batch), "--torch-threads", str(args.torch_threads),
             "--warm", str(args.warm)]
            + (["--gc-freeze"] if args.gc_freeze else []),
            capture_output=True, text=True,
        )  # fmt: skip
        lines = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
        if proc.returncode != 0 or not lines:
            print(proc.stdout[-2000:], proc.stderr[-4000:])
            raise SystemExit(f"size {size} failed")
        results.append(json.loads(lines[-1][len("RESULT ") :]))
        r = results[-1]
        print(f"  done in {time.perf_counter() - started:.0f} s: write {r['write_s']:.0f} s, "
              f"ANN build {r['ann_build_s']:.0f} s, e2e p50 {r['e2e_50']:.1f} ms, "
              f"p95 {r['e2e_95']:.1f} ms", flush=True)  # fmt: skip
    report(results)


if __name__ == "__main__":
    main()
