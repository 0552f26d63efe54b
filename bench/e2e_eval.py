"""End to end: chat nobody on the team wrote -> ``graphmem load`` -> ``ask`` -> scored answers.

    .venv/bin/python bench/e2e_eval.py [--split heldout|dev|all] [--author NAME] [--show-errors] [--json]

Data: ``bench/data/authors/e2e_*/`` (independent authors; splits in
``bench/data/authors/splits.json``): ``chat.jsonl``, a multi-session dated conversation
(moves, job changes, corrections, retractions, future-dated changes, other people's
facts, traps), and ``questions.jsonl``: ``{"question", "asked_at", "speaker",
"category", "expected": {"values": [...], "ordered": bool} | {"abstain": true}}``.

Each conversation is loaded through the CLI (``graphmem load``, the default offline
extractor, or ``--extractor frames``) into a
fresh embedded store, then every question goes to ``Memory.ask`` as asked at its
``asked_at`` by its ``speaker``. An answer is **right** when it is known and its values
equal the expected ones (as a set, or in order when ``ordered``; names compare
case-insensitively), or when an abstain question gets "I don't know"; **wrong** when it
answers something else (a "when" answer is its date, ``Answer.at``); **abstained** when it says it does not know a question that has
an answer. Scores by category; the wrong-answer rate is the share of all questions
answered wrongly.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from authors import AUTHORS, SPLITS, parser

from graphmem import Memory
from graphmem.time.instant import format_instant

# "Dr. Okafor" and "Dr Okafor" are one name: a title's full stop is spelling, not content
_TITLE_DOT = re.compile(r"(?i)\b(dr|mr|mrs|ms|prof|st)\.")


def _norm(value: str) -> str:
    return " ".join(_TITLE_DOT.sub(r"\1", str(value).replace("’", "'")).split()).casefold()


def verdict(expected: dict, answer) -> str:
    """right | wrong | abstained"""
    if expected.get("abstain"):
        return "right" if not answer.known else "wrong"
    if not answer.known:
        return "abstained"
    got = [_norm(v.value) for v in answer.values]
    if answer.at is not None:  # a "when" question: the answer is the instant
        got = [format_instant(answer.at)[:10]]
    want = [_norm(v) for v in expected["values"]]
    same = got == want if expected.get("ordered") else set(got) == set(want)
    return "right" if same else "wrong"


def run(folder: Path, store: Path, extractor: str) -> tuple[dict[str, Counter], list]:
    scope = folder.name
    subprocess.run(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store),
         "--scope", scope, "load", str(folder / "chat.jsonl"), "--extractor", extractor],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    tally: dict[str, Counter] = defaultdict(Counter)
    errors = []
    with Memory.open(store) as mem:
        for line in (folder / "questions.jsonl").read_text().splitlines():
            if not line.strip():
                continue
            q = json.loads(line)
            answer = mem.ask(q["question"], speaker=q["speaker"], reference=q["asked_at"],
                             scope=scope)  # fmt: skip
            v = verdict(q["expected"], answer)
            for key in ("all", q["category"]):
                tally[key][v] += 1
            if v != "right":
                errors.append((scope, q, answer, v))
    return tally, errors


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__)
    options.add_argument("--extractor", default="rules", choices=["rules", "frames"])
    options.add_argument("--author", help="only this author's conversation")
    args = options.parse_args(argv)
    folders = [
        p
        for p in sorted(AUTHORS.glob("e2e_*"))
        if args.split == "all" or SPLITS.get(p.name.removeprefix("e2e_")) == args.split
        if args.author in (None, p.name.removeprefix("e2e_"))
    ]
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        for folder in folders:
            tally, errors = run(folder, Path(tmp) / f"{folder.name}.db", args.extractor)
            report[folder.name] = {k: dict(v) for k, v in sorted(tally.items())}
            if args.json:
                continue
            split = SPLITS.get(folder.name.removeprefix("e2e_"))
            print(f"{folder.name} ({split}):  category  right / wrong / abstained of n")
            for key, t in sorted(tally.items()):
                n = sum(t.values())
                print(f"  {key:<18} {t['right']:>3} / {t['wrong']:>3} / {t['abstained']:>3} of "
                      f"{n:<3} right {t['right'] / n:.2f}  wrong {t['wrong'] / n:.2f}")  # fmt: skip
            if args.show_errors:
                for _scope, q, answer, v in errors:
                    print(f"    [{v}] {q['question']!r} -> {answer.answer!r} "
                          f"(expected {q['expected']}, read as {answer.mode})")  # fmt: skip
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
