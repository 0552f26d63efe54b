"""Session-level retrieval on LongMemEval-S (dev subset, 66 questions), hybrid vs baselines.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/longmemeval_retrieval.py \
        [--store /tmp/graphmem-lme.db] [--extractor none|rules] [--episodes 200]

Every question's haystack (~50 dated sessions, ~500 turns) goes into ONE embedded store,
each question in its own scope (``graphmem.loaders.longmemeval`` via ``Memory.load``).
Loading is idempotent: an existing ``--store`` is reused (only missing turns are added),
so the embedding time printed is only that of this run's additions. Nothing else is
cached on disk.

For every question, ``mem.search(question, k=--episodes, reference=question_date,
scope=question_id)`` ranks episodes (and facts, with ``--extractor rules``); sessions
are ranked by ``SearchResult.sessions()``: best hit + 0.5 x second best (a fact counts
for the session of its provenance); a second run ranks them by the best hit alone. Two baselines run in the same process on the same store, straight
on the backend's filtered indexes: BM25 only and vector only (session = best turn).

Printed per question type and overall (abstention ``_abs`` questions reported apart):
session recall_any@5, recall_all@5, recall_all@10, NDCG@10; and for knowledge-update
questions the share where the newest evidence session (by session date) ranks above
every older one. The answers and the ``has_answer`` flags are read only to score.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from passage_flags import add_passage_flags, apply_passage_flags  # noqa: E402

from graphmem import Memory  # noqa: E402
from graphmem.loaders.longmemeval import parse_date  # noqa: E402
from graphmem.store.protocol import RowQuery  # noqa: E402

DATA = Path("/work/shared/data/longmemeval-dev/longmemeval_s_dev66.json.gz")
TYPES = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)


def load_questions(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


class ValidOnly:
    """The rule extractor, minus candidates the store would reject as a whole batch
    (seen: ``correct`` of a set-valued predicate without ``wrong_object``); counted."""

    def __init__(self, mem: Memory):
        from graphmem.extraction.rules import RuleExtractor

        self.inner = RuleExtractor()
        self.registry = mem.registry
        self.dropped = 0

    def extract(self, episode):
        out = []
        for c in self.inner.extract(episode):
            known = c.predicate in self.registry
            if (
                known
                and c.op == "correct"
                and c.wrong_object is None
                and not self.registry.get(c.predicate).functional
            ):
                self.dropped += 1
                continue
            out.append(c)
        return out


def build(mem: Memory, path: Path, extractor: str | None) -> None:
    started = time.perf_counter()
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        if done[0] % 4096 < n:
            print(f"  loaded {done[0]} turns, {time.perf_counter() - started:.0f} s", flush=True)

    rules = ValidOnly(mem) if extractor == "rules" else None
    report = mem.load(path, format="longmemeval", extractor=rules, progress=progress)
    if rules is not None:
        print(f"rule extractor: {rules.dropped} invalid candidates dropped")
    print(
        f"load: {report.records} turns read, {report.episodes_added} episodes added "
        f"({report.episodes_skipped} already stored), {report.facts_written} fact rows, "
        f"{report.seconds:.1f} s total, {report.embedding_seconds:.1f} s embedding"
        + (
            f" ({report.episodes_added / report.embedding_seconds:.1f} turns/s)"
            if report.embedding_seconds
            else ""
        )
    )
    print(f"store: {mem.stats()}")


def seed_embeddings(mem: Memory, path: str) -> int:
    """Put the turn embeddings of another store built from the same data with the same
    model into the embedder's in-memory text cache, so only new texts (facts) are
    embedded. Returns how many were seeded."""
    import numpy as np

    from graphmem.store.embedded import EmbeddedBackend

    source = EmbeddedBackend(path)
    cache = mem.embedder._cache  # MiniLMEmbedder's LRU text cache (bench-only shortcut)
    mem.embedder._cache_size = max(mem.embedder._cache_size, 200_000)
    seeded = 0
    for scope in source.scopes():
        episodes = source.episodes(scope)
        vectors = source.embeddings([e.id for e in episodes])
        for e in episodes:
            if e.id in vectors:
                cache[e.text] = np.asarray(vectors[e.id], dtype=np.float32)
                seeded += 1
    source.close()
    return seeded


# -- session rankings --------------------------------------------------------------------


def rank_hybrid(
    mem: Memory, q: dict, k: int, support: float = 0.5, weights=None
) -> list[tuple[str, float]]:
    result = mem.search(
        q["question"], k=k, reference=q["_date"], scope=q["question_id"], weights=weights
    )
    return result.sessions(support)


def rank_vector_passages(mem: Memory, q: dict, k: int) -> list[tuple[str, float]]:
    """The vector index alone, each candidate turn (vector and keyword top k) scored by
    the best of itself and its passages; best turn per session."""
    from graphmem.retrieval.passages import best_of_passages

    f = RowQuery(q["question_id"])
    vector = mem.embedder.embed([q["question"]])[0]
    found = mem.backend.search("episodes", f, vector=vector, text=q["question"], k=k)
    ranked, _ = best_of_passages(
        mem.backend, q["question_id"], vector, found["vector"], found["keyword"], 50
    )
    episodes = {e.id: e for e in mem.backend.episodes(q["question_id"], [i for i, _ in ranked])}
    best: dict[str, float] = {}
    for ident, score in ranked:
        best.setdefault(episodes[ident].session, score)
    return sorted(best.items(), key=lambda item: -item[1])


def rank_backend(mem: Memory, q: dict, k: int, source: str) -> list[tuple[str, float]]:
    """One index alone, straight on the backend (same scope filter), best turn per session."""
    f = RowQuery(q["question_id"])
    vector = mem.embedder.embed([q["question"]])[0] if source == "vector" else None
    text = q["question"] if source == "keyword" else None
    found = mem.backend.search("episodes", f, vector=vector, text=text, k=k)[source]
    episodes = {e.id: e for e in mem.backend.episodes(q["question_id"], [i for i, _ in found])}
    best: dict[str, float] = {}
    for ident, score in found:
        session = episodes[ident].session
        if session not in best:  # ranked best first
            best[session] = score
    return sorted(best.items(), key=lambda item: -item[1])


# -- metrics -----------------------------------------------------------------------------


def metrics(ranked: list[str], q: dict) -> dict[str, float]:
    evidence = set(q["answer_session_ids"])
    top5, top10 = set(ranked[:5]), set(ranked[:10])
    dcg = sum(1 / math.log2(i + 2) for i, s in enumerate(ranked[:10]) if s in evidence)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(evidence), 10)))
    out = {
        "any@5": float(bool(evidence & top5)),
        "all@5": float(evidence <= top5),
        "all@10": float(evidence <= top10),
        "ndcg@10": dcg / idcg,
    }
    if q["question_type"] == "knowledge-update" and len(evidence) > 1:
        when = dict(zip(q["haystack_session_ids"], q["haystack_dates"], strict=True))
        ordered = sorted(evidence, key=lambda s: parse_date(when[s], None))
        position = {s: i for i, s in enumerate(ranked)}
        newest = position.get(ordered[-1], math.inf)
        out["newest_first"] = float(all(newest < position.get(s, math.inf) for s in ordered[:-1]))
    return out


COLUMNS = ("any@5", "all@5", "all@10", "ndcg@10")


def table(name: str, rows: dict[str, list[dict[str, float]]]) -> None:
    print(f"\n{name}")
    print(f"  {'question type':<28}{'n':>4}" + "".join(f"{c:>9}" for c in COLUMNS))
    for label, scores in rows.items():
        if not scores:
            continue
        cells = "".join(f"{statistics.mean(s[c] for s in scores):>9.3f}" for c in COLUMNS)
        print(f"  {label:<28}{len(scores):>4}{cells}")
    ku = [s["newest_first"] for s in rows.get("knowledge-update", []) if "newest_first" in s]
    if ku:
        print(f"  knowledge-update newest evidence ranked first: {sum(ku):.0f}/{len(ku)} "
              f"= {statistics.mean(ku):.1%}")  # fmt: skip


def evaluate(mem: Memory, questions: list[dict], systems: dict, verbose: bool) -> dict:
    summary = {}
    for name, rank in systems.items():
        rows: dict[str, list[dict[str, float]]] = defaultdict(list)
        latencies = []
        misses = []
        for q in questions:
            t0 = time.perf_counter()
            ranked = [s for s, _ in rank(mem, q)]
            latencies.append(time.perf_counter() - t0)
            m = metrics(ranked, q)
            abstain = q["question_id"].endswith("_abs")
            rows[("abstention (_abs) " if abstain else "") + q["question_type"]].append(m)
            if not abstain:
                rows["overall (non-_abs)"].append(m)
            if m["any@5"] < 1 or m["all@10"] < 1 or m.get("newest_first", 1) < 1:
                misses.append((q, ranked, m))
        ordered = {t: rows[t] for t in TYPES}
        ordered["overall (non-_abs)"] = rows["overall (non-_abs)"]
        ordered["abstention (_abs), all types"] = [
            m for key, ms in rows.items() if key.startswith("abstention") for m in ms
        ]
        lat = sorted(latencies)
        table(
            f"{name}: {len(questions)} questions, search p50 {lat[len(lat) // 2] * 1000:.0f} ms,"
            f" max {lat[-1] * 1000:.0f} ms",
            ordered,
        )
        if verbose:
            for q, ranked, m in misses:
                evidence = q["answer_session_ids"]
                where = [ranked.index(s) + 1 if s in ranked else None for s in evidence]
                print(f"    miss {q['question_id']} [{q['question_type']}] ranks {where} {m}")
                print(f"      Q: {q['question']}  ({q['question_date']})")
        overall = ordered["overall (non-_abs)"]
        summary[name] = {c: statistics.mean(s[c] for s in overall) for c in COLUMNS}
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--store", default="/tmp/graphmem-lme.db", help="store file (reused)")
    parser.add_argument("--extractor", choices=("none", "rules"), default="none")
    parser.add_argument("--episodes", type=int, default=200, help="hits per search (k)")
    parser.add_argument("--limit", type=int, default=None, help="first N questions only")
    parser.add_argument("--verbose", action="store_true", help="list the misses")
    parser.add_argument("--per-type", type=int, default=None,
                        help="the first N questions of each type only")  # fmt: skip
    parser.add_argument("--types", default=None,
                        help="only these question types, comma-separated")  # fmt: skip
    add_passage_flags(parser)
    parser.add_argument("--hybrid-only", action="store_true")
    parser.add_argument(
        "--seed-from",
        default=None,
        help="reuse turn embeddings from another store of the same data (e.g. an "
        "episodes-only one) so that only fact texts are embedded",
    )
    parser.add_argument(
        "--no-load", action="store_true", help="evaluate only the questions already stored"
    )
    args = parser.parse_args()

    apply_passage_flags(args)
    questions = load_questions(args.data)[: args.limit]
    if args.types:
        wanted = set(args.types.split(","))
        questions = [q for q in questions if q["question_type"] in wanted]
    if args.per_type is not None:
        taken: dict[str, int] = defaultdict(int)
        chosen = []
        for q in questions:
            if taken[q["question_type"]] < args.per_type:
                taken[q["question_type"]] += 1
                chosen.append(q)
        questions = chosen
    for q in questions:
        q["_date"] = parse_date(q["question_date"], None)
    mem = Memory.open(args.store, durability="normal")
    print(f"store {args.store}, extractor {args.extractor}, {len(questions)} questions")
    t0 = time.perf_counter()
    mem.embedder.embed(["warm up"])
    print(f"embedding model loaded in {time.perf_counter() - t0:.1f} s")
    if args.no_load:
        stored = set(mem.backend.scopes())
        questions = [
            q
            for q in questions
            if q["question_id"] in stored
            and {e.session for e in mem.backend.episodes(q["question_id"])}
            >= {
                s
                for s, turns in zip(q["haystack_session_ids"], q["haystack_sessions"], strict=True)
                if turns
            }  # fmt: skip
        ]
        print(f"not loading: {len(questions)} questions already stored")
    else:
        if args.seed_from:
            t0 = time.perf_counter()
            count = seed_embeddings(mem, args.seed_from)
            print(f"seeded {count} turn embeddings from {args.seed_from} "
                  f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
        data = args.data
        if args.per_type is not None or args.limit is not None or args.types:  # only those asked
            import tempfile

            subset = Path(tempfile.mkdtemp()) / "subset.json"
            subset.write_text(json.dumps([{k: v for k, v in q.items() if k != "_date"}
                                          for q in questions]))  # fmt: skip
            data = subset
        build(mem, data, None if args.extractor == "none" else "rules")

    k = args.episodes
    systems = {
        f"hybrid (mem.search k={k}; session = best hit + 0.5 x 2nd)": lambda m, q: rank_hybrid(
            m, q, k
        )
    }
    from graphmem.retrieval.hybrid import Weights

    before = Weights(passage_pool=0)
    systems[f"hybrid, turns alone (passage_pool=0, before passages) k={k}"] = lambda m, q: (
        rank_hybrid(m, q, k, weights=before)
    )
    if not args.hybrid_only:
        systems[f"hybrid (mem.search k={k}; session = best hit only)"] = lambda m, q: rank_hybrid(
            m, q, k, 0.0
        )
        systems[f"BM25 only (backend keyword index, k={k} turns)"] = lambda m, q: rank_backend(
            m, q, k, "keyword"
        )
        systems[f"vector only (backend vector index, k={k} turns)"] = lambda m, q: rank_backend(
            m, q, k, "vector"
        )
        systems[f"vector + passages (k={k} turns)"] = lambda m, q: rank_vector_passages(m, q, k)
    summary = evaluate(mem, questions, systems, args.verbose)
    print("\nsearch times: the first system embeds each question (the model runs); the others "
          "find its vector in the embedder's cache.")  # fmt: skip
    print("\noverall (non-_abs):")
    for name, s in summary.items():
        print(f"  {name:<62}" + "".join(f"{c} {v:.3f}  " for c, v in s.items()))
    mem.close()


if __name__ == "__main__":
    main()
