"""Where a Neo4j write batch spends its time: per statement, driver vs server, and db hits.

    GRAPHMEM_NEO4J_URI=bolt://127.0.0.1:7698 python bench/profile_neo4j_writes.py \
        --facts 8000 --batch 2000 [--vectors] [--profile]

Loads ``bench_neo4j.load``'s workload (four supersessions per person, one scope) through
``Memory.apply`` and prints, for every batch: the begin (clock lock + current rows), each
write statement (wall time in the driver, the server's ``available + consumed`` time,
and the records sent), and the commit. With ``--profile`` every write statement runs
under ``PROFILE`` and its db hits are printed too (PROFILE slows the server: time one
run without it). ``--combined`` runs a batch's statements as the backend does, as one
(``writes.combined``), so the breakdown shows one statement. ``--vectors`` gives every fact a (random, unit) 384-d vector, so the
commit inserts it into the HNSW index. The database is wiped first.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import defaultdict
from datetime import timedelta
from typing import Any

import numpy as np

from graphmem import Memory
from graphmem.model import CandidateFact, text_owner
from graphmem.store.neo4j import backend as neo
from graphmem.store.neo4j import cypher as cypher_module
from graphmem.time.instant import to_instant

BASE = to_instant("2020-01-01")
CITIES = [f"city-{i}" for i in range(200)]
NAMES = {v: k for k, v in vars(cypher_module).items() if isinstance(v, str) and k.isupper()}


def server_pid() -> int | None:
    """The Neo4j java process of ``$GRAPHMEM_NEO4J_DIR`` (its CPU time is read from /proc)."""
    path = os.path.join(os.environ.get("GRAPHMEM_NEO4J_DIR", ".neo4j"), "neo4j.pid")
    if not os.path.exists(path):
        return None
    with open(path) as pid:
        return int(pid.read())


PID = server_pid()
TICK = os.sysconf("SC_CLK_TCK")


def server_cpu() -> float:
    """CPU seconds the server has used (user + system; 0 when it is not ours to read).
    CPU time, unlike wall time, hardly moves with what else runs on a shared machine."""
    if PID is None:
        return 0.0
    with open(f"/proc/{PID}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def settle(limit: float = 30.0) -> None:
    """Wait (at most ``limit`` s) until the server is idle: after a wipe it deletes index
    entries and merges Lucene segments for a while, which would be charged to the run."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        before = server_cpu()
        time.sleep(1.0)
        if server_cpu() - before < 0.1:
            return


def db_hits(plan: Any) -> int:
    """Total db hits of a PROFILE plan (the driver's nested dict)."""
    return int(plan.get("dbHits", 0)) + sum(db_hits(c) for c in plan.get("children", []))


