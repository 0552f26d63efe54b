"""Structured facts in JSON Lines, read line by line: no extraction needed.

One object per line with ``subject``, ``predicate``, ``object`` (required; a number or
boolean object is written as text), ``valid_from``, ``valid_to`` (optional; null or
missing = open end; ``from``/``to`` accepted; ISO strings, epoch numbers, or
``"-inf"``/``"inf"``), ``scope`` (overrides the loader's), ``confidence`` (0..1,
default 1), ``subject_type``, ``object_type``. Other keys are ignored. Times without an
offset are wall-clock time in the loader's ``tz`` (default UTC). Blank lines are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path

from graphmem.model import DEFAULT_SCOPE

from .base import (
    ErrorHandler,
    Record,
    RecordError,
    Reporter,
    first_lines,
    iter_lines,
    json_object_line,
    loads_json,
    make_fact,
)

REQUIRED = ("subject", "predicate", "object")


class FactsJsonlLoader:
    name = "facts-jsonl"

    def sniff(self, path: Path, head: str) -> bool:
        lines = first_lines(head, 1)
        first = json_object_line(lines[0]) if lines else None
        return first is not None and all(key in first for key in REQUIRED)

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        path = Path(path)
        reporter = Reporter(path, on_error)
        source = str(path)
        for lineno, line in iter_lines(path, reporter):
            if not line.strip():
                continue
            try:
                data = loads_json(line)
            except json.JSONDecodeError as exc:
                reporter.error(f"invalid JSON: {exc.msg} (column {exc.colno})", lineno)
                continue
            if not isinstance(data, dict):
                reporter.error(f"expected a JSON object, got {type(data).__name__}", lineno)
                continue
            try:
                fact = make_fact(data, scope=scope, tz=tz, source=source)
            except RecordError as exc:
                reporter.error(str(exc), lineno)
                continue
            yield Record(path=source, line=lineno, fact=fact)


LOADER = FactsJsonlLoader()
