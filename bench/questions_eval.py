"""How well ``ask`` reads questions nobody on the team wrote.

    .venv/bin/python bench/questions_eval.py [--split heldout|dev|all] [--show-errors] [--json]

Data: ``bench/data/authors/*.questions.jsonl`` (independent authors; splits in
``bench/data/authors/splits.json``). Each line: ``{"id", "question", "speaker",
"asked_at", "background": [facts an anchored question needs], "expected": {"subject",
"predicate", "mode", "window"?, "at"?, "object"?, "edge"?}}``. The background facts of
each question are written to a scope of their own in an embedded store, then the question
is read there (:func:`graphmem.answer.reading_for`) as if asked at ``asked_at`` by
``speaker``.

A reading is **correct** when the mode, subject and predicate agree and, where the label
gives them, the window (to the day; open ends as null), the instant of a ``known_at``
(to the day, or to the minute when the label has a time of day) and the object and edge
of a ``when``. A ``none`` question is correct when no predicate is read.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path

from authors import AUTHORS, SPLITS, parser

from graphmem import Memory
from graphmem.answer import reading_for
from graphmem.question import Reading
from graphmem.time.instant import NEG_INF, POS_INF, to_instant


def load_rows(split: str = "all") -> list[dict]:
    rows = []
    for path in sorted(AUTHORS.glob("*.questions.jsonl")):
        author = path.name.split(".")[0]
        if split != "all" and SPLITS.get(author, "dev") != split:
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append({**json.loads(line), "author": author, "split": SPLITS.get(author)})
    return rows


def _day(moment) -> str | None:
    return None if moment is None or moment in (NEG_INF, POS_INF) else moment.date().isoformat()


def _norm(value) -> str | None:
    return None if value is None else " ".join(str(value).replace("’", "'").split()).casefold()


def disagreements(expected: dict, got: Reading) -> list[str]:
    """What of the reading differs from the label (empty: read correctly)."""
    mode = expected["mode"]
    if mode == "none":
        return [] if got.predicate is None else [f"predicate {got.predicate} (expected none)"]
    out = []
    if got.mode != mode:
        out.append(f"mode {got.mode} (expected {mode})")
    if got.predicate != expected.get("predicate"):
        out.append(f"predicate {got.predicate} (expected {expected.get('predicate')})")
    if _norm(got.subject) != _norm(expected.get("subject")):
        out.append(f"subject {got.subject} (expected {expected.get('subject')})")
    window = expected.get("window")
    if mode in ("past", "timeline") and window is not None:
        mine = [_day(got.window.start), _day(got.window.end)] if got.window else [None, None]
        wanted = [w[:10] if w else None for w in window]
        if got.window is not None and got.window.end - got.window.start < timedelta(days=1):
            mine, wanted = mine[:1], wanted[:1]  # a moment within the day: its day
        if mine != wanted:
            out.append(f"window {mine} (expected {window})")
    if mode == "known_at" and expected.get("at"):
        at = expected["at"]
        mine = got.at.isoformat()[: len(at)] if got.at is not None else None
        if mine != at[:16]:
            out.append(f"at {mine} (expected {at})")
    if mode == "when":
        if expected.get("object") and _norm(got.object) != _norm(expected["object"]):
            out.append(f"object {got.object} (expected {expected['object']})")
        if expected.get("edge", "start") != got.edge:
            out.append(f"edge {got.edge} (expected {expected.get('edge')})")
    return out


def evaluate(rows: list[dict]):
    folder = tempfile.mkdtemp()
    tally: dict[str, Counter] = defaultdict(Counter)
    errors = []
    with Memory.open(Path(folder) / "questions.db", embedder=None) as mem:
        for row in rows:
            scope = f"q-{row['author']}-{row['id']}"
            for fact in row.get("background") or []:
                mem.remember(fact["subject"], fact["predicate"], fact["object"],
                             valid_from=fact.get("valid_from"), valid_to=fact.get("valid_to"),
                             scope=scope)  # fmt: skip
            reading = reading_for(mem, row["question"], scope=scope, owner=row["speaker"],
                                  reference=to_instant(row["asked_at"]))  # fmt: skip
            wrong = disagreements(row["expected"], reading)
            for key in ("all", f"mode={row['expected']['mode']}", f"author={row['author']}",
                        f"split={row['split']}"):  # fmt: skip
                tally[key]["n"] += 1
                tally[key]["ok"] += not wrong
            if wrong:
                errors.append((row, reading, wrong))
    return tally, errors


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__).parse_args(argv)
    rows = load_rows(args.split)
    tally, errors = evaluate(rows)
    if args.json:
        print(json.dumps({k: dict(v) for k, v in sorted(tally.items())}, indent=2))
        return 0
    print(f"{len(rows)} questions (split {args.split}): read correctly")
    for key, t in sorted(tally.items()):
        print(f"  {key:<24} {t['ok']:>4}/{t['n']:<4} {t['ok'] / t['n']:.3f}")
    if args.show_errors:
        for row, _reading, wrong in errors:
            print(f"  {row['id']} {row['question']!r} ({row['asked_at'][:16]}, {row['speaker']})")
            print(f"      {'; '.join(wrong)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
