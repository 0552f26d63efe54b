"""Plain-text transcripts, read line by line.

A message line is a timestamp, a speaker and the text:

- ``2024-03-01 10:00 Alice: text`` (seconds, fractions and an offset optional:
  ``2024-03-01 10:00:05+01:00 Alice: text``);
- ``[2024-03-01T10:00:00Z] Alice: text`` (brackets; ``T`` or space; ``Z``, ``UTC`` or an
  offset optional); a ``-`` between the timestamp and the speaker is allowed.

Times without an offset are wall-clock time in the loader's ``tz`` (default UTC).
Following lines that are not message lines continue the message (a blank line inside a
message is kept; trailing blank lines are dropped). Lines before the first message
(a title, say) are ignored. A line that starts with a date but is not a valid message
line (impossible date, no ``Speaker:``) is an error naming the line.
session = the file's stem; speaker as written; no role.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, tzinfo
from pathlib import Path

from .files import file_stem, first_lines, iter_lines
from .record import FileLoader, Record, RecordError, Reporter
from .times import parse_time
from .turns import LineMessages

_LINE = re.compile(
    r"^(?P<open>\[)?"
    r"(?P<ts>\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
    r"(?:\s?(?:Z|UTC|[+-]\d{2}(?::?\d{2})?))?)"
    r"(?(open)\])\s+(?:[-\u2013]\s+)?"
    r"(?P<speaker>[^:\[\]]{1,100}?):(?:\s(?P<text>.*))?$"
)
_DATED = re.compile(r"^\[?\d{4}-\d{2}-\d{2}[T ]")


def _timestamp(text: str, tz: tzinfo | None) -> datetime:
    text = re.sub(r"\s?UTC$", "Z", text)
    text = re.sub(r"\s(?=[Z+-][\d:]*$)", "", text)
    return parse_time(text, tz)


class TranscriptLoader(FileLoader):
    name = "transcript"

    def sniff(self, path: Path, head: str) -> bool:
        lines = first_lines(head, 5)
        return any(_LINE.match(line) for line in lines)

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        messages = LineMessages(reporter, scope=scope, session=file_stem(path))
        for lineno, line in iter_lines(path, reporter):
            m = _LINE.match(line)
            if m is None:
                if _DATED.match(line):
                    yield from messages.flush()
                    reporter.error(
                        "not a message line: expected 'YYYY-MM-DD HH:MM[:SS] Speaker: text'",
                        lineno,
                    )
                else:
                    messages.add(line)
                continue
            yield from messages.flush()
            try:
                timestamp = _timestamp(m["ts"], tz)
            except RecordError as exc:
                reporter.error(str(exc), lineno)
                continue
            messages.start(lineno, timestamp, m["speaker"].strip(), m["text"] or "")
        yield from messages.flush()


LOADER = TranscriptLoader()