class Recorder:
    """Wraps the backend's statement runner and its session's commit to time them."""

    def __init__(self, profile: bool, combined: bool):
        self.profile, self.combined = profile, combined
        self.rows: list[dict[str, Any]] = []
        self.batch: dict[str, float] = defaultdict(float)

    def install(self) -> None:
        recorder = self
        init, commit = neo._Session.__init__, neo._Session.commit

        def timed_apply(self: neo.Neo4jBackend, tx: Any, statements: Any) -> None:
            if recorder.combined and statements:
                statements = [neo.combined(statements)]
            for statement in statements:
                cypher = ("PROFILE " if recorder.profile else "") + statement.cypher
                t0, c0 = time.perf_counter(), server_cpu()
                result = self._run(tx, cypher, **statement.params)
                record = result.single() if statement.check else None
                summary = result.consume()
                wall = time.perf_counter() - t0
                if statement.check and (problem := statement.check(record)) is not None:
                    raise AssertionError(problem)
                server = (summary.result_available_after or 0) + (
                    summary.result_consumed_after or 0
                )
                items = next(iter(statement.params.values()))
                recorder.rows.append({
                    "statement": NAMES.get(statement.cypher, statement.cypher.strip()[:40]),
                    "records": len(items) if isinstance(items, list) else 1,
                    "wall": wall,
                    "server": server / 1000,
                    "cpu": server_cpu() - c0,
                    "hits": db_hits(summary.profile) if summary.profile else None,
                })  # fmt: skip

        def timed_init(self: Any, *args: Any, **kwargs: Any) -> None:
            t0, c0 = time.perf_counter(), server_cpu()
            init(self, *args, **kwargs)
            recorder.batch["begin"] = time.perf_counter() - t0
            recorder.batch["begin_cpu"] = server_cpu() - c0

        def timed_commit(self: Any, batch: Any) -> None:
            t0 = time.perf_counter()
            tx_commit = self._tx.commit

            def commit_only() -> None:
                t1, c1 = time.perf_counter(), server_cpu()
                tx_commit()
                recorder.batch["commit"] = time.perf_counter() - t1
                recorder.batch["commit_cpu"] = server_cpu() - c1

            self._tx.commit = commit_only
            commit(self, batch)
            recorder.batch["statements+commit"] = time.perf_counter() - t0

        neo.Neo4jBackend._apply = timed_apply
        neo._Session.__init__ = timed_init
        neo._Session.commit = timed_commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", default=os.environ.get("GRAPHMEM_NEO4J_URI"))
    parser.add_argument("--facts", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--vectors", action="store_true")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--combined", action="store_true",
                        help="a batch's statements as one (what the backend runs), not one by one")  # fmt: skip
    parser.add_argument(
        "--drop-index",
        default="",
        help="indexes to drop for this run "
        "(comma-separated names; the schema is applied again at the end)",
    )
    args = parser.parse_args()
    recorder = Recorder(args.profile, args.combined)
    recorder.install()
    dropped = [name for name in args.drop_index.split(",") if name]
    mem = Memory.open(args.uri, embedder=None, apply_schema=not dropped)
    mem.backend.drop_all()
    with mem.backend._session() as session:
        for name in dropped:
            session.run(f"DROP INDEX {name} IF EXISTS").consume()
            session.run(f"DROP CONSTRAINT {name} IF EXISTS").consume()
    settle()
    people, rng, vrng = max(1, args.facts // 4), random.Random(3), np.random.default_rng(1)
    total_start = time.perf_counter()
    totals = {"server": 0.0, "client": 0.0}
    for move in range(4):
        since = BASE + timedelta(days=180 * move)
        ops = [CandidateFact(op="supersede", subject=f"person-{p}", predicate="lives_in",
                             object=rng.choice(CITIES), valid_from=since, scope="bench")
               for p in range(people)]  # fmt: skip
        for i in range(0, len(ops), args.batch):
            chunk = ops[i : i + args.batch]
            vectors = None
            if args.vectors:
                vectors = {}
                for op in chunk:
                    v = vrng.standard_normal(384).astype(np.float32)
                    text = mem.registry.get(op.predicate).render(op.subject, op.object)
                    vectors[text_owner(op.scope, text)] = (v / np.linalg.norm(v)).tolist()
            recorder.rows.clear()
            recorder.batch.clear()
            t0, c0, p0 = time.perf_counter(), server_cpu(), time.process_time()
            mem.apply(chunk, embeddings=vectors)
            wall = time.perf_counter() - t0
            cpu, client = server_cpu() - c0, time.process_time() - p0
            totals["server"] += cpu
            totals["client"] += client
            b = recorder.batch
            statements = sum(r["wall"] for r in recorder.rows)
            print(
                f"\n  CPU: server {cpu:.2f} s (begin {b['begin_cpu']:.2f}, commit "
                f"{b['commit_cpu']:.2f}), client {client:.2f} s",
                end="",
            )
            print(f"\nmove {move} batch {i // args.batch}: {len(chunk)} facts in {wall:.2f} s "
                  f"({len(chunk) / wall:,.0f} facts/s): begin {b['begin']:.2f} s, statements "
                  f"{statements:.2f} s, commit {b['commit']:.2f} s, python "
                  f"{wall - b['begin'] - b['statements+commit']:.2f} s")  # fmt: skip
            for r in recorder.rows:
                hits = f" {r['hits']:>10,} hits" if r["hits"] is not None else ""
                print(f"  {r['statement']:<28} {r['records']:>6} rec  wall {r['wall']:6.3f} s  "
                      f"server {r['server']:6.3f} s  cpu {r['cpu']:6.3f} s{hits}")  # fmt: skip
    elapsed = time.perf_counter() - total_start
    cpu = totals["server"] + totals["client"]
    print(
        f"\n{args.facts:,} facts in {elapsed:.1f} s: {args.facts / elapsed:,.0f} facts/s; "
        f"CPU server {totals['server']:.1f} s + client {totals['client']:.1f} s = "
        f"{args.facts / cpu:,.0f} facts per CPU-second"
    )
    mem.backend.drop_all()
    mem.backend.apply_schema()
    mem.close()


if __name__ == "__main__":
    main()
