"""Structured facts (the ``facts-csv`` and ``facts-jsonl`` formats): a row or object
with subject, predicate, object and an optional validity interval -> ``FactInput``."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from pydantic import ValidationError

from graphmem.model import FactInput, Provenance
from graphmem.time.instant import NEG_INF, POS_INF
from graphmem.time.interval import Interval

from .fields import first_key, validation_message
from .record import RecordError
from .times import parse_time


def _fact_string(data: dict[str, Any], key: str, *, required: bool) -> str | None:
    value = data.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise RecordError(f"{key} is missing")
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value).strip()
    raise RecordError(f"{key}: expected a string, got {type(value).__name__}")


def make_fact(data: dict[str, Any], *, scope: str, tz: tzinfo | None, source: str) -> FactInput:
    """A FactInput from a row/object with subject, predicate, object, and optionally
    valid_from / valid_to (empty or missing = open end; ``from``/``to`` are aliases),
    scope (overrides the loader's), confidence (default 1), subject_type, object_type."""
    subject = _fact_string(data, "subject", required=True)
    predicate = _fact_string(data, "predicate", required=True)
    obj = _fact_string(data, "object", required=True)
    start = first_key(data, ("valid_from", "from"))
    end = first_key(data, ("valid_to", "to"))
    valid_from = NEG_INF
    valid_to = POS_INF
    if start is not None and not (isinstance(start[1], str) and not start[1].strip()):
        valid_from = parse_time(start[1], tz, field=start[0], allow_infinite=True)
    if end is not None and not (isinstance(end[1], str) and not end[1].strip()):
        valid_to = parse_time(end[1], tz, field=end[0], allow_infinite=True)
    if not Interval.well_formed(valid_from, valid_to):
        raise RecordError("valid_from must be before valid_to (intervals are [from, to))")
    confidence: Any = data.get("confidence")
    if confidence is None or (isinstance(confidence, str) and not confidence.strip()):
        confidence = 1.0
    elif isinstance(confidence, bool):
        raise RecordError("confidence: expected a number")
    else:
        try:
            confidence = float(confidence)
        except (TypeError, ValueError):
            raise RecordError(f"confidence: cannot read {confidence!r} as a number") from None
    row_scope = _fact_string(data, "scope", required=False)
    try:
        return FactInput(
            subject=subject,
            predicate=predicate,
            object=obj,
            valid_from=valid_from,
            valid_to=valid_to,
            scope=row_scope or scope,
            confidence=confidence,
            subject_type=_fact_string(data, "subject_type", required=False),
            object_type=_fact_string(data, "object_type", required=False),
            provenance=Provenance(source=source, extractor="given"),
        )
    except ValidationError as exc:
        raise RecordError(validation_message(exc)) from None
