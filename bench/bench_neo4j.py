"""Load N facts into Neo4j and into the embedded store in the same run; compare.

    scripts/neo4j/start.sh
    .venv/bin/python bench/bench_neo4j.py --uri bolt://127.0.0.1:7687 --facts 100000
    .venv/bin/python bench/bench_neo4j.py --search-sizes 10000,100000 --scopes 1,1000

Prints facts/second (batched writes through the same write path) and time-sliced query
latency p50/p95 (one subject, as_of; and as_of + known_at) for both backends, with the
ratio Neo4j / embedded. The Neo4j database is wiped first: use a test instance.

With ``--search-sizes`` (also ``bench_search_latency.py --backend neo4j``): the search
benchmark instead, on both backends with the same facts, vectors and questions, the
facts spread over each ``--scopes`` count of tenants: write facts/s, search p50/p95 per
mode (with and without the query embedding), recall@10 against each backend's exact scan
of the same scope and bounds, and that scan's latency.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from datetime import timedelta

from graphmem import Memory
from graphmem.model import CandidateFact
from graphmem.time.instant import to_instant

BASE = to_instant("2020-01-01")
CITIES = [f"city-{i}" for i in range(200)]


def percentile(samples: list[float], q: int) -> float:
    return statistics.quantiles(samples, n=100)[q - 1]


def scope_of(person: int, writers: int) -> str:
    """One scope with one writer (``bench``); else person i is in ``bench-<i % writers>``."""
    return "bench" if writers <= 1 else f"bench-{person % writers}"


def load(mem: Memory, n: int, batch: int, writers: int = 1) -> float:
    """Four supersessions per person in batches; with ``writers`` > 1 the people are
    spread over that many scopes, each written by its own thread (writers of different
    scopes run at once; one scope's batches stay in order, its clock orders them)."""
    from concurrent.futures import ThreadPoolExecutor

    people = max(1, n // 4)
    rng = random.Random(3)
    work: dict[str, list[list[CandidateFact]]] = {}
    for move in range(4):
        since = BASE + timedelta(days=180 * move)
        ops = [
            CandidateFact(op="supersede", subject=f"person-{p}", predicate="lives_in",
                          object=rng.choice(CITIES), valid_from=since,
                          scope=scope_of(p, writers))
            for p in range(people)
        ]  # fmt: skip
        for scope in dict.fromkeys(op.scope for op in ops):
            mine = [op for op in ops if op.scope == scope]
            work.setdefault(scope, []).extend(
                mine[i : i + batch] for i in range(0, len(mine), batch)
            )
    started = time.perf_counter()
    with ThreadPoolExecutor(max(1, writers)) as pool:
        list(pool.map(lambda chunks: [mem.apply(c) for c in chunks], work.values()))
    return time.perf_counter() - started


def queries(mem: Memory, n: int, count: int, writers: int = 1) -> tuple[list[float], list[float]]:
    people = max(1, n // 4)
    rng = random.Random(9)
    middle = {s: mem.backend.clock(s).assigned - timedelta(seconds=2)
              for s in {scope_of(p, writers) for p in range(min(people, writers))}}  # fmt: skip
    as_of_lat, known_lat = [], []
    for _ in range(count):
        person = rng.randrange(people)
        who, scope = f"person-{person}", scope_of(person, writers)
        when = BASE + timedelta(days=rng.randrange(720))
        t0 = time.perf_counter()
        mem.facts(who, "lives_in", as_of=when, scope=scope)
        as_of_lat.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        mem.facts(who, "lives_in", as_of=when, known_at=middle[scope], scope=scope)
        known_lat.append(time.perf_counter() - t0)
    return as_of_lat, known_lat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--uri", default=os.environ.get("GRAPHMEM_NEO4J_URI", "bolt://127.0.0.1:7687")
    )
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=2_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument(
        "--search-sizes", default=None,
        help="instead: the search benchmark at these sizes (e.g. 10000,100000), side by "
        "side with the embedded store",
    )  # fmt: skip
    parser.add_argument("--scopes", default="1,1000", help="tenant counts, for --search-sizes")
    parser.add_argument("--writers", type=int, default=1,
                        help="concurrent Neo4j writers, each over its own scope")  # fmt: skip
    args = parser.parse_args()
    if args.search_sizes:
        search_main([int(x) for x in args.search_sizes.split(",")],
                    [int(x) for x in args.scopes.split(",")], min(args.queries, 200),
                    args.batch, args.uri, args.writers)  # fmt: skip
        return

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        embedded = Memory.open(os.path.join(tmp, "bench.db"), embedder=None, durability="normal")
        neo = Memory.open(args.uri, embedder=None)
        neo.backend.drop_all()
        for name, mem in (("embedded", embedded), ("neo4j", neo)):
            writers = args.writers if name == "neo4j" else 1  # the embedded store: one writer
            seconds = load(mem, args.facts, args.batch, writers)
            rows = mem.stats()["rows"]
            results[name] = (args.facts / seconds, rows,
                             *queries(mem, args.facts, args.queries, writers))  # fmt: skip
            mem.close()

    ms = lambda s: s * 1000  # noqa: E731
    print(
        f"{args.facts:,} facts (supersessions over {args.facts // 4:,} people), batches of "
        f"{args.batch}, {args.writers} Neo4j writer(s) over as many scopes"
    )
    print(f"{'metric':34} {'embedded':>12} {'neo4j':>12} {'neo4j/emb':>10}")
    e, n = results["embedded"], results["neo4j"]
    print(f"{'write facts/s':34} {e[0]:12,.0f} {n[0]:12,.0f} {e[0] / n[0]:9.1f}x slower")
    print(f"{'bitemporal rows':34} {e[1]:12,} {n[1]:12,}")
    for label, index in (("as_of", 2), ("as_of + known_at", 3)):
        for q in (50, 95):
            a, b = ms(percentile(e[index], q)), ms(percentile(n[index], q))
            print(f"{f'{label} p{q} (ms)':34} {a:12.3f} {b:12.3f} {b / a:9.0f}x")


# -- search, side by side (bench_search_latency.py --backend neo4j) -----------------------


def synthetic_facts(n: int, scopes: int, embedder) -> tuple[list, dict]:
    """bench_search_latency's workload (n facts over n/8 people, valid intervals) and its
    SYNTHETIC vectors (real MiniLM phrase + name embeddings, noise), spread over
    ``scopes`` tenants: person i lives in tenant ``i % scopes``."""
    import bench_search_latency as bsl
    import numpy as np

    from graphmem.model import CandidateFact, text_owner
    from graphmem.predicates import PredicateRegistry
    from graphmem.time.instant import POS_INF

    registry = PredicateRegistry.with_builtins()
    phrases = {("lives_in", c): f"lives in {c}" for c in bsl.CITIES}
    phrases |= {("works_at", c): f"works at {c}" for c in bsl.COMPANIES}
    phrases |= {("hobby", h): f"hobby: {h}" for h in bsl.HOBBIES}
    phrases |= {("owns_pet", p): f"has a pet {p}" for p in bsl.PETS}
    keys = list(phrases)
    base = dict(zip(keys, embedder.embed([phrases[k] for k in keys]), strict=True))
    firsts = dict(zip(bsl.FIRST, embedder.embed(bsl.FIRST), strict=True))
    lasts = dict(zip(bsl.LAST, embedder.embed(bsl.LAST), strict=True))
    rng = np.random.default_rng(3)
    noise = 0.3 / np.sqrt(384)
    ops, vectors, people = [], {}, {}
    for subject, predicate, obj, start, end in bsl.workload(n):
        scope = f"tenant-{people.setdefault(subject, len(people)) % scopes}"
        ops.append(CandidateFact(
            op="assert", subject=subject, predicate=predicate, object=obj, scope=scope,
            valid_from=bsl.day(start) if start else "2000-01-01",
            valid_to=bsl.day(end) if end else POS_INF,
        ))  # fmt: skip
        first, last = subject.split(" ", 1)
        v = (base[(predicate, obj)] + 0.6 * firsts[first] + 0.6 * lasts[last.rsplit("-", 1)[0]]
             + rng.standard_normal(384).astype(np.float32) * noise)  # fmt: skip
        text = registry.get(predicate).render(subject, obj)
        vectors[text_owner(scope, text)] = v / np.linalg.norm(v)
    return ops, vectors


def load_facts(mem: Memory, ops: list, vectors: dict, batch: int, writers: int = 1) -> float:
    """Write ``ops`` in batches of ``batch`` (each batch one scope's facts, recorded at
    times spread over 2012-2022), ``writers`` batches at a time; returns facts/s."""
    from concurrent.futures import ThreadPoolExecutor

    import bench_search_latency as bsl

    from graphmem.model import text_owner

    by_scope: dict[str, list] = {}
    for op in ops:
        by_scope.setdefault(op.scope, []).append(op)
    batches = []
    for scope_ops in by_scope.values():
        batches += [scope_ops[i : i + batch] for i in range(0, len(scope_ops), batch)]
    # One scope's batches in order (its clock must advance); scopes interleaved.
    per_scope: dict[str, int] = {}
    jobs = []
    for chunk in batches:
        scope = chunk[0].scope
        per_scope[scope] = per_scope.get(scope, 0) + 1
        jobs.append((per_scope[scope], scope, chunk))
    jobs.sort(key=lambda j: (j[0], j[1]))
    registry = mem.registry

    def write(job) -> None:
        rank, scope, chunk = job
        emb = {}
        for op in chunk:
            key = text_owner(scope, registry.get(op.predicate).render(op.subject, op.object))
            emb[key] = vectors[key]
        when = bsl.day(min(4000, rank * 4000 // max(1, per_scope[scope])))
        mem.apply(chunk, embeddings=emb, recorded_at=when)

    started = time.perf_counter()
    if writers <= 1:
        for job in jobs:
            write(job)
    else:  # a scope's batches never run at once: its clock orders them
        for rank in sorted({j[0] for j in jobs}):
            with ThreadPoolExecutor(writers) as pool:
                list(pool.map(write, [j for j in jobs if j[0] == rank]))
    return len(ops) / (time.perf_counter() - started)


def search_plan(ops: list, count: int, reference):
    """(scope, query text, mode, bounds) for ``count`` searches over random tenants."""
    import bench_search_latency as bsl

    from graphmem.time.bounds import TemporalBounds
    from graphmem.time.instant import to_instant
    from graphmem.time.interval import Interval

    rng = random.Random(5)
    out = []
    for i in range(count):
        op = ops[rng.randrange(len(ops))]
        who, kind = op.subject, i % 4
        if kind == 0:
            out.append((op.scope, f"where does {who} live now? ({i})", "current",
                        TemporalBounds.as_of(reference)))  # fmt: skip
        elif kind == 1:
            when = to_instant(bsl.day(rng.randrange(0, 4000)))
            out.append((op.scope, f"who works at {rng.choice(bsl.COMPANIES)} with {who}? ({i})",
                        "as_of", TemporalBounds.as_of(when)))  # fmt: skip
        elif kind == 2:
            year = rng.randrange(2012, 2023)
            window = Interval(to_instant(f"{year}-01-01"), to_instant(f"{year + 1}-01-01"))
            out.append((op.scope, f"which hobbies did {who} pick up in {year}? ({i})",
                        "window", TemporalBounds.during(window)))  # fmt: skip
        else:
            known = to_instant(bsl.day(rng.randrange(0, 4000)))
            out.append((op.scope, f"what pet does {who} have ({i})", "known_at",
                        TemporalBounds.as_of(reference, known_at=known)))  # fmt: skip
    return out


def exact_limit(backend_name: str, value: int):
    """Set the backend's exact-scan limit (``value``) and return the old one."""
    if backend_name == "neo4j":
        from graphmem.store.neo4j import backend as module
    else:
        from graphmem.store.embedded import vector_index as module
    old, module.EXACT_LIMIT = module.EXACT_LIMIT, value
    return old


def time_searches(name: str, mem: Memory, plan: list, embedder) -> dict:
    """p50/p95 per mode (end to end with the query embedding, and the store alone), and
    recall@10 of the vector results against the exact scan of the same scope and bounds
    (the backend's own exact path, forced), with that scan's latency."""
    from graphmem.store.protocol import RowQuery

    backend = mem.backend
    warm = embedder.embed(["warm up"])[0]
    for scope, text, _, bounds in plan[:5]:
        backend.search("facts", RowQuery(scope, bounds), vector=warm, text=text, k=10)
    timing: dict[str, dict[str, list[float]]] = {}
    found = []
    for scope, text, mode, bounds in plan:
        got = timing.setdefault(mode, {"e2e": [], "store": [], "exact": []})
        t0 = time.perf_counter()
        q = embedder.embed([f"{text} [{name}]"])[0]  # a text not seen yet: the model runs
        t1 = time.perf_counter()
        hits = backend.search("facts", RowQuery(scope, bounds), vector=q, text=text, k=10)
        t2 = time.perf_counter()
        got["e2e"].append(t2 - t0)
        got["store"].append(t2 - t1)
        found.append((q, hits))
    index_sets: list[set[str] | None] = [None] * len(plan)
    if name == "neo4j":  # the other path, for the threshold: the vector index, always
        old = exact_limit(name, -1)
        try:
            for n, ((scope, _text, mode, bounds), (q, _)) in enumerate(
                zip(plan, found, strict=True)
            ):
                t0 = time.perf_counter()
                hits = backend.search("facts", RowQuery(scope, bounds), vector=q, text=None, k=10)
                timing[mode].setdefault("index", []).append(time.perf_counter() - t0)
                index_sets[n] = {i for i, _ in hits["vector"]}
        finally:
            exact_limit(name, old)
    old = exact_limit(name, 10**12)  # the embedded store's exact scan: no limit
    recalls, forced = [], []
    try:
        for (scope, _text, mode, bounds), (q, hits), index_set in zip(
            plan, found, index_sets, strict=True
        ):
            t0 = time.perf_counter()
            if hasattr(backend, "exact_search"):
                exact = backend.exact_search("facts", RowQuery(scope, bounds), vector=q, k=10)
            else:
                exact = backend.search("facts", RowQuery(scope, bounds), vector=q, text=None, k=10)[
                    "vector"
                ]
            timing[mode]["exact"].append(time.perf_counter() - t0)
            truth = {i for i, _ in exact}
            if truth:
                recalls.append(len(truth & {i for i, _ in hits["vector"]}) / len(truth))
                if index_set is not None:
                    forced.append(len(truth & index_set) / len(truth))
    finally:
        exact_limit(name, old)
    out = {"recall": statistics.mean(recalls) if recalls else float("nan"), "modes": {},
           "index_recall": statistics.mean(forced) if forced else float("nan")}  # fmt: skip
    every: dict[str, list[float]] = {}
    for mode, got in timing.items():
        out["modes"][mode] = {m: (pct(v, 50), pct(v, 95)) for m, v in got.items()}
        for m, v in got.items():
            every.setdefault(m, []).extend(v)
    out["all"] = {m: (pct(v, 50), pct(v, 95)) for m, v in every.items()}
    return out


def pct(samples: list[float], q: int) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def search_main(sizes: list[int], scopes: list[int], n_queries: int, batch: int,
                uri: str, writers: int, backends: tuple[str, ...] = ("embedded", "neo4j")) -> None:  # fmt: skip
    """Load each size (for each tenant count) into each backend; print the table."""
    from graphmem.retrieval.embedder import default_embedder
    from graphmem.time.instant import to_instant

    embedder = default_embedder()
    reference = to_instant("2023-06-01")
    rows = []
    for n in sizes:
        for s in scopes:
            ops, vectors = synthetic_facts(n, s, embedder)
            plan = search_plan(ops, n_queries, reference)
            for name in backends:
                with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
                    if name == "neo4j":
                        mem = Memory.open(uri, embedder=embedder)
                        mem.backend.drop_all()
                    else:
                        mem = Memory.open(os.path.join(tmp, "m.db"), embedder=embedder,
                                          durability="normal")  # fmt: skip
                    rate = load_facts(mem, ops, vectors, batch, writers if name == "neo4j" else 1)
                    result = time_searches(name, mem, plan, embedder)
                    result |= {"backend": name, "facts": n, "scopes": s, "write": rate,
                               "rows": mem.stats()["rows"]}  # fmt: skip
                    mem.close()
                rows.append(result)
                r = result
                print(f"  {name} {n:,} facts / {s:,} scopes: write {rate:,.0f} facts/s, store "
                      f"p50/p95 {r['all']['store'][0]:.1f}/{r['all']['store'][1]:.1f} ms, recall@10 "
                      f"{r['recall']:.3f}", flush=True)  # fmt: skip
    print("\nSearch, side by side: backend.search('facts', k=10, vector + keyword), SYNTHETIC "
          "vectors (bench_search_latency's workload), tenants of equal size")  # fmt: skip
    print("e2e = query embedding + store; exact = the backend's exact scan of the same scope "
          "and bounds (recall@10 is measured against it)\n")  # fmt: skip
    print(f"{'backend':>8} {'facts':>9} {'scopes':>6} {'rows':>9} {'write f/s':>9} | "
          f"{'e2e p50':>7} {'p95':>6} | {'store p50':>9} {'p95':>6} | {'exact p50':>9} "
          f"{'p95':>6} | {'recall@10':>9} | {'index-only p50':>14} {'p95':>6} {'recall':>6}")  # fmt: skip
    for r in rows:
        a = r["all"]
        print(f"{r['backend']:>8} {r['facts']:>9,} {r['scopes']:>6,} {r['rows']:>9,} "
              f"{r['write']:>9,.0f} | {a['e2e'][0]:>7.1f} {a['e2e'][1]:>6.1f} | "
              f"{a['store'][0]:>9.1f} {a['store'][1]:>6.1f} | {a['exact'][0]:>9.1f} "
              f"{a['exact'][1]:>6.1f} | {r['recall']:>9.3f} | {a.get('index', (0, 0))[0]:>14.1f} "
              f"{a.get('index', (0, 0))[1]:>6.1f} {r['index_recall']:>6.3f}")  # fmt: skip
    print("\nper mode, ms (store p50/p95 | exact p50/p95):")
    for r in rows:
        for mode, v in r["modes"].items():
            print(f"  {r['backend']:>8} {r['facts']:>9,} {r['scopes']:>6,} {mode:<9} "
                  f"{v['store'][0]:6.1f} /{v['store'][1]:6.1f} | {v['exact'][0]:6.1f} /"
                  f"{v['exact'][1]:6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
