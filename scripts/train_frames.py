"""Train the frame classifier the extractor ships (``graphmem/data/frames.npz``).

    .venv/bin/python scripts/train_frames.py [--check]

Training data: the ``dev`` authors' labelled turns (``bench/data/authors/splits.json``)
and the team's own set, never a held-out author. Each turn is split into clauses the way
the extractor splits it; a labelled fact belongs to the clause that contains its value
(or, failing that, the turn's only clause); clauses with no fact are "none". Features:
the clause's MiniLM embedding. Two multinomial logistic regressions (scikit-learn, only
here): the predicate (or none) and the operation (state, retract, none). The weights are
written as plain arrays, so the extractor needs numpy alone. ``--check`` reports
cross-validated accuracy by author (train on one dev author, test on the other).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from extraction_eval import training_options, training_rows  # noqa: E402

from graphmem.extraction.frames import OPS, clause_texts, frame_text  # noqa: E402
from graphmem.retrieval.embedder import default_embedder  # noqa: E402

OUT = ROOT / "graphmem" / "data" / "frames.npz"
_OP_CLASS = {"assert": "state", "supersede": "state", "retract": "retract", "correct": "none"}


def examples(rows: list[dict]) -> list[tuple[str, str, str, str]]:
    """(author, clause text, predicate or "none", op class) for every clause."""
    out = []
    for row in rows:
        clauses = clause_texts(row["text"])
        labels: list[list[dict]] = [[] for _ in clauses]
        for fact in row["expected"]:
            value = (fact.get("object") or "").lower()
            at = [i for i, c in enumerate(clauses) if value and value in c.lower()]
            if not at and len(clauses) == 1:
                at = [0]
            if at:
                labels[at[0]].append(fact)
        for clause, facts in zip(clauses, labels, strict=True):
            main = [f for f in facts if f["op"] != "correct"]
            if facts and not main:
                continue  # corrections are read by the correction rules, not the classifier
            if main:
                f = main[0]
                out.append((row["author"], clause, f["predicate"], _OP_CLASS[f["op"]]))
            else:
                out.append((row["author"], clause, "none", "none"))
    return out


def fit(x: np.ndarray, y: list[str]):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(max_iter=2000, C=4.0, class_weight="balanced")
    model.fit(x, y)
    return model


def main(argv: list[str] | None = None) -> int:
    args = training_options(__doc__, OUT).parse_args(argv)
    rows = training_rows(args.without)
    data = examples(rows)
    embedder = default_embedder()
    x = embedder.embed([frame_text(text) for _, text, _, _ in data])
    predicates = [p for _, _, p, _ in data]
    ops = [o for _, _, _, o in data]
    authors = np.array([a for a, _, _, _ in data])
    print(f"{len(data)} clauses from {len(rows)} turns; "
          f"{sum(p != 'none' for p in predicates)} with a fact")  # fmt: skip
    if args.check:
        for held in sorted(set(authors)):
            train, test = authors != held, authors == held
            model = fit(x[train], [p for p, t in zip(predicates, train, strict=True) if t])
            got = model.predict(x[test])
            want = np.array(predicates)[test]
            print(f"  predicate, trained without {held}: accuracy {np.mean(got == want):.3f} "
                  f"on {test.sum()} clauses")  # fmt: skip
    pmodel, omodel = fit(x, predicates), fit(x, ops)
    assert tuple(omodel.classes_) == OPS, omodel.classes_
    np.savez_compressed(
        args.out,
        predicate_w=pmodel.coef_.astype(np.float32),
        predicate_b=pmodel.intercept_.astype(np.float32),
        predicate_labels=np.array(pmodel.classes_),
        op_w=omodel.coef_.astype(np.float32),
        op_b=omodel.intercept_.astype(np.float32),
        model=np.array(embedder.name),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
