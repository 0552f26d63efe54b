"""How well the default extractor reads statements nobody on the team wrote.

    .venv/bin/python bench/extraction_eval.py [--split heldout|dev|team|all] [--author NAME]
                                              [--show-errors] [--json]

Data: ``bench/data/authors/*.statements.jsonl``, one file per independent author (see
``bench/data/authors/README.md`` for who wrote what and which split each file is in),
and the team's own ``bench/data/extraction_labelled.jsonl`` (split ``team``: written
alongside the rules, so its scores are optimistic). Each line is one user turn:
``{"id", "text", "speaker", "role", "timestamp", "context"? (earlier turns: strings, or
``{"text", "timestamp"}``), "expected": [{op, subject,
predicate, object, wrong_object?, valid_from?, valid_to?}], "phenomena"}``. The
extractor starts fresh for every item; ``context`` turns are fed to it first (their
facts are not scored) so that a correction can find what it corrects.

An **event** is (operation, subject, predicate, value), time ignored. ``assert`` and
``supersede`` count as one operation, ``state``: the loader turns an open-ended
assertion into a supersession anyway, so the difference is only where the interval
starts, which the time score measures. Matching is one-to-one; names and values compare
case-insensitively with whitespace collapsed and a leading article dropped. A predicted
relation to an unnamed relative (``sibling(Maya, "Maya's brother")``) is the link the
extractor keeps for the graph, not a stated fact: it is neither rewarded nor counted as
an extra; so is, on an author's turn, a predicate outside the table the authors were given. **Time** is scored on matched events whose label gives ``valid_from`` or
``valid_to``: the share whose day agrees.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from authors import AUTHORS, SPLITS, parser

from graphmem.extraction.rules import RuleExtractor
from graphmem.model import CandidateFact, Episode
from graphmem.time.instant import NEG_INF, POS_INF

DATA = Path(__file__).parent / "data"
OPS = {"assert": "state", "supersede": "state", "retract": "retract", "correct": "correct"}
_UNNAMED = re.compile(r"['’]s \w+$")


def load_rows(split: str = "all", author: str | None = None) -> list[dict]:
    """Labelled turns, each tagged with its ``author`` and ``split``."""
    files = {p.name.split(".")[0]: p for p in sorted(AUTHORS.glob("*.statements.jsonl"))}
    files["team"] = DATA / "extraction_labelled.jsonl"
    rows = []
    for name, path in files.items():
        chosen = SPLITS.get(name, "dev")
        if (author and name != author) or (split != "all" and chosen != split):
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append({**json.loads(line), "author": name, "split": chosen})
    return rows


def training_options(doc: str, out: Path) -> argparse.ArgumentParser:
    """The options every trainer of a shipped weights file takes."""
    options = argparse.ArgumentParser(description=doc.split("\n")[0])
    options.add_argument("--check", action="store_true", help="cross-validate by author")
    options.add_argument("--without", help="leave this dev author out (to score on them)")
    options.add_argument("--out", type=Path, default=out)
    return options


def training_rows(without: str | None = None) -> list[dict]:
    """What a learned part may train on: the dev authors and the team's set, never a
    held-out author (and not ``without``, to score on them)."""
    return [r for r in load_rows("dev") + load_rows("team") if r["author"] != without]


def _norm(value: str | None) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split()).casefold()
    return re.sub(r"^(?:the|a|an|my)\s+", "", text)


def _day(fact: CandidateFact, field: str) -> str | None:
    moment = getattr(fact, field)
    return None if moment in (NEG_INF, POS_INF) else moment.date().isoformat()


def matches(expected: dict, got: CandidateFact) -> bool:
    """Same event: operation class, subject, predicate, value (time ignored)."""
    if OPS[expected["op"]] != OPS[got.op] or expected["predicate"] != got.predicate:
        return False
    if _norm(expected["subject"]) != _norm(got.subject):
        return False
    if _norm(expected.get("object")) != _norm(got.object):
        return False
    return "wrong_object" not in expected or _norm(expected["wrong_object"]) == _norm(
        got.wrong_object
    )


def time_agrees(expected: dict, got: CandidateFact) -> bool | None:
    """None when the label states no time; else whether every stated bound agrees."""
    checked = [f for f in ("valid_from", "valid_to") if expected.get(f)]
    if not checked:
        return None
    return all(expected[f][:10] == _day(got, f) for f in checked)


def is_link(fact: CandidateFact) -> bool:
    """A relation to an unnamed relative: graph structure, not a stated fact."""
    return fact.predicate in (
        "sibling",
        "parent",
        "child",
        "friend",
        "partner",
        "manager",
    ) and bool(fact.object and _UNNAMED.search(fact.object))


def score(expected: list[dict], got: list[CandidateFact]):
    """One-to-one matching: {expected index: predicted index}."""
    pairs: dict[int, int] = {}
    for i, exp in enumerate(expected):
        for j, fact in enumerate(got):
            if j not in pairs.values() and matches(exp, fact):
                pairs[i] = j
                break
    return pairs


def episode(row: dict, text: str | dict, turn: int) -> Episode:
    """One turn of ``row``: its text, or a context turn (a string, or ``{"text",
    "timestamp"}`` as later authors wrote them)."""
    said = text if isinstance(text, dict) else {"text": text}
    return Episode(
        scope=f"eval-{row['id']}",
        session=row["id"],
        turn=turn,
        speaker=row["speaker"],
        role=row.get("role", "user"),
        text=said["text"],
        timestamp=said.get("timestamp") or row["timestamp"],
    )


class Tally:
    def __init__(self) -> None:
        self.tp = self.fp = self.fn = 0
        self.timed = self.time_ok = 0
        self.traps = self.traps_ok = 0

    def prf(self) -> tuple[float, float, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def as_dict(self) -> dict:
        p, r, f = self.prf()
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn, "precision": round(p, 4),
                "recall": round(r, 4), "f1": round(f, 4), "timed": self.timed,
                "time_ok": self.time_ok, "traps": self.traps, "traps_ok": self.traps_ok}  # fmt: skip


# The predicates the authors were asked to label (bench/data/authors/PHENOMENA.md): on
# their turns a prediction of another predicate (age, plans...) is out of scope, neither
# right nor wrong.
AUTHORED = frozenset(
    "lives_in works_at job_title manager partner diet owns_pet hobby works_on deadline phone "
    "favourite_language favourite_food favourite_drink favourite_book favourite_film "
    "favourite_music favourite_sport favourite_colour sibling parent child friend".split()
)


def extract(row: dict, extractor) -> list[CandidateFact]:
    for turn, earlier in enumerate(row.get("context", [])):
        extractor.extract(episode(row, earlier, turn))
    got = extractor.extract(episode(row, row["text"], len(row.get("context", []))))
    scoped = row["author"] == "team" or (lambda f: f.predicate in AUTHORED)
    return [f for f in got if not is_link(f) and (scoped is True or scoped(f))]


def evaluate(rows: list[dict], make_extractor=RuleExtractor):
    tallies: dict[str, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    errors = []
    for row in rows:
        got = extract(row, make_extractor())
        expected = row["expected"]
        pairs = score(expected, got)
        groups = [("split", row["split"]), ("author", row["author"]), ("all", "all")]
        for kind, name in groups:
            t = tallies[kind][name]
            t.tp += len(pairs)
            t.fp += len(got) - len(pairs)
            t.fn += len(expected) - len(pairs)
            if not expected:
                t.traps += 1
                t.traps_ok += not got
        for i, exp in enumerate(expected):
            for kind, name in (("op", OPS[exp["op"]]), ("predicate", exp["predicate"])):
                t = tallies[kind][name]
                t.tp += i in pairs
                t.fn += i not in pairs
                agrees = time_agrees(exp, got[pairs[i]]) if i in pairs else None
                if agrees is not None:
                    t.timed += 1
                    t.time_ok += agrees
        for j, fact in enumerate(got):
            if j not in pairs.values():
                tallies["op"][OPS[fact.op]].fp += 1
                tallies["predicate"][fact.predicate].fp += 1
        if len(pairs) < max(len(expected), len(got)):
            missed = [e for i, e in enumerate(expected) if i not in pairs]
            extra = [g for j, g in enumerate(got) if j not in pairs.values()]
            errors.append((row, missed, extra))
    return tallies, errors


def _line(name: str, t: Tally) -> str:
    p, r, f = t.prf()
    timed = f"{t.time_ok:>4}/{t.timed:<4}" if t.timed else " " * 9
    traps = f"{t.traps_ok:>4}/{t.traps:<4}" if t.traps else ""
    return (
        f"  {name:<20} {t.tp:>4} {t.fp:>4} {t.fn:>4}   {p:6.3f} {r:6.3f} {f:6.3f}  {timed} {traps}"
    )


def _fact(fact: CandidateFact) -> str:
    start, end = _day(fact, "valid_from") or "-inf", _day(fact, "valid_to") or "inf"
    wrong = f" (not {fact.wrong_object})" if fact.wrong_object else ""
    return f"{fact.op} {fact.subject} {fact.predicate} {fact.object}{wrong} [{start}, {end})"


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, ("all", "dev", "heldout", "team"))
    options.add_argument("--author", help="only this author's file")
    options.add_argument("--frames", action="store_true", help="with the frame classifier")
    args = options.parse_args(argv)
    rows = load_rows(args.split, args.author)
    make = RuleExtractor
    if args.frames:
        from graphmem.retrieval.embedder import default_embedder

        embedder = default_embedder()
        make = lambda: RuleExtractor(embedder=embedder)  # noqa: E731
    tallies, errors = evaluate(rows, make)
    if args.json:
        out = {kind: {k: v.as_dict() for k, v in sorted(group.items())}
               for kind, group in tallies.items()}  # fmt: skip
        print(json.dumps({"items": len(rows), **out}, indent=2))
        return 0
    header = (
        f"  {'':<20} {'tp':>4} {'fp':>4} {'fn':>4}   {'prec':>6} {'rec':>6} {'f1':>6}"
        f"  {'time ok':>9} {'traps ok'}"
    )
    print(f"{len(rows)} labelled turns (split {args.split})")
    for kind in ("predicate", "op", "author", "split", "all"):
        print(f"\nper {kind}\n{header}")
        for name, tally in sorted(tallies[kind].items()):
            print(_line(name, tally))
    if args.show_errors:
        print("\nerrors")
        for row, missed, extra in errors:
            print(f"  {row['id']} [{row['split']}] {row['text']!r} ({row['timestamp'][:10]})")
            for exp in missed:
                print(f"      missed: {exp}")
            for fact in extra:
                print(f"      extra:  {_fact(fact)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
