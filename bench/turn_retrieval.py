"""Turn-level evidence retrieval on dated multi-speaker conversations (issue 12).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/turn_retrieval.py [--split dev|heldout|all]
        [--files bench/data/turns/smoke.json] [--verbose]

Data: ``bench/data/turns/<author>.json`` (format in ``bench/data/turns/README.md``),
split by ``bench/data/turns/splits.json`` (tune on ``dev`` only; a missing file is
skipped with a note). ``smoke.json`` is a fixture for the script itself, not a figure.

Each conversation goes into a fresh in-memory embedded store, one scope: one episode
per turn, with its speaker, its session id and the session date as the turn's time
(plus one second per turn, so turns keep their order). No extraction: episodes only, so
the ranking is of turns; a fact hit would count for the turn it came from. Each
question is searched with its ``asked_at`` as the reference time (relative windows).

Systems, side by side in one run, on the same turns:

- ``bm25 raw``: a plain BM25 over the bare turn texts (graphmem's tokenizer, no store);
- ``keyword`` / ``vector``: graphmem's keyword or vector source alone, straight on the
  backend's filtered index;
- ``hybrid <fusion>``: ``Memory.search`` with each fusion of ``HYBRIDS`` (``rrf (main)``
  is graphmem's ranking before issue 12);
- each on two indexings: ``plain`` (the turn's bare text, as before issue 12) and
  ``context`` (``graphmem.store.index_text``: the first person resolved to the
  speaker's name). ``plain hybrid rrf (main)`` is main's behaviour before issue 12.

Printed per question kind and overall: turn hit@5 and hit@10 (an evidence turn in the
top k), evidence recall@10 (share of evidence turns in the top 10), NDCG@10, and the
search p50 latency (the embedder's text cache answers repeated questions, so only the
first system that embeds a question pays for it: use bench/bench_search_latency.py
for latency). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from passage_flags import add_passage_flags, apply_passage_flags  # noqa: E402

from graphmem import Memory  # noqa: E402
from graphmem.model import Episode  # noqa: E402
from graphmem.retrieval.hybrid import Weights  # noqa: E402
from graphmem.store.embedded.keyword_index import KeywordIndex  # noqa: E402
from graphmem.store.protocol import RowQuery  # noqa: E402
from graphmem.time.instant import to_instant  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "turns"
K = 10
COLUMNS = ("hit@5", "hit@10", "recall@10", "ndcg@10")
INDEXINGS = ("plain", "context")


def files_for(split: str) -> list[Path]:
    splits = json.loads((DATA / "splits.json").read_text())
    authors = splits["dev"] + splits["heldout"] if split == "all" else splits[split]
    out = []
    for author in authors:
        path = DATA / f"{author}.json"
        if path.exists():
            out.append(path)
        else:
            print(f"note: {path} is missing; skipped", file=sys.stderr)
    return out


@contextlib.contextmanager
def plain_indexing() -> Iterator[None]:
    """Index turns by their bare text, as graphmem did before issue 12 (bench-only: the
    renderer is swapped where the embedder and the embedded store call it)."""
    import graphmem.memory
    import graphmem.store.embedded.backend

    modules = (graphmem.memory, graphmem.store.embedded.backend)
    saved = [m.episode_index_text for m in modules]
    for m in modules:
        m.episode_index_text = lambda e: e.text
    try:
        yield
    finally:
        for m, fn in zip(modules, saved, strict=True):
            m.episode_index_text = fn


def episodes_of(conversation: dict) -> list[Episode]:
    out = []
    for session in conversation["sessions"]:
        start = to_instant(session["date"])
        for i, turn in enumerate(session["turns"]):
            out.append(
                Episode(
                    id=turn["id"], scope=conversation["id"], session=session["id"], turn=i,
                    speaker=turn["speaker"], text=turn["text"],
                    timestamp=start + timedelta(seconds=i),
                )
            )  # fmt: skip
    return out


def turns_of(result) -> list[str]:
    """Ranked turn ids of a search result: a fact hit counts for the turn it came from."""
    out: list[str] = []
    for hit in result.hits:
        turn = hit.id if hit.kind == "episode" else hit.fact.provenance.episode_id
        if turn is not None and turn not in out:
            out.append(turn)
    return out


def metrics(ranked: list[str], evidence: list[str]) -> dict[str, float]:
    wanted = set(evidence)
    dcg = sum(1 / math.log2(i + 2) for i, t in enumerate(ranked[:10]) if t in wanted)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(wanted), 10)))
    return {
        "hit@5": float(bool(wanted & set(ranked[:5]))),
        "hit@10": float(bool(wanted & set(ranked[:10]))),
        "recall@10": len(wanted & set(ranked[:10])) / len(wanted),
        "ndcg@10": dcg / idcg,
    }


Ranker = Callable[[Memory, dict], list[str]]


def source_alone(source: str) -> Ranker:
    def rank(mem: Memory, q: dict) -> list[str]:
        vector = mem.embedder.embed([q["question"]])[0] if source == "vector" else None
        text = q["question"] if source == "keyword" else None
        found = mem.backend.search(
            "episodes", RowQuery(q["conversation"]), vector=vector, text=text, k=K
        )
        return [ident for ident, _ in found[source]]

    return rank


def vector_with_passages(mem: Memory, q: dict) -> list[str]:
    """The vector source alone, each candidate turn scored by its best passage."""
    from graphmem.retrieval.passages import best_of_passages

    vector = mem.embedder.embed([q["question"]])[0]
    f = RowQuery(q["conversation"])
    found = mem.backend.search("episodes", f, vector=vector, text=q["question"], k=50)
    ranked, _ = best_of_passages(
        mem.backend, q["conversation"], vector, found["vector"], found["keyword"], 50
    )
    return [ident for ident, _ in ranked[:K]]


# The fusions compared: main's before issue 12 (RRF, equal weights), score fusion with
# equal weights, the default (score fusion, vector 2.0), the adaptive per-query weights.
# "no psg": turns scored by their own vectors only (before passages, issue 12).
HYBRIDS = {
    "rrf (main)": Weights(
        fusion="rrf", vector=1.0, newer_first=0.5, newer_first_margin=0.1, passage_pool=0
    ),
    "score v=1": Weights(fusion="score", vector=1.0),
    "score (default) no psg": Weights(passage_pool=0),
    "score (default)": Weights(),
    "adaptive": Weights(fusion="adaptive"),
}


def hybrid(weights: Weights) -> Ranker:
    def rank(mem: Memory, q: dict) -> list[str]:
        result = mem.search(
            q["question"], k=K, reference=q["asked_at"], scope=q["conversation"],
            weights=weights, targets=("episodes",),
        )  # fmt: skip
        return turns_of(result)

    return rank


def bm25_raw(turns: dict[str, list[Episode]]) -> Ranker:
    indexes = {}
    for conv, episodes in turns.items():
        index = KeywordIndex()
        index.add(range(len(episodes)), [e.text for e in episodes])
        indexes[conv] = (index, [e.id for e in episodes])

    def rank(mem: Memory, q: dict) -> list[str]:
        index, ids = indexes[q["conversation"]]
        return [ids[p] for p, _ in index.search(q["question"], K)]

    return rank


def run(paths: list[Path], verbose: bool) -> None:
    from graphmem.retrieval.embedder import default_embedder

    embedder = default_embedder()
    conversations, questions = [], []
    for path in paths:
        data = json.loads(path.read_text())
        conversations += data["conversations"]
        questions += data["questions"]
    turns = {c["id"]: episodes_of(c) for c in conversations}
    n_turns = sum(len(v) for v in turns.values())
    print(f"{len(paths)} file(s), {len(conversations)} conversations, {n_turns} turns, "
          f"{len(questions)} questions")  # fmt: skip

    systems: dict[str, tuple[str, Ranker]] = {"bm25 raw": ("plain", bm25_raw(turns))}
    for indexing in INDEXINGS:
        systems[f"{indexing} keyword"] = (indexing, source_alone("keyword"))
        systems[f"{indexing} vector"] = (indexing, source_alone("vector"))
        systems[f"{indexing} vector+psg"] = (indexing, vector_with_passages)
        for label, weights in HYBRIDS.items():
            systems[f"{indexing} hybrid {label}"] = (indexing, hybrid(weights))

    results: dict[str, dict[str, list[dict[str, float]]]] = {}
    latency: dict[str, list[float]] = defaultdict(list)
    misses: dict[str, list[str]] = defaultdict(list)
    for indexing in INDEXINGS:
        stores = {}
        swap = plain_indexing() if indexing == "plain" else contextlib.nullcontext()
        with swap:
            started = time.perf_counter()
            for conv, episodes in turns.items():
                mem = Memory(open_memory(), embedder=embedder)
                mem.add_episodes(episodes)
                stores[conv] = mem
            print(f"{indexing}: loaded in {time.perf_counter() - started:.1f} s")
            for name, (wanted, rank) in systems.items():
                if wanted != indexing:
                    continue
                rows: dict[str, list[dict[str, float]]] = defaultdict(list)
                for q in questions:
                    t0 = time.perf_counter()
                    ranked = rank(stores[q["conversation"]], q)
                    latency[name].append(time.perf_counter() - t0)
                    m = metrics(ranked, q["evidence"])
                    rows[q.get("kind", "?")].append(m)
                    rows["overall"].append(m)
                    if m["hit@10"] < 1:
                        misses[name].append(q["id"])
                results[name] = rows
        for mem in stores.values():
            mem.close()

    kinds = sorted({k for rows in results.values() for k in rows if k != "overall"})
    for kind in [*kinds, "overall"]:
        n = len(next(iter(results.values()))[kind])
        print(f"\n{kind} ({n} questions)")
        print(f"  {'system':<34}" + "".join(f"{c:>10}" for c in COLUMNS) + f"{'p50 ms':>9}")
        for name, rows in results.items():
            cells = "".join(f"{statistics.mean(s[c] for s in rows[kind]):>10.3f}" for c in COLUMNS)
            p50 = statistics.median(latency[name]) * 1000
            print(f"  {name:<34}{cells}{p50:>9.1f}")
    if verbose:
        for name, ids in misses.items():
            print(f"misses@10 {name}: {' '.join(ids)}")


def open_memory():
    from graphmem.store import open_backend

    return open_backend(":memory:")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--files", nargs="*", type=Path, help="these files instead of a split")
    parser.add_argument("--verbose", action="store_true", help="list the questions missed")
    add_passage_flags(parser)
    parser.add_argument("--context-only", action="store_true", help="skip the plain indexing")
    args = parser.parse_args()
    apply_passage_flags(args)
    global INDEXINGS
    INDEXINGS = ("context",) if args.context_only else ("plain", "context")
    paths = args.files or files_for(args.split)
    if not paths:
        print("no data files: nothing to measure", file=sys.stderr)
        return
    run(paths, args.verbose)


if __name__ == "__main__":
    main()
