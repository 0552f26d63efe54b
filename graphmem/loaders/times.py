"""Times in logs, by the loaders' conventions, on top of ``graphmem.time``.

ISO 8601, written full dates and epoch seconds are read by
:func:`graphmem.time.instant.to_instant`, the project's one parser. What is only the
loaders' knowledge lives here: numbers of ``10**11`` or more are epoch *milliseconds*
(chat exports write them), a string of 9 to 13 digits is an epoch number, an open end
("inf") is accepted only where the caller allows it (a fact's interval, not a turn's
time), and a bad value is a ``RecordError`` (the loader adds file and line). Formats
with their own notation (WhatsApp's and LoCoMo's dates) read the fields themselves and
build the instant with ``make_zone_time``.

>>> parse_time(1709287200500)
datetime.datetime(2024, 3, 1, 10, 0, 0, 500000, tzinfo=datetime.timezone.utc)
>>> parse_time("10:00")
Traceback (most recent call last):
...
graphmem.loaders.record.RecordError: timestamp: '10:00' is not a complete date
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from typing import Any

from graphmem.errors import InvalidTimeError
from graphmem.time.instant import INFINITE_WORDS, is_infinite, resolve_tz, to_instant

from .record import RecordError

_EPOCH_STRING = re.compile(r"^-?\d{9,13}(?:\.\d+)?$")
#: Epoch numbers from here on (about the year 5138 in seconds) are milliseconds.
MILLIS_FROM = 10**11


def parse_time(
    value: Any,
    tz: tzinfo | str | None = None,
    *,
    field: str = "timestamp",
    allow_infinite: bool = False,
) -> datetime:
    """An aware UTC instant from a log value (see the module notes); RecordError if not.

    Times written without an offset are wall-clock time in ``tz`` (default UTC).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RecordError(f"{field} is missing")
    if isinstance(value, bool):
        raise RecordError(f"{field}: expected a time, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if _EPOCH_STRING.match(text):
            return parse_time(float(text), tz, field=field, allow_infinite=allow_infinite)
        if text.lower() in INFINITE_WORDS and not allow_infinite:
            raise RecordError(f"{field}: {value!r} is not a point in time")
        try:
            result = to_instant(text, tz=tz, field=field)
        except InvalidTimeError as exc:
            raise RecordError(str(exc)) from None
    elif isinstance(value, int | float):
        seconds = value / 1000 if abs(value) >= MILLIS_FROM else value
        try:
            result = to_instant(seconds, field=field)
        except InvalidTimeError as exc:
            raise RecordError(f"{field}: cannot read {value!r} as a time") from exc
    else:
        raise RecordError(f"{field}: expected a time, got {type(value).__name__}")
    if is_infinite(result) and not allow_infinite:
        raise RecordError(f"{field}: {value!r} is out of range")
    return result


def make_zone_time(
    tz: tzinfo | None,
    year: int,
    month: int,
    day: int,
    hour: int = 0,
    minute: int = 0,
    second: int = 0,
) -> datetime:
    """A wall-clock time in ``tz`` (default UTC), as a UTC instant; RecordError if invalid."""
    try:
        local = datetime(year, month, day, hour, minute, second, tzinfo=resolve_tz(tz))
    except ValueError as exc:
        raise RecordError(f"invalid date/time: {exc}") from exc
    return local.astimezone(UTC)
