"""Reading the fields of a raw record (a JSON object, a CSV row)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError


def first_key(data: dict[str, Any], keys: Iterable[str]) -> tuple[str, Any] | None:
    """The first of ``keys`` present in ``data`` with a non-null value."""
    for key in keys:
        if data.get(key) is not None:
            return key, data[key]
    return None


def validation_message(exc: ValidationError) -> str:
    """Pydantic's complaints about a record, as one line (``field: reason; ...``)."""
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts)
