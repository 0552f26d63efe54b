"""Instants: timezone-aware points in time, normalised to UTC, microsecond resolution.

Open interval ends are the sentinels ``NEG_INF`` and ``POS_INF`` (never ``None``), so
every comparison is total and no query has to special-case nulls.

>>> to_instant("2024-03-01T12:00:00+01:00")
datetime.datetime(2024, 3, 1, 11, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, tzinfo

from dateutil import parser as date_parser
from dateutil import tz as date_tz

from graphmem.errors import InvalidTimeError

NEG_INF = datetime.min.replace(tzinfo=UTC)
POS_INF = datetime.max.replace(tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MICROSECOND = timedelta(microseconds=1)

TimeLike = datetime | date | str | int | float


def is_infinite(t: datetime) -> bool:
    """An open end of an interval (either sentinel)."""
    return t in (NEG_INF, POS_INF)


def is_open_start(t: datetime) -> bool:
    """The beginning of time: an interval that starts here has no stated start."""
    return t <= NEG_INF


def is_open_end(t: datetime) -> bool:
    """The end of time: an interval that ends here is still open (also "the current
    belief", as a ``known_at``)."""
    return t >= POS_INF


def resolve_tz(tz: str | tzinfo | None) -> tzinfo:
    """A tzinfo from a name like ``"Europe/Berlin"``; ``None`` means UTC."""
    if tz is None:
        return UTC
    if isinstance(tz, tzinfo):
        return tz
    found = date_tz.gettz(tz)
    if found is None:
        raise InvalidTimeError(f"unknown time zone {tz!r}")
    return found


def now() -> datetime:
    """The wall clock, in UTC, truncated to the store's resolution (microseconds)."""
    return datetime.now(UTC)


#: The words ``to_instant`` reads as the open ends (any case, around whitespace).
POS_INF_WORDS = frozenset({"inf", "+inf", "infinity", "+infinity", "forever"})
NEG_INF_WORDS = frozenset({"-inf", "-infinity"})
INFINITE_WORDS = POS_INF_WORDS | NEG_INF_WORDS

# Two defaults that differ in year, month and day (both leap years, so "29 Feb" is not
# refused for the wrong reason): a date read the same under both names a full date.
_DEFAULT_A = datetime(1904, 1, 1)
_DEFAULT_B = datetime(1908, 2, 2)


def to_instant(value: TimeLike, *, tz: str | tzinfo | None = None, field: str = "time") -> datetime:
    """Normalise ``value`` to an aware UTC datetime.

    - aware ``datetime``: converted to UTC;
    - naive ``datetime``: rejected (a naive object is ambiguous; attach a tzinfo);
    - ``date`` or a string without an offset: localised in ``tz`` (default UTC), the
      explicit, documented zone of the caller;
    - ``int``/``float``: seconds since the Unix epoch;
    - the strings ``"-inf"``/``"inf"`` (and ``"+inf"``): the open-end sentinels;
    - other strings: ISO 8601, else a written date ("March 1, 2024 10:00 AM") that
      names year, month and day itself: a bare "10:00" or "March 3" is refused, never
      completed from today's date.
    """
    zone = resolve_tz(tz)
    if isinstance(value, datetime):
        if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
            raise InvalidTimeError(
                f"{field}: naive datetime {value.isoformat()} has no time zone; "
                "pass an aware datetime (e.g. datetime(..., tzinfo=timezone.utc))"
            )
        return value.astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=zone).astimezone(UTC)
    if isinstance(value, bool):
        raise InvalidTimeError(f"{field}: expected a time, got a boolean")
    if isinstance(value, int | float):
        try:
            return EPOCH + timedelta(seconds=value)
        except (OverflowError, ValueError) as exc:
            raise InvalidTimeError(f"{field}: epoch seconds {value!r} out of range") from exc
    if isinstance(value, str):
        text = value.strip()
        lowered = text.lower()
        if lowered in POS_INF_WORDS:
            return POS_INF
        if lowered in NEG_INF_WORDS:
            return NEG_INF
        if not text:
            raise InvalidTimeError(f"{field}: empty time string")
        parsed = _parse_date_text(text, field)
        if parsed.tzinfo is None or _offset_of(parsed) is None:
            parsed = parsed.replace(tzinfo=zone)
        return _in_utc(parsed, field, value)
    raise InvalidTimeError(
        f"{field}: expected a datetime, date or string, got {type(value).__name__}"
    )


def _offset_of(parsed: datetime) -> timedelta | None:
    try:
        return parsed.utcoffset()
    except ValueError:  # an offset of 24 h or more: _in_utc names it
        return timedelta(0)


def _in_utc(parsed: datetime, field: str, value: str) -> datetime:
    """A parsed string in UTC; the parser accepts offsets and years Python cannot hold."""
    try:
        return parsed.astimezone(UTC)
    except ValueError:  # dateutil builds any offset; datetime refuses 24 h or more
        offset = parsed.tzinfo.utcoffset(None) if parsed.tzinfo else None
        shown = _offset_text(offset) if offset is not None else "its UTC offset"
        raise InvalidTimeError(
            f"{field}: {value!r}: UTC offset {shown} is out of range "
            "(offsets lie strictly between -24:00 and +24:00)"
        ) from None
    except OverflowError:
        raise InvalidTimeError(
            f"{field}: {value!r} is out of range (in UTC it falls before year 1 or after 9999)"
        ) from None


def _offset_text(offset: timedelta) -> str:
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(offset) // timedelta(minutes=1)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def _parse_date_text(text: str, field: str) -> datetime:
    """ISO 8601, else a written date that names year, month and day (maybe naive)."""
    try:
        return date_parser.isoparse(text)
    except (ValueError, OverflowError):
        pass
    try:
        a = date_parser.parse(text, default=_DEFAULT_A)
        b = date_parser.parse(text, default=_DEFAULT_B)
    except (ValueError, OverflowError) as exc:
        raise InvalidTimeError(f"{field}: cannot read {text!r} as a time") from exc
    if a.date() != b.date():
        raise InvalidTimeError(f"{field}: {text!r} is not a complete date")
    return a


def to_micros(t: datetime) -> int:
    """Microseconds since the epoch: the integer form both backends can index."""
    delta = t - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(us: int) -> datetime:
    return EPOCH + timedelta(microseconds=us)


def format_instant(t: datetime) -> str:
    """ISO 8601 in UTC, with ``-inf``/``inf`` for the sentinels."""
    if t == NEG_INF:
        return "-inf"
    if t == POS_INF:
        return "inf"
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")
