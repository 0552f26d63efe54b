"""A picture of time: each predicate's values of one subject as bars over valid time.

``plot_timeline(memory, "Sam", "timeline.png")`` draws, per predicate, what the store
believes now (solid bars: current values, and values that ended in the world) and,
in a lane below, what it used to believe and no longer does (faded, hatched bars:
superseded by a later change, corrected as a mistake, or retracted). A legend names
the styles; a dashed line marks now (and ``as_of`` / ``known_at`` when given).

Formats by file extension: ``.png``, ``.svg``, ``.pdf``, or ``.html`` (a
self-contained page: the SVG inline plus a table of every row with its four
timestamps). Rendering uses matplotlib's object API (no pyplot, no GUI backend).

>>> import os, tempfile
>>> from graphmem import Memory
>>> mem = Memory.open(os.path.join(tempfile.mkdtemp(), "m.db"), embedder=None)
>>> _ = mem.remember("Sam", "lives_in", "Berlin", valid_from="2019-01-01")
>>> _ = mem.supersede("Sam", "lives_in", "Lisbon", since="2024-02-12")
>>> path = plot_timeline(mem, "Sam", os.path.join(tempfile.mkdtemp(), "t.png"))
>>> path.stat().st_size > 0
True
>>> mem.close()
"""

from __future__ import annotations

import html
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import GraphmemError
from graphmem.model import DEFAULT_SCOPE, Fact
from graphmem.time.instant import format_instant, is_infinite, now

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = ["FORMATS", "plot_timeline", "render_figure", "render_html"]

FORMATS = (".png", ".svg", ".pdf", ".html", ".htm")
EXPIRED = ("superseded", "corrected", "retracted")

# How each status is drawn: (fill alpha, hatch, edge colour, line style).
_STYLE = {
    "current": (0.95, None, "#222222", "solid"),
    "ended": (0.55, None, "#555555", "solid"),
    "superseded": (0.22, "///", "#777777", "solid"),
    "corrected": (0.12, "xxx", "#c0392b", "dashed"),
    "retracted": (0.22, "...", "#777777", "dotted"),
}
_LABEL = {
    "current": "current (believed, valid now)",
    "ended": "ended (believed, over in the world)",
    "superseded": "superseded (a later change replaced this belief)",
    "corrected": "corrected (recorded by mistake)",
    "retracted": "retracted (stopped holding)",
}
_PALETTE = (
    "#4C72B0",
    "#DD8452",
    "#55A868",
    "#C44E52",
    "#8172B3",
    "#937860",
    "#DA8BC3",
    "#8C8C8C",
    "#CCB974",
    "#64B5CD",
)


@dataclass
class _Bar:
    row: Fact
    status: str
    start: datetime
    end: datetime
    lane: int = 0


def _pack(bars: list[_Bar]) -> int:
    """Greedy interval packing into lanes; returns the number of lanes used."""
    ends: list[datetime] = []
    for bar in sorted(bars, key=lambda b: (b.start, b.end)):
        for i, end in enumerate(ends):
            if end <= bar.start:
                bar.lane, ends[i] = i, bar.end
                break
        else:
            bar.lane = len(ends)
            ends.append(bar.end)
    return max(1, len(ends))


def _span(rows: Sequence[tuple[Fact, str]], marks: Sequence[datetime]) -> tuple[datetime, datetime]:
    finite = [
        t for row, _ in rows for t in (row.valid_from, row.valid_to) if not is_infinite(t)
    ] + [m for m in marks if not is_infinite(m)]
    lo, hi = min(finite), max(finite)
    pad = max((hi - lo) * 0.06, timedelta(days=7))
    return lo - pad, hi + pad


