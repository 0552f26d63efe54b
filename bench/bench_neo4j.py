"""Load N facts into Neo4j and into the embedded store in the same run; compare.

    scripts/neo4j/start.sh
    .venv/bin/python bench/bench_neo4j.py --uri bolt://127.0.0.1:7687 --facts 100000

Prints facts/second (batched writes through the same write path) and time-sliced query
latency p50/p95 (one subject, as_of; and as_of + known_at) for both backends, with the
ratio Neo4j / embedded. The Neo4j database is wiped first: use a test instance.
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


def load(mem: Memory, n: int, batch: int) -> float:
    people = max(1, n // 4)
    rng = random.Random(3)
    started = time.perf_counter()
    for move in range(4):
        since = BASE + timedelta(days=180 * move)
        ops = [
            CandidateFact(op="supersede", subject=f"person-{p}", predicate="lives_in",
                          object=rng.choice(CITIES), valid_from=since, scope="bench")
            for p in range(people)
        ]  # fmt: skip
        for i in range(0, len(ops), batch):
            mem.apply(ops[i : i + batch])
    return time.perf_counter() - started


def queries(mem: Memory, n: int, count: int) -> tuple[list[float], list[float]]:
    people = max(1, n // 4)
    rng = random.Random(9)
    middle = mem.backend.clock("bench").assigned - timedelta(seconds=2)
    as_of_lat, known_lat = [], []
    for _ in range(count):
        who = f"person-{rng.randrange(people)}"
        when = BASE + timedelta(days=rng.randrange(720))
        t0 = time.perf_counter()
        mem.facts(who, "lives_in", as_of=when, scope="bench")
        as_of_lat.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        mem.facts(who, "lives_in", as_of=when, known_at=middle, scope="bench")
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
    args = parser.parse_args()

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        embedded = Memory.open(os.path.join(tmp, "bench.db"), embedder=None, durability="normal")
        neo = Memory.open(args.uri, embedder=None)
        neo.backend.drop_all()
        for name, mem in (("embedded", embedded), ("neo4j", neo)):
            seconds = load(mem, args.facts, args.batch)
            rows = mem.stats()["rows"]
            results[name] = (args.facts / seconds, rows, *queries(mem, args.facts, args.queries))
            mem.close()

    ms = lambda s: s * 1000  # noqa: E731
    print(
        f"{args.facts:,} facts (supersessions over {args.facts // 4:,} people), batches of {args.batch}"
    )
    print(f"{'metric':34} {'embedded':>12} {'neo4j':>12} {'neo4j/emb':>10}")
    e, n = results["embedded"], results["neo4j"]
    print(f"{'write facts/s':34} {e[0]:12,.0f} {n[0]:12,.0f} {e[0] / n[0]:9.1f}x slower")
    print(f"{'bitemporal rows':34} {e[1]:12,} {n[1]:12,}")
    for label, index in (("as_of", 2), ("as_of + known_at", 3)):
        for q in (50, 95):
            a, b = ms(percentile(e[index], q)), ms(percentile(n[index], q))
            print(f"{f'{label} p{q} (ms)':34} {a:12.3f} {b:12.3f} {b / a:9.0f}x")


if __name__ == "__main__":
    main()
