"""Structured facts in JSON Lines, read line by line: no extraction needed.

One object per line with ``subject``, ``predicate``, ``object`` (required; a number or
boolean object is written as text), ``valid_from``, ``valid_to`` (optional; null or
missing = open end; ``from``/``to`` accepted; ISO strings, epoch numbers, or
``"-inf"``/``"inf"``), ``scope`` (overrides the loader's), ``confidence`` (0..1,
default 1), ``subject_type``, ``object_type``. Other keys are ignored. Times without an
offset are wall-clock time in the loader's ``tz`` (default UTC). Blank lines are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path

from .facts import make_fact
from .files import first_lines
from .json_stream import iter_json_objects, json_object_line
from .record import FileLoader, Record, Reporter

REQUIRED = ("subject", "predicate", "object")


class FactsJsonlLoader(FileLoader):
    name = "facts-jsonl"

    def sniff(self, path: Path, head: str) -> bool:
        lines = first_lines(head, 1)
        first = json_object_line(lines[0]) if lines else None
        return first is not None and all(key in first for key in REQUIRED)

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        source = str(path)
        for lineno, data in iter_json_objects(path, reporter):
            fact = reporter.attempt(lineno, make_fact, data, scope=scope, tz=tz, source=source)
            if fact is not None:
                yield Record(path=source, line=lineno, fact=fact)


LOADER = FactsJsonlLoader()