def render_figure(
    rows: Sequence[tuple[Fact, str]],
    subject: str,
    *,
    at: datetime | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    title: str | None = None,
):
    """A matplotlib ``Figure`` of the rows (``Memory.history`` output)."""
    from matplotlib import dates as mdates
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    at = at or now()
    marks = [at] + [m for m in (as_of, known_at) if m is not None]
    if not rows:
        raise GraphmemError(f"nothing recorded about {subject!r} to draw")
    lo, hi = _span(rows, marks)
    predicates = list(dict.fromkeys(row.predicate for row, _ in rows))

    colours: dict[tuple[str, str], str] = {}
    lanes: list[tuple[str, bool, list[_Bar]]] = []  # (predicate, expired?, bars)
    for predicate in predicates:
        for expired in (False, True):
            bars = [
                _Bar(row, status, max(row.valid_from, lo), min(row.valid_to, hi))
                for row, status in rows
                if row.predicate == predicate and (status in EXPIRED) == expired
            ]
            if not bars:
                continue
            count = _pack(bars)
            for i in range(count):
                lanes.append((predicate, expired, [b for b in bars if b.lane == i]))
            for bar in bars:
                key = (predicate, bar.row.object)
                colours.setdefault(key, _PALETTE[len(colours) % len(_PALETTE)])

    height = 2.2 + 0.5 * len(lanes)
    fig = Figure(figsize=(11, max(3.0, height)), dpi=110, layout="constrained")
    ax = fig.add_subplot()
    y_labels: list[str] = []
    statuses: set[str] = set()
    for y, (predicate, expired, bars) in enumerate(lanes):
        y_labels.append(f"{predicate}  (no longer believed)" if expired else predicate)
        for bar in bars:
            alpha, hatch, edge, style = _STYLE[bar.status]
            statuses.add(bar.status)
            colour = colours[(predicate, bar.row.object)]
            left = mdates.date2num(bar.start)
            width = max(mdates.date2num(bar.end) - left, 0.5)
            ax.barh(
                y,
                width,
                left=left,
                height=0.62 if not expired else 0.45,
                color=colour,
                alpha=alpha,
                hatch=hatch,
                edgecolor=edge,
                linestyle=style,
                linewidth=1.2,
            )
            # an outline at full opacity keeps faded bars readable
            ax.barh(
                y,
                width,
                left=left,
                height=0.62 if not expired else 0.45,
                fill=False,
                edgecolor=edge,
                linestyle=style,
                linewidth=1.0,
            )
            label = bar.row.object + (f"  [{bar.status}]" if expired else "")
            span = mdates.date2num(hi) - mdates.date2num(lo)
            if width / span >= 0.012 * (len(label) + 2):  # the label fits inside the bar
                ax.text(
                    left + span * 0.004,
                    y,
                    label,
                    va="center",
                    ha="left",
                    fontsize=8.5,
                    clip_on=True,
                    color="#111111" if not expired else "#444444",
                    parse_math=False,  # a stored "$...$" is text, not mathtext
                )
            else:  # a short stretch: label it just above the bar
                ax.text(
                    left,
                    y - 0.34,
                    label,
                    va="bottom",
                    ha="left",
                    fontsize=7,
                    clip_on=True,
                    color="#333333",
                    parse_math=False,
                )
            if bar.row.valid.is_open_ended:
                ax.plot(mdates.date2num(bar.end), y, marker=">", color=edge, markersize=5)
            if is_infinite(bar.row.valid_from):
                ax.plot(mdates.date2num(bar.start), y, marker="<", color=edge, markersize=5)
    ax.set_yticks(range(len(lanes)), y_labels, fontsize=9)
    for tick in ax.get_yticklabels():
        tick.set_parse_math(False)
    ax.invert_yaxis()
    ax.set_xlim(mdates.date2num(lo), mdates.date2num(hi))
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_xlabel("valid time (when it was true in the world)")
    markers = (
        (at, "now", "#333333"),
        (as_of, "as of", "#1f77b4"),
        (known_at, "known at", "#9467bd"),
    )
    for i, (when, name, colour) in enumerate(markers):
        if when is None or not (lo <= when <= hi):
            continue
        x = mdates.date2num(when)
        ax.axvline(x, color=colour, linestyle="--", linewidth=1)
        ax.annotate(
            f"{name} {format_instant(when)[:10]}",
            (x, 0),
            xycoords=("data", "axes fraction"),
            xytext=(3, 3 + 11 * i),
            textcoords="offset points",
            fontsize=8,
            color=colour,
            backgroundcolor=(1, 1, 1, 0.7),
        )
    handles = [
        Patch(
            facecolor="#9aa5b1",
            alpha=_STYLE[s][0],
            hatch=_STYLE[s][1],
            edgecolor=_STYLE[s][2],
            linestyle=_STYLE[s][3],
            label=_LABEL[s],
        )
        for s in ("current", "ended", "superseded", "corrected", "retracted")
        if s in statuses
    ]
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncol=min(3, len(handles)),
        fontsize=8,
        frameon=False,
    )
    belief = f", as known at {format_instant(known_at)[:10]}" if known_at is not None else ""
    ax.set_title(title or f"{subject}: values over valid time{belief}", fontsize=11, loc="left",
                 parse_math=False)  # fmt: skip
    return fig


