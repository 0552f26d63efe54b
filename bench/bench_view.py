"""Latency of ``graphmem view``'s JSON endpoints (what one slider move waits for), over
a scope of N people who each moved once and hold a job, in process (FastAPI's
TestClient over an in-memory embedded store; no network, no model).

    .venv/bin/python bench/bench_view.py --subjects 20,100,200

Prints, per size, the median of 7 requests of each endpoint: ``/graph/overview`` (once
per scope), ``/graph`` at a past instant with the facts no longer believed (one history
read per entity), ``/graph`` without them (one facts read), ``/graph/entity``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fastapi.testclient import TestClient

from graphmem import Memory
from graphmem.service.app import create_app


def _median_ms(client: TestClient, path: str) -> tuple[float, dict]:
    took = []
    for _ in range(7):
        start = time.perf_counter()
        response = client.get(path, headers={"Authorization": "Bearer t"})
        took.append(time.perf_counter() - start)
        response.raise_for_status()
    return statistics.median(took) * 1000, response.json()


def run(subjects: int) -> str:
    mem = Memory.open(":memory:", embedder=None)
    for i in range(subjects):
        mem.remember(f"P{i}", "lives_in", f"City{i % 50}", valid_from="2019-01-01", scope="s")
    for i in range(subjects):
        mem.supersede(f"P{i}", "lives_in", f"City{(i + 7) % 50}", since="2024-03-01", scope="s")
        mem.remember(f"P{i}", "works_at", f"Org{i % 30}", valid_from="2022-01-01", scope="s")
    client = TestClient(create_app(mem, token="t"))
    overview, seen = _median_ms(client, "/graph/overview?scope=s")
    graph, drawn = _median_ms(client, "/graph?scope=s&as_of=2023-06-01T00:00:00Z")
    believed, _ = _median_ms(client, "/graph?scope=s&as_of=2023-06-01T00:00:00Z&expired=false")
    entity, _ = _median_ms(client, "/graph/entity?scope=s&name=P1")
    mem.close()
    return (f"subjects={subjects} entities={len(seen['entities'])} edges={len(drawn['edges'])}: "
            f"overview {overview:.0f} ms, graph {graph:.0f} ms, graph without the given-up "
            f"facts {believed:.0f} ms, entity {entity:.0f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subjects", default="20,100,200", help="comma-separated sizes")
    for size in parser.parse_args().subjects.split(","):
        print(run(int(size)), flush=True)


if __name__ == "__main__":
    main()
