"""Structured facts in CSV (or TSV), read row by row: no extraction needed.

The first row is the header (case-insensitive): ``subject``, ``predicate``, ``object``
(required), ``valid_from``, ``valid_to`` (optional; empty = open end; ``from``/``to``
accepted), ``scope`` (optional; a non-empty value overrides the loader's scope),
``confidence`` (optional, 0..1, default 1), ``subject_type``, ``object_type``
(optional). Other columns are ignored. Times without an offset are wall-clock time in
the loader's ``tz`` (default UTC); a bare date is midnight. ``valid_from`` must be
before ``valid_to``. Tab-separated when the file is ``.tsv`` or the header has tabs and
no commas. Quoted fields may span lines; ``Record.line`` is the row's first line.
Blank rows are skipped.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path

from .facts import make_fact
from .files import READ_ERRORS, first_lines, inner_suffix, open_text, read_failure
from .record import FileLoader, Record, Reporter

REQUIRED = ("subject", "predicate", "object")


def _delimiter(path: Path, header: str) -> str:
    if inner_suffix(path) == ".tsv" or ("\t" in header and "," not in header):
        return "\t"
    return ","


class FactsCsvLoader(FileLoader):
    name = "facts-csv"

    def sniff(self, path: Path, head: str) -> bool:
        if inner_suffix(path) in {".csv", ".tsv"}:
            return True
        lines = first_lines(head, 1)
        if not lines:
            return False
        row = next(csv.reader([lines[0]], delimiter=_delimiter(path, lines[0])), [])
        names = {cell.strip().lower() for cell in row}
        return all(column in names for column in REQUIRED)

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        source = str(path)
        reader = None
        try:
            with open_text(path, newline="") as fh:
                first = fh.readline()
                if not first.strip():
                    raise reporter.fatal("empty file: expected a header row", 1)
                header_reader = csv.reader([first], delimiter=_delimiter(path, first))
                header = [cell.strip().lower() for cell in next(header_reader)]
                missing = [column for column in REQUIRED if column not in header]
                if missing:
                    raise reporter.fatal(
                        f"the header lacks the column(s) {', '.join(missing)} "
                        f"(found: {', '.join(header)})",
                        1,
                    )
                reader = csv.reader(fh, delimiter=_delimiter(path, first))
                end = 1  # last line consumed (csv counts from after the header)
                for row in reader:
                    start, end = end + 1, 1 + reader.line_num
                    if not row or not any(cell.strip() for cell in row):
                        continue
                    if len(row) != len(header):
                        reporter.error(f"expected {len(header)} fields, got {len(row)}", start)
                        continue
                    data = dict(zip(header, row, strict=True))
                    fact = reporter.attempt(
                        start, make_fact, data, scope=scope, tz=tz, source=source
                    )
                    if fact is not None:
                        yield Record(path=source, line=start, fact=fact)
        except csv.Error as exc:
            line = 1 + (reader.line_num if reader is not None else 0)
            reporter.error(f"malformed CSV: {exc}", line)
        except READ_ERRORS as exc:
            line = 2 + (reader.line_num if reader is not None else 0)
            reporter.error(read_failure(exc), line)


LOADER = FactsCsvLoader()