def render_html(
    rows: Sequence[tuple[Fact, str]],
    subject: str,
    *,
    at: datetime | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
) -> str:
    """A self-contained HTML page: the timeline as inline SVG plus a table of rows."""
    fig = render_figure(rows, subject, at=at, as_of=as_of, known_at=known_at)
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    svg = buffer.getvalue()
    svg = svg[svg.find("<svg") :]  # drop the XML prolog and doctype
    cells = []
    for row, status in rows:
        values = (
            row.predicate,
            row.object,
            format_instant(row.valid_from),
            format_instant(row.valid_to),
            format_instant(row.recorded_at),
            format_instant(row.expired_at),
            status,
        )
        tds = "".join(f"<td>{html.escape(v)}</td>" for v in values)
        cells.append(f'<tr class="{html.escape(status)}">{tds}</tr>')
    title = html.escape(f"graphmem timeline: {subject}")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.85rem; margin-top: 1rem; }}
td, th {{ border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; }}
tr.superseded, tr.retracted {{ color: #777; }}
tr.corrected {{ color: #c0392b; text-decoration: line-through; }}
svg {{ max-width: 100%; height: auto; }}
</style></head>
<body>
<h1>{title}</h1>
<p>Bars run over valid time (when a value was true in the world). Faded, hatched bars are
beliefs the store no longer holds: superseded, corrected or retracted.</p>
{svg}
<table>
<thead><tr><th>predicate</th><th>value</th><th>valid_from</th><th>valid_to</th>
<th>recorded_at</th><th>expired_at</th><th>status</th></tr></thead>
<tbody>
{chr(10).join(cells)}
</tbody></table>
</body></html>
"""


def plot_timeline(
    memory: Memory,
    subject: str,
    output: str | os.PathLike[str],
    *,
    predicate: str | None = None,
    scope: str = DEFAULT_SCOPE,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
) -> Path:
    """Draw ``subject``'s timeline to ``output`` (``.png``, ``.svg``, ``.pdf``, ``.html``)."""
    path = Path(output)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise GraphmemError(
            f"cannot draw a timeline as {suffix or 'a file without extension'!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
    rows = memory.history(subject, predicate, scope=scope, known_at=known_at)
    if not rows:
        what = f"{subject} {predicate}" if predicate else subject
        raise GraphmemError(f"nothing recorded about {what!r} in scope {scope!r}")
    at = now()
    if suffix in (".html", ".htm"):
        page = render_html(rows, subject, at=at, as_of=as_of, known_at=known_at)
        path.write_text(page, encoding="utf-8")
    else:
        fig = render_figure(rows, subject, at=at, as_of=as_of, known_at=known_at)
        fig.savefig(path, format=suffix[1:])
    return path
