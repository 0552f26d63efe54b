"""Load the LongMemEval dev set into an embedded store and measure the loading pipeline.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/bench_load.py [--limit N] [--extractor rules|none]

Prints turns/second, peak memory (RSS), facts extracted, and the share of wall time
spent outside the embedding model (the target: under 10%: the model is the floor, the
rest is graphmem's own overhead: parsing, extraction, planning, SQLite, indexes).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import tempfile
import time

from graphmem import Memory

DATA = os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "data", "longmemeval-dev",
    "longmemeval_s_dev66.json.gz",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.abspath(DATA))
    parser.add_argument("--limit", type=int, default=None, help="questions to load")
    parser.add_argument("--extractor", choices=["rules", "none"], default="rules")
    parser.add_argument("--batch", type=int, default=256)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        source = args.data
        if args.limit is not None:
            with gzip.open(args.data, "rt") as fh:
                entries = json.load(fh)[: args.limit]
            source = os.path.join(tmp, "subset.json")
            with open(source, "w") as fh:
                json.dump(entries, fh)
        mem = Memory.open(os.path.join(tmp, "load.db"))
        mem.embedder.embed(["warm up the model"])  # model load is not loading work
        started = time.perf_counter()
        report = mem.load(
            source, format="longmemeval", extractor=None if args.extractor == "none" else "rules",
            batch_size=args.batch,
        )  # fmt: skip
        wall = time.perf_counter() - started
        stats = mem.stats()
        mem.close()

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    outside = wall - report.embedding_seconds
    print(f"file: {args.data}")
    print(
        f"turns loaded: {report.episodes_added:,} in {wall:.1f} s -> {report.episodes_added / wall:,.1f} turns/s"
    )
    print(
        f"facts written (rows): {report.facts_written:,}; operations proposed: {report.operations:,}; "
        f"conflicts skipped: {report.conflicts_skipped}; secrets redacted: {report.secrets_redacted}"
    )
    print(
        f"time in the embedding model: {report.embedding_seconds:.1f} s; outside it: {outside:.1f} s "
        f"= {100 * outside / wall:.1f}% of wall time (target < 10%)"
    )
    print(
        f"peak RSS: {peak_mb:,.0f} MiB; store file: {stats['bytes'] / 2**20:,.1f} MiB; errors: {len(report.errors)}"
    )


if __name__ == "__main__":
    main()
