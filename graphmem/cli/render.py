"""How results look on a terminal and as JSON: tables that fit, times, statuses."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, is_dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.cli.context import EXIT_OK, Ctx, json_default
from graphmem.time.instant import format_instant, is_infinite

if TYPE_CHECKING:
    from graphmem.answer import Answer
    from graphmem.model import Fact

if TYPE_CHECKING:
    from graphmem.answer import Answer
    from graphmem.model import Fact


# -- rendering ---------------------------------------------------------------------------


def short_time(value: datetime) -> str:
    """A compact human time: a date at midnight, else minutes; open ends as -∞ / ∞."""
    if is_infinite(value):
        return "∞" if value.year > 1 else "-∞"
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


def make_table(title: str | None = None, *columns: str):
    from rich import box
    from rich.table import Table
    from rich.text import Text

    class DataTable(Table):
        """A table whose plain-string cells are data: never read as markup."""

        def add_row(self, *cells, **options):
            safe = [Text.from_markup(shown_text(c)) if isinstance(c, str) else c for c in cells]
            super().add_row(*safe, **options)

    table = DataTable(title=title, box=box.SIMPLE_HEAVY, title_justify="left", title_style="bold")
    for column in columns:
        table.add_column(column, overflow="fold")
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


def facts_table(title: str, rows: Sequence[tuple[Fact, str | None]], *, recorded: bool = True):
    columns = ["subject", "predicate", "object", "valid from", "valid to"]
    if recorded:
        columns += ["recorded", "expired"]
    columns.append("status")
    table = make_table(title, *columns)
    for row, status in rows:
        cells = [
            row.subject,
            row.predicate,
            row.object,
            short_time(row.valid_from),
            short_time(row.valid_to),
        ]
        if recorded:
            cells += [short_time(row.recorded_at), short_time(row.expired_at)]
        cells.append(status_text(status))
        table.add_row(*cells)
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
        e = hit.episode
        data["episode"] = {
            "id": e.id,
            "session": e.session,
            "speaker": e.speaker,
            "timestamp": format_instant(e.timestamp),
            "text": e.text,
        }
    return data


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
