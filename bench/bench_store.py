"""Write and query N facts on the embedded store, against a plain-dict baseline (same run).

    .venv/bin/python bench/bench_store.py --facts 100000

Prints facts/second for batched and single-call writes, point-in-time query latency
(p50/p95, as_of and known_at) and file bytes per fact, each with its ratio to a plain
Python dict doing the same logical work (no durability, no bitemporal rows): the floor.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from datetime import timedelta

from graphmem import FactInput, Memory
from graphmem.time.instant import to_instant

BASE = to_instant("2020-01-01")
CITIES = [f"city-{i}" for i in range(200)]


def percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100)[int(q) - 1] if len(samples) > 1 else samples[0]


def workload(n: int, seed: int = 7) -> list[tuple[str, str, int]]:
    """n facts over n/4 people: each moves a few times (functional supersessions)."""
    rng = random.Random(seed)
    people = max(1, n // 4)
    return [(f"person-{i % people}", rng.choice(CITIES), i // people) for i in range(n)]


def bench_dict(facts, queries):
    store: dict[tuple[str, str], list[tuple[str, int, int]]] = {}
    t0 = time.perf_counter()
    for person, city, move in facts:
        rows = store.setdefault((person, "lives_in"), [])
        if rows:
            value, start, _ = rows[-1]
            rows[-1] = (value, start, move)
        rows.append((city, move, 10**9))
    write_s = time.perf_counter() - t0
    lat = []
    for person, move in queries:
        q0 = time.perf_counter()
        _ = [v for v, a, b in store.get((person, "lives_in"), []) if a <= move < b]
        lat.append(time.perf_counter() - q0)
    return write_s, lat


def bench_graphmem(path, facts, queries, batch):
    # Store cost only: embeddings are measured by the retrieval benchmarks.
    mem = Memory.open(path, embedder=None, durability="normal" if batch > 1 else "full")
    scope = "bench"
    t0 = time.perf_counter()
    by_move: dict[int, list] = {}
    for person, city, move in facts:
        by_move.setdefault(move, []).append((person, city))
    for move in sorted(by_move):
        since = BASE + timedelta(days=30 * move)
        items = by_move[move]
        for i in range(0, len(items), batch):
            ops = [
                FactInput(subject=p, predicate="lives_in", object=c, valid_from=since, scope=scope)
                for p, c in items[i : i + batch]
            ]
            if move == 0:
                mem.remember_many(ops)
            else:
                from graphmem.model import CandidateFact

                mem.apply(
                    [
                        CandidateFact(op="supersede", subject=o.subject, predicate=o.predicate,
                                      object=o.object, valid_from=o.valid_from, scope=scope)
                        for o in ops
                    ]
                )  # fmt: skip
    write_s = time.perf_counter() - t0
    mid = time.perf_counter()
    lat_as_of, lat_known = [], []
    for person, move in queries:
        as_of = BASE + timedelta(days=30 * move + 1)
        q0 = time.perf_counter()
        mem.facts(person, "lives_in", as_of=as_of, scope=scope)
        lat_as_of.append(time.perf_counter() - q0)
        q0 = time.perf_counter()
        mem.facts(person, "lives_in", as_of=as_of, known_at=mid_instant(mem), scope=scope)
        lat_known.append(time.perf_counter() - q0)
    stats = mem.stats()
    mem.close()
    reopen0 = time.perf_counter()
    Memory.open(path, embedder=None).close()
    reopen_s = time.perf_counter() - reopen0
    _ = mid
    return write_s, lat_as_of, lat_known, stats, reopen_s


_MID = {}


def mid_instant(mem):
    if "t" not in _MID:
        _MID["t"] = mem.backend.clock("bench").assigned - timedelta(seconds=1)
    return _MID["t"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--batch", type=int, default=1_000, help="facts per write call")
    parser.add_argument("--single", type=int, default=2_000, help="single-call writes to time")
    args = parser.parse_args()

    facts = workload(args.facts)
    rng = random.Random(11)
    moves = max(m for _, _, m in facts) + 1
    people = max(1, args.facts // 4)
    queries = [
        (f"person-{rng.randrange(people)}", rng.randrange(moves)) for _ in range(args.queries)
    ]

    d_write, d_lat = bench_dict(facts, queries)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.db")
        g_write, g_as_of, g_known, stats, reopen_s = bench_graphmem(
            path, facts, queries, args.batch
        )
        single_path = os.path.join(tmp, "single.db")
        s_write, *_ = bench_graphmem(single_path, facts[: args.single], queries[:10], 1)

    d_rate = len(facts) / d_write
    g_rate = len(facts) / g_write
    s_rate = args.single / s_write
    ms = lambda s: s * 1000  # noqa: E731
    print(
        f"facts written: {len(facts):,} ({stats['rows']:,} bitemporal rows, {stats['entities']:,} entities)"
    )
    print(f"{'metric':44} {'graphmem':>12} {'plain dict':>12} {'ratio':>8}")
    print(
        f"{f'write facts/s (batches of {args.batch})':44} {g_rate:12,.0f} {d_rate:12,.0f} {d_rate / g_rate:8.1f}x"
    )
    print(
        f"{'write facts/s (one call each, fsync)':44} {s_rate:12,.0f} {d_rate:12,.0f} {d_rate / s_rate:8.1f}x"
    )
    for name, lat in (("as_of query", g_as_of), ("as_of + known_at query", g_known)):
        for q in (50, 95):
            g, d = ms(percentile(lat, q)), ms(percentile(d_lat, q))
            print(f"{f'{name} p{q} (ms)':44} {g:12.3f} {d:12.4f} {g / d:8.0f}x")
    print(f"{'file bytes per fact':44} {stats['bytes'] / len(facts):12.0f} {'-':>12} {'':>8}")
    print(f"{'reopen (load mirror) seconds':44} {reopen_s:12.2f}")


if __name__ == "__main__":
    main()
