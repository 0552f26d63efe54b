"""Train the span finder the extractor ships (``graphmem/data/spans.npz``).

    .venv/bin/python scripts/train_spans.py [--check] [--without AUTHOR]

Training data: the ``dev`` authors' labelled turns (``bench/data/authors/splits.json``)
and the team's own set, never a held-out author. Each turn goes through the extractor's
own clause reader, so the clauses trained on are the ones the finder sees at load time.
Every candidate span of a clause (:func:`graphmem.extraction.spans.candidates`) whose
words equal a labelled value (case and a leading article aside) is labelled with that
fact's predicate; every other candidate is "none". Corrections are left to the
correction rules and deadlines to the date rules. One multinomial logistic regression
(scikit-learn, only here) over :func:`graphmem.extraction.spans.features`; the weights
are written as plain arrays.

``--check`` trains once per dev author without them and scores the whole extractor on
that author (``bench/extraction_eval.py``'s event matching), to choose the threshold.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from extraction_eval import Tally, episode, evaluate, training_options, training_rows  # noqa: E402

from graphmem.extraction.frames import FrameReader, frame_text  # noqa: E402
from graphmem.extraction.rules import RuleExtractor  # noqa: E402
from graphmem.extraction.spans import SpanFinder, candidates, features  # noqa: E402
from graphmem.retrieval.embedder import default_embedder  # noqa: E402

OUT = ROOT / "graphmem" / "data" / "spans.npz"
_SKIP = ("deadline",)


def _norm(value: str) -> str:
    text = " ".join(str(value).replace("’", "'").split()).casefold()
    return re.sub(r"^(?:the|a|an|my)\s+", "", text)


class _Recorder(FrameReader):
    """Keeps the clauses the extractor hands to its learned reader, reads nothing."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def read(self, x, clauses, read):
        self.seen.extend(frame_text(c.s) for c in clauses)
        return []


def clauses_of(row: dict) -> list[str]:
    """The clauses of a labelled turn as the extractor's learned reader receives them
    (its context turns read first, as the evaluation does)."""
    extractor = RuleExtractor()
    extractor.frames = recorder = _Recorder()
    for turn, earlier in enumerate(row.get("context", [])):
        extractor.extract(episode(row, earlier, turn))
    recorder.seen.clear()
    extractor.extract(episode(row, row["text"], len(row.get("context", []))))
    return recorder.seen


def examples(rows: list[dict], embedder) -> tuple[np.ndarray, list[str], list[str]]:
    """(features, label, author) for every candidate span of every clause."""
    texts, owners, golds = [], [], []
    for row in rows:
        values = {
            _norm(f["object"]): f["predicate"]
            for f in row["expected"]
            if f.get("object") and f["op"] != "correct" and f["predicate"] not in _SKIP
        }
        for clause in clauses_of(row):
            texts.append(clause)
            owners.append(row["author"])
            golds.append(values)
    tokens = embedder.embed_tokens(texts)
    xs, ys, authors = [], [], []
    for clause, t, author, values in zip(texts, tokens, owners, golds, strict=True):
        spans = candidates(clause)
        x, kept = features(t, spans)
        xs.append(x)
        for n in kept:
            start, end = spans[n]
            ys.append(values.get(_norm(clause[start:end]), "none"))
            authors.append(author)
    return np.concatenate(xs), ys, authors


def fit(x: np.ndarray, y: list[str]) -> dict[str, np.ndarray]:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(max_iter=3000, C=1.0)
    model.fit(x, y)
    return {
        "w": model.coef_.astype(np.float32),
        "b": model.intercept_.astype(np.float32),
        "labels": np.array(model.classes_),
    }


def check(rows: list[dict], x: np.ndarray, y: list[str], authors: list[str], embedder) -> None:
    dev = sorted({r["author"] for r in rows if r["split"] == "dev"})
    owner = np.array(authors)
    for held in dev:
        keep = owner != held
        weights = fit(x[keep], [label for label, k in zip(y, keep, strict=True) if k])
        test = [r for r in rows if r["author"] == held]
        for threshold in (0.4, 0.5, 0.6, 0.7):

            def make(threshold=threshold, weights=weights):
                extractor = RuleExtractor(embedder=embedder)
                extractor.frames = FrameReader(embedder, spans=SpanFinder(weights),
                                               span_threshold=threshold)  # fmt: skip
                return extractor

            tally: Tally = evaluate(test, make)[0]["split"]["dev"]
            p, r, f = tally.prf()
            print(f"  without {held:<8} threshold {threshold}: P {p:.3f} R {r:.3f} F1 {f:.3f}")
        rules: Tally = evaluate(test, RuleExtractor)[0]["split"]["dev"]
        p, r, f = rules.prf()
        print(f"  {held:<8} rules alone:             P {p:.3f} R {r:.3f} F1 {f:.3f}")


def main(argv: list[str] | None = None) -> int:
    args = training_options(__doc__, OUT).parse_args(argv)
    rows = training_rows(args.without)
    embedder = default_embedder()
    x, y, authors = examples(rows, embedder)
    print(f"{len(y)} candidate spans, {sum(label != 'none' for label in y)} of them values, "
          f"from {len(rows)} turns")  # fmt: skip
    if args.check:
        check(rows, x, y, authors, embedder)
        return 0
    weights = fit(x, y)
    np.savez_compressed(args.out, **weights, model=np.array(embedder.name))
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
