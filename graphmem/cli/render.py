"""How results look on a terminal and as JSON: tables that fit, times, statuses."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, is_dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.cli.context import EXIT_OK, Ctx, json_default
from graphmem.time.instant import format_instant, is_infinite, is_open_start

if TYPE_CHECKING:
    from graphmem.answer import Answer
    from graphmem.model import Fact


# -- rendering ---------------------------------------------------------------------------


def short_time(value: datetime) -> str:
    """A compact human time: a date at midnight, else minutes; open ends as -∞ / ∞."""
    if is_infinite(value):
        return "-∞" if is_open_start(value) else "∞"
    text = format_instant(value)
    if text[10:] in ("T00:00:00Z",):
        return text[:10]
    return text[:16].replace("T", " ")


# Control characters in stored text would reach the terminal raw (ESC sequences, OSC
# links); they are shown as visible escapes instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown_text(value: object) -> str:
    """Stored text made safe to print inside markup: control characters visible, rich
    markup escaped ("[/]" or "[link=...]" in a value is text, not formatting)."""
    from rich.markup import escape

    return escape(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value)))


def make_table(
    title: str | None = None, *columns: str, wrap: Sequence[str] | None = None, tight: bool = False
):
    """A table of data cells. Only the columns in ``wrap`` (default: all) may break
    across lines, between words where they can; the others (dates, statuses, names of
    predicates) keep their width, so a narrow terminal never cuts "predicate" in two."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    class DataTable(Table):
        """A table whose plain-string cells are data: never read as markup."""

        def add_row(self, *cells, **options):
            safe = [Text.from_markup(shown_text(c)) if isinstance(c, str) else c for c in cells]
            super().add_row(*safe, **options)

    table = DataTable(title=title, box=box.SIMPLE_HEAVY, title_justify="left", title_style="bold",
                      collapse_padding=tight, pad_edge=not tight)  # fmt: skip
    for column in columns:
        breaks = wrap is None or column in wrap
        table.add_column(column, overflow="fold" if breaks else "ellipsis", no_wrap=not breaks,
                         min_width=None if breaks else len(column))  # fmt: skip
    return table


_STATUS_STYLE = {
    "current": "green",
    "ended": "cyan",
    "superseded": "yellow",
    "corrected": "red",
    "retracted": "magenta",
}


def styled_text(text: str, style: str):
    """Stored text in a style, as a cell that is never read as markup."""
    from rich.text import Text

    return Text(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text), style=style)


def status_text(status: str | None):
    return styled_text(status or "", _STATUS_STYLE.get(status or "", "white"))


def fact_json(row: Fact, status: str | None = None) -> dict[str, Any]:
    from graphmem.export import fact_record

    data = fact_record(row)
    data.pop("kind", None)
    if status is not None:
        data["status"] = status
    return data


def facts_table(
    title: str,
    rows: Sequence[tuple[Fact, str | None]],
    *,
    recorded: bool = True,
    width: int = 80,
):
    """Fact rows with their intervals and status (worked out now when not given). A
    column that says the same on every row (one subject, one predicate, nothing
    expired) says it once, in the title; under 110 columns times are shown as days."""
    from graphmem.history import status_of
    from graphmem.time.instant import now

    at = now()
    rows = [(row, status or status_of(row, at)) for row, status in rows]
    day = width < 110
    when = (
        (lambda t: short_time(t)[:10] if not is_infinite(t) else short_time(t))
        if day
        else short_time
    )
    columns: dict[str, Any] = {
        "subject": lambda r: r.subject,
        "predicate": lambda r: r.predicate,
        "object": lambda r: r.object,
        "valid from": lambda r: when(r.valid_from),
        "valid to": lambda r: when(r.valid_to),
    }
    if recorded:
        columns |= {
            "recorded": lambda r: when(r.recorded_at),
            "expired": lambda r: when(r.expired_at),
        }
    for name in ("subject", "predicate", "expired"):
        values = {columns[name](r) for r, _ in rows} if name in columns else set()
        if len(values) == 1 and len(rows) > 1 or (name == "expired" and values == {"∞"}):
            (value,) = values
            if name != "expired" and value not in title:
                title += f", {name} {value}"
            del columns[name]
    table = make_table(title, *columns, "status", wrap=("subject", "object"), tight=day)
    for row, status in rows:
        table.add_row(*(render(row) for render in columns.values()), status_text(status))
    return table


def timeline_table(title: str, entries: Sequence[Any]):
    """Timeline entries: a value's coalesced stretches with their status."""
    table = make_table(title, "predicate", "value", "from", "until", "status")
    for e in entries:
        table.add_row(e.predicate, e.object, short_time(e.valid_from), short_time(e.valid_to),
                      status_text(e.status))  # fmt: skip
    return table


def answer_json(answer: Answer) -> dict[str, Any]:
    return {
        "question": answer.question,
        "answer": answer.answer,
        "known": answer.known,
        "mode": answer.mode,
        "subject": answer.subject,
        "predicate": answer.predicate,
        "at": format_instant(answer.at) if answer.at is not None else None,
        "values": [
            {
                "value": v.value,
                "valid_from": format_instant(v.valid_from),
                "valid_to": format_instant(v.valid_to),
                "fact_ids": list(v.fact_ids),
            }
            for v in answer.values
        ],
        "supporting": [fact_json(f) for f in answer.supporting],
        "hits": [hit_json(h) for h in answer.hits],
    }


def hit_json(hit: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": hit.kind,
        "id": hit.id,
        "score": round(hit.score, 6),
        "components": hit.components,
        "text": hit.text,
    }
    if hit.fact is not None:
        data["fact"] = fact_json(hit.fact, hit.status)
    if hit.episode is not None:
        data["episode"] = turn_json(hit.episode)
    elif hit.turn is not None:  # a fact's: the turn that established it
        data["turn"] = turn_json(hit.turn)
    if hit.passage is not None:
        data["passage"] = hit.passage
    return data


def turn_json(e: Any) -> dict[str, Any]:
    return {
        "id": e.id,
        "session": e.session,
        "speaker": e.speaker,
        "timestamp": format_instant(e.timestamp),
        "text": e.text,
    }


def write_result(ctx: Ctx, verb: str, result: Any) -> int:
    inserted = [fact_json(f) for f in result.inserted]
    if ctx.json:
        ctx.emit(
            {
                "verb": verb,
                "inserted": inserted,
                "expired": list(result.expired),
                "skipped": list(result.skipped),
                "recorded_at": {k: format_instant(v) for k, v in result.recorded_at.items()},
            }
        )
        return EXIT_OK
    if not result.changed:
        ctx.out.print("[dim]nothing changed (already known)[/]")
        return EXIT_OK
    ctx.out.print(
        f"{verb}: {len(result.inserted)} row(s) written, {len(result.expired)} row(s) expired"
    )
    for fact in result.inserted:
        ctx.out.print(f"  {shown_text(fact.text)} [dim]({fact.describe_validity()})[/]")
    return EXIT_OK


def plain_text(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool | dict | list):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return json.loads(json.dumps(asdict(value), default=json_default))
    return str(value)


def predicate_json(p: Any) -> dict[str, Any]:
    return {
        "name": p.name,
        "cardinality": p.cardinality,
        "object_kind": p.object_kind,
        "phrase": p.phrase,
    }


def one_line(text: str) -> str:
    return " ".join(str(text).split())
