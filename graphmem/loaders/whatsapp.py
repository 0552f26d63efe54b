"""WhatsApp "Export chat" text files, read line by line.

Message lines, in the two shapes the apps write:

- Android: ``12/31/23, 9:41 PM - Alice: text`` (also ``31.12.23, 21:41 - Alice: text``);
- iOS: ``[31/12/2023, 21:41:05] Alice: text``.

Dates are ``d/m/y`` or ``m/d/y`` (separator ``/``, ``.`` or ``-``; 2- or 4-digit year,
2-digit years are 20yy); times are 24-hour or 12-hour with AM/PM, seconds optional.

- Date order (decision): found from the file. Before reading messages, the loader scans
  the message lines for one whose first field is over 12 (day-first) or whose second
  field is over 12 (month-first); the first such line decides. If every date is
  ambiguous it is month-first, except for ``.``-separated dates, which are day-first
  (the locales that write them are). ``WhatsAppLoader(dayfirst=...)`` overrides.
  The scan is a second streaming pass over the file; memory stays constant.
- Times are the phone's wall-clock time, read in the loader's ``tz`` (default UTC):
  pass the exporting phone's zone.
- A message runs on over the following lines until the next message line.
- Lines without ``Name:`` after the date (encryption notice, "Alice joined",
  "You changed the subject") are system lines and are skipped, as are iOS lines whose
  text opens with the invisible mark U+200E (how iOS writes notices and attachments),
  media placeholders (``<Media omitted>``, ``image omitted``, ``<attached: ...>``) and
  deleted messages; a trailing ``<This message was edited>`` is removed.
- session = the file's stem (``WhatsApp Chat with Alice``); speaker = the name as
  written; no role; line = the message's first line.
- A message line whose date or time is impossible (``31/13/2023``, ``25:00``) is an
  error naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, tzinfo
from pathlib import Path

from .files import file_stem, first_lines, iter_lines
from .record import FileLoader, Record, RecordError, Reporter
from .times import make_zone_time
from .turns import LineMessages

_INVISIBLE = str.maketrans(
    {
        "\u200e": None,
        "\u200f": None,
        "\u202a": None,
        "\u202b": None,
        "\u202c": None,
        "\u202d": None,
        "\u202e": None,
        "\ufeff": None,
        "\u202f": " ",
        "\u00a0": " ",
    }
)
_DATE = r"(?P<a>\d{1,2})(?P<sep>[./-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})"
_TIME = (
    r"(?P<h>\d{1,2})[:.](?P<mi>\d{2})(?:[:.](?P<s>\d{2}))?"
    r"(?:\s*(?P<ampm>[AaPp])\.?\s*[Mm]\.?)?"
)
_ANDROID = re.compile(rf"^{_DATE},?\s+{_TIME}\s+[-\u2013]\s+(?P<rest>.*)$")
_IOS = re.compile(rf"^\[{_DATE},?\s+{_TIME}\]\s*(?P<rest>.*)$")
_AUTHOR = re.compile(r'^(?P<name>[^:"]{1,100}?):(?:\s(?P<text>.*))?$', re.S)
_PLACEHOLDERS = {
    "<media omitted>",
    "image omitted",
    "video omitted",
    "audio omitted",
    "sticker omitted",
    "gif omitted",
    "document omitted",
    "contact card omitted",
    "this message was deleted",
    "you deleted this message",
}
_ATTACHED = re.compile(r"^<attached: [^>]*>$", re.IGNORECASE)
_EDITED = "<This message was edited>"
# iOS writes notices and attachments as "Name: \u200e<text>": a mark opens the text.
_IOS_NOTICE = re.compile(r"^\u200e?\[[^\]]*\]\s*[^:]{1,100}?:\s*\u200e")


def header(line: str) -> re.Match[str] | None:
    """The match of a message line's date/time prefix, or None."""
    return _IOS.match(line) or _ANDROID.match(line)


def clean(line: str) -> str:
    return line.translate(_INVISIBLE)


def message_text(text: str) -> str:
    """A message's text without the "edited" mark; "" for a placeholder (media, deleted)."""
    if text.endswith(_EDITED):
        text = text[: -len(_EDITED)].rstrip()
    if text.lower() in _PLACEHOLDERS or _ATTACHED.match(text):
        return ""
    return text


class WhatsAppLoader(FileLoader):
    name = "whatsapp"

    def __init__(self, dayfirst: bool | None = None):
        self.dayfirst = dayfirst

    def sniff(self, path: Path, head: str) -> bool:
        lines = first_lines(head, 20)
        return any(header(clean(line)) for line in lines[:20])

    def detect_dayfirst(self, path: Path) -> bool:
        ambiguous_default: bool | None = None
        for _, raw in iter_lines(path, Reporter(path, lambda _err: None)):
            m = header(clean(raw))
            if m is None:
                continue
            a, b = int(m["a"]), int(m["b"])
            if a > 12 >= b:
                return True
            if b > 12 >= a:
                return False
            if ambiguous_default is None:
                ambiguous_default = m["sep"] == "."
        return bool(ambiguous_default)

    @staticmethod
    def message_time(m: re.Match[str], dayfirst: bool, tz: tzinfo | None) -> datetime:
        a, b, y = int(m["a"]), int(m["b"]), m["y"]
        day, month = (a, b) if dayfirst else (b, a)
        year = int(y) + 2000 if len(y) == 2 else int(y)
        hour = int(m["h"])
        if m["ampm"]:
            if not 1 <= hour <= 12:
                raise RecordError(f"invalid 12-hour time {m['h']}:{m['mi']} {m['ampm']}M")
            hour = hour % 12 + (12 if m["ampm"].lower() == "p" else 0)
        order = "day-first" if dayfirst else "month-first"
        try:
            return make_zone_time(tz, year, month, day, hour, int(m["mi"]), int(m["s"] or 0))
        except RecordError as exc:
            raise RecordError(f"bad date/time ({order}): {exc}") from None

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        dayfirst = self.dayfirst if self.dayfirst is not None else self.detect_dayfirst(path)
        messages = LineMessages(reporter, scope=scope, session=file_stem(path), tidy=message_text)
        for lineno, raw in iter_lines(path, reporter):
            line = clean(raw)
            m = header(line)
            if m is None:
                messages.add(line)
                continue
            yield from messages.flush()
            try:
                timestamp = self.message_time(m, dayfirst, tz)
            except RecordError as exc:
                reporter.error(str(exc), lineno)
                continue
            author = _AUTHOR.match(m["rest"])
            if author is None or _IOS_NOTICE.match(raw):
                continue  # a system line
            messages.start(lineno, timestamp, author["name"].strip(), author["text"] or "")
        yield from messages.flush()


LOADER = WhatsAppLoader()
