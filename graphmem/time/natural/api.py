"""The public readers: :func:`find_time_expressions` (the time phrases in a text),
:func:`resolve_time` (a text that is one time phrase) and :func:`parse_when` (an API or
CLI time argument; :func:`read_time` the same, its errors naming the argument). The rules they follow are in :mod:`graphmem.time.natural`.

>>> from graphmem.time.instant import to_instant
>>> parse_when("3 days ago", to_instant("2024-05-15T14:30:00Z")).isoformat()
'2024-05-12T00:00:00+00:00'
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta, tzinfo

from dateutil import parser as date_parser

from graphmem.errors import EmptyIntervalError, InvalidTimeError
from graphmem.time.instant import INFINITE_WORDS, NEG_INF, resolve_tz, to_instant
from graphmem.time.interval import Interval
from graphmem.time.natural.chart import Chart, expression_interval
from graphmem.time.natural.expression import TimeExpression
from graphmem.time.natural.grammar import WORD_START
from graphmem.time.natural.periods import Ctx


def _context(
    reference: datetime, tz: str | tzinfo | None, prefer: str, dayfirst: bool
) -> tuple[Ctx, datetime]:
    if not isinstance(reference, datetime):
        raise InvalidTimeError(f"reference must be a datetime, got {type(reference).__name__}")
    if reference.tzinfo is None or reference.tzinfo.utcoffset(reference) is None:
        raise InvalidTimeError(
            f"reference {reference.isoformat()} is naive; pass the utterance's aware timestamp"
        )
    if prefer not in ("past", "future"):
        raise InvalidTimeError(f"prefer must be 'past' or 'future', got {prefer!r}")
    zone = resolve_tz(tz) if tz is not None else reference.tzinfo
    try:
        local, ref_utc = reference.astimezone(zone).replace(tzinfo=None), reference.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise InvalidTimeError(f"reference {reference.isoformat()} is out of range") from exc
    return Ctx(local, zone, prefer, dayfirst, find_time_expressions), ref_utc


def _candidates(
    text: str, ctx: Ctx, reference: datetime, *, allow_weak: bool
) -> list[tuple[TimeExpression, bool]]:
    """Every reading at every word start, resolved, in (start, longest-first, rule) order,
    each with whether it depends on the reference (``parse_when`` needs to know)."""
    chart = Chart(text)
    found: list[tuple[int, int, int, TimeExpression, bool]] = []
    for start_match in WORD_START.finditer(text):
        for order, e in enumerate(chart.exprs(start_match.start())):
            if e.weak and not allow_weak:
                continue
            own = replace(ctx, touched=[False])
            try:
                resolved = expression_interval(e, own)
            except (EmptyIntervalError, ValueError, OverflowError):
                resolved = None
            if resolved is None:
                continue
            interval, grain, kind = resolved
            expr = TimeExpression(
                text[e.start : e.end], (e.start, e.end), interval, grain, kind, reference
            )
            found.append((e.start, -(e.end - e.start), order, expr, own.touched[0]))
    found.sort(key=lambda c: c[:3])
    return [(c[3], c[4]) for c in found]


def find_time_expressions(
    text: str,
    reference: datetime,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> list[TimeExpression]:
    """The time phrases of ``text``, resolved against ``reference``: non-overlapping, in
    order; where readings overlap the longest wins (then the earliest)."""
    if not isinstance(text, str):
        raise InvalidTimeError(f"expected text, got {type(text).__name__}")
    ctx, ref_utc = _context(reference, tz, prefer, dayfirst)
    candidates = [c for c, _ in _candidates(text, ctx, ref_utc, allow_weak=False)]
    candidates.sort(key=lambda c: (c.span[0] - c.span[1], c.span[0]))
    taken: list[TimeExpression] = []
    for c in candidates:
        if all(c.span[1] <= t.span[0] or c.span[0] >= t.span[1] for t in taken):
            taken.append(c)
    return _in_month_said(sorted(taken, key=lambda c: c.span))


_ORDINAL_ONLY = re.compile(r"(?i)^(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)$")


def _in_month_said(found: list[TimeExpression]) -> list[TimeExpression]:
    """ "keys on 10th March and move on the 14th": a bare ordinal day after a date that
    names its month falls in that month (and year), not the one around the reference."""
    out: list[TimeExpression] = []
    for e in found:
        bare = _ORDINAL_ONLY.match(e.text)
        before = next((p for p in reversed(out) if p.grain in ("day", "month")
                       and not _ORDINAL_ONLY.match(p.text)), None)  # fmt: skip
        if bare and before is not None and e.kind == "point":
            start = before.interval.start
            try:
                day = start.replace(
                    day=int(bare.group(1)), hour=0, minute=0, second=0, microsecond=0
                )
            except ValueError:
                day = None
            if day is not None:
                e = replace(e, interval=Interval(day, day + timedelta(days=1)))
        out.append(e)
    return out


def _resolve_whole(text: str, ctx: Ctx, ref_utc: datetime) -> tuple[TimeExpression, bool] | None:
    """The reading that covers all of ``text`` (trailing sentence punctuation aside), and
    whether it depends on the reference."""
    lo = len(text) - len(text.lstrip())
    full = len(text.rstrip())
    bare = len(text.rstrip().rstrip(".,;!?").rstrip())
    for c, relative in _candidates(text, ctx, ref_utc, allow_weak=True):
        if c.span[0] == lo and bare <= c.span[1] <= full:
            return c, relative
    return None


def resolve_time(
    text: str,
    reference: datetime,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> TimeExpression:
    """``text`` as one time expression (bare "March", "2019", "3pm" are accepted here).

    Raises :class:`InvalidTimeError` naming the text when it is not one expression.
    """
    if not isinstance(text, str):
        raise InvalidTimeError(f"expected a time phrase, got {type(text).__name__}")
    ctx, ref_utc = _context(reference, tz, prefer, dayfirst)
    found = _resolve_whole(text, ctx, ref_utc)
    if found is None:
        raise InvalidTimeError(f"cannot read {text!r} as a time expression")
    return found[0]


_PLACEHOLDER_REFERENCE = datetime(2000, 1, 1, tzinfo=UTC)


def parse_when(
    value: object,
    reference: datetime | None = None,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> datetime:
    """A UTC instant for an API or CLI argument.

    Datetimes, dates, epoch numbers, ISO strings and written full dates go through
    :func:`~graphmem.time.instant.to_instant`; a natural phrase ("yesterday", "last
    Tuesday", "3 days ago", "March 2024") gives the start of its interval. Relative
    phrases need ``reference`` (never the wall clock: pass ``now()`` explicitly if that is
    what you mean); phrases without a start ("until May") are rejected.
    """
    if reference is not None:
        _context(reference, tz, prefer, dayfirst)  # validates
    zone = resolve_tz(tz) if tz is not None else (reference.tzinfo if reference else UTC)
    if not isinstance(value, str):
        return to_instant(value, tz=zone, field="when")  # type: ignore[arg-type]
    text = value.strip()
    if not text:
        raise InvalidTimeError("when: empty time string")
    if text.lower() in INFINITE_WORDS:
        return to_instant(text)
    try:
        date_parser.isoparse(text)
    except (ValueError, OverflowError):
        pass
    else:
        return to_instant(text, tz=zone, field="when")
    ctx, ref_utc = _context(reference or _PLACEHOLDER_REFERENCE, zone, prefer, dayfirst)
    found = _resolve_whole(text, ctx, ref_utc)
    if found is not None:
        expr, relative = found
        if reference is None and relative:
            raise InvalidTimeError(f"when: {value!r} is relative; pass a reference time")
        if expr.interval.start == NEG_INF:
            raise InvalidTimeError(f"when: {value!r} ({expr.kind}) has no start; name a time")
        return expr.interval.start
    # a written full date ("March 1, 2024 10:00 AM"), read as to_instant reads it; its
    # error says why not (unreadable, incomplete, an offset or year out of range)
    return to_instant(text, tz=zone, field="when")


def read_time(
    value: object, field: str, *, reference: datetime, tz: str | tzinfo | None = None
) -> datetime:
    """A time argument, read one way by the library and the CLI alike: a datetime, date,
    epoch number, ISO string or phrase ("yesterday", "last March"); a phrase is resolved
    against ``reference``, the reader's "now" (``Memory.now()``). Errors name ``field``
    (a keyword, or a CLI flag).

    >>> from graphmem.time.instant import to_instant
    >>> read_time("last March", "as_of", reference=to_instant("2024-05-15")).date()
    datetime.date(2024, 3, 1)
    >>> read_time("the day after never", "--as-of", reference=to_instant("2024-05-15"))
    Traceback (most recent call last):
    graphmem.errors.InvalidTimeError: --as-of: cannot read 'the day after never' as a time
    """
    if not isinstance(value, str):
        return to_instant(value, tz=tz, field=field)  # type: ignore[arg-type]
    try:
        return parse_when(value, reference, tz=tz)
    except InvalidTimeError as exc:  # name the argument, not the parser's "when"
        raise InvalidTimeError(f"{field}: {str(exc).removeprefix('when: ')}") from None
