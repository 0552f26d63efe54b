"""A picture of time: each predicate's values of one subject as bars over valid time.

(Over 500 lines: the plan of a picture (window, lanes, labels that never collide) and
its drawing are one idea, tested together through the plan's geometry.)

``plot_timeline(memory, "Sam", "timeline.png")`` draws what the store believes: a bar per
value over the stretch it held (solid: true now; lighter: over in the world), one row
per predicate (more when values overlap or their labels need the room). The picture is
laid out before it is drawn (``plan_timeline``), so that it reads at a glance:

- the axis fits the stretch that matters: the last two years (``YEARS_SHOWN``) and the
  current values; a value that began earlier enters from the left edge with an arrow
  and its start in its label; values that ended before the window are counted in the
  subtitle; ``since`` widens (or moves) the window's start;
- every label sits in free space: inside its bar, else beside it, else shortened with
  an ellipsis; a bar's label is never drawn over another bar or label, nor past an edge;
- what the store no longer believes (superseded, corrected, retracted) is hidden and
  counted; with ``history=True`` it is drawn in its own group below, each bar ending
  where the belief ended (a ``|`` cap), never running on as if still true.

``plot_bitemporal`` (``graphmem.bitemporal_plot``) draws the other picture of one key:
valid time across, recorded time up.

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
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import GraphmemError
from graphmem.model import DEFAULT_SCOPE, Fact
from graphmem.plot_text import fit, text_size
from graphmem.time.instant import NEG_INF, POS_INF, format_instant, is_infinite, now
from graphmem.time.interval import clip, touches

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = [
    "FORMATS",
    "TimelinePlan",
    "plan_timeline",
    "plot_timeline",
    "render_figure",
    "render_html",
]

FORMATS = (".png", ".svg", ".pdf", ".html", ".htm")
EXPIRED = ("superseded", "corrected", "retracted")
YEARS_SHOWN = 2  # the default window: this many years back from now, plus what is current

# The figure's geometry, fixed so labels can be placed in pixels before drawing.
DPI = 110
WIDTH_IN, LEFT_IN, RIGHT_IN = 11.0, 1.9, 0.35
TOP_IN, BOTTOM_IN, LANE_IN = 1.15, 1.2, 0.42
LABEL_PT, TICK_PT = 8.5, 9
MAX_LABEL = 40  # characters of a value in a label: a glance, not a paragraph
PAD_PX, GAP_PX = 4.0, 8.0  # text to bar edge; between one lane's occupied stretches

# How each status is drawn: (fill alpha, hatch, edge colour, line style).
STYLE = {
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
class PlacedBar:
    """One bar as it will be drawn: its stretch (clipped to the window), its ends, and
    where its label goes (pixels from the axes' left edge)."""

    predicate: str
    value: str
    status: str
    start: datetime
    end: datetime
    row: Fact
    arrow_left: bool = False  # began before the window (or has no stated start)
    arrow_right: bool = False  # still open in valid time and believed
    capped: bool = False  # a given-up belief, drawn up to when it was given up
    label: str | None = None
    label_x0: float = 0.0
    label_x1: float = 0.0
    where: str = "inside"  # inside / right / left / none


@dataclass
class Lane:
    predicate: str
    group: str  # "believed" or "history"
    bars: list[PlacedBar] = field(default_factory=list)
    # pixel stretches taken: (from, to, is a label); bars may touch, labels keep a gap
    occupied: list[tuple[float, float, bool]] = field(default_factory=list)
    first: bool = False  # the first lane of its predicate in its group: labelled


@dataclass
class TimelinePlan:
    """Everything ``render_figure`` draws, decided beforehand (and what tests check)."""

    subject: str
    lo: datetime
    hi: datetime
    lanes: list[Lane]
    axes_px: float  # the axes' width in pixels
    hidden_history: int  # no-longer-believed rows left out (history=False)
    before_window: int  # believed values that ended before the window
    marks: list[tuple[datetime, str, str]]  # (instant, name, colour)

    def px(self, t: datetime) -> float:
        return (t - self.lo) / (self.hi - self.lo) * self.axes_px

    @property
    def bars(self) -> list[PlacedBar]:
        return [bar for lane in self.lanes for bar in lane.bars]


def _coalesce(rows: Sequence[tuple[Fact, str]]) -> list[tuple[Fact, str, datetime, datetime]]:
    """Believed rows of one value that touch or overlap are one bar (the temporal
    leftovers of a change are pieces of one stretch)."""
    merged: list[tuple[Fact, str, datetime, datetime]] = []
    for row, status in sorted(rows, key=lambda p: (p[0].predicate, p[0].object, p[0].valid_from)):
        last = merged[-1] if merged else None
        if (last is not None and (last[0].predicate, last[0].object) == (row.predicate, row.object)
                and touches(row.valid_from, row.valid_to, last[2], last[3])):  # fmt: skip
            best = "current" if "current" in (last[1], status) else last[1]
            merged[-1] = (last[0], best, last[2], max(last[3], row.valid_to))
        else:
            merged.append((row, status, row.valid_from, row.valid_to))
    return merged


def _window(
    spans: list[tuple[datetime, datetime]],
    at: datetime,
    since: datetime | None,
    marks: Sequence[datetime],
) -> tuple[datetime, datetime]:
    finite = [t for span in spans for t in span if not is_infinite(t)]
    data_lo = min(finite, default=at - timedelta(days=365))
    lo = max(at - timedelta(days=365 * YEARS_SHOWN + YEARS_SHOWN // 4), data_lo)
    if since is not None:
        lo = since
    elif not any(end > lo for _, end in spans):  # everything ended long ago: show it all
        lo = data_lo
    lo = min([lo, *(m for m in marks if not is_infinite(m))])
    hi = max([at, *(t for t in finite if t > lo), *(m for m in marks if not is_infinite(m))])
    pad = max((hi - lo) * 0.03, timedelta(days=7))
    return lo - pad, hi + pad


def _label_for(bar: PlacedBar, lo: datetime) -> str:
    value = bar.value if len(bar.value) <= MAX_LABEL else bar.value[: MAX_LABEL - 1].rstrip() + "…"
    if bar.capped:
        return f"{value} · {bar.status} {format_instant(bar.row.expired_at)[:10]}"
    if (
        bar.arrow_left
        and not is_infinite(bar.row.valid_from)
        and clip(bar.row.valid_from, bar.row.valid_to, lo, POS_INF).cut_start
    ):
        return f"{value} (since {format_instant(bar.row.valid_from)[:10]})"
    return value


def _free(lane: Lane, spans: list[tuple[float, float, bool]]) -> bool:
    """Whether the stretches (a bar's, its label's) are clear of what the lane holds:
    a bar may end where the next begins (a change of value); a label keeps a gap."""
    return all(
        x1 + gap <= a or b + gap <= x0
        for x0, x1, label in spans
        for a, b, other in lane.occupied
        for gap in [GAP_PX if label or other else 0.0]
    )


def _place(lanes: list[Lane], bar: PlacedBar, group: str, plan_px, axes_px: float) -> None:
    """Put ``bar`` in the first of ``lanes`` (those of its predicate and group) where it
    and its label fit in free space, else in a new lane; the label goes inside the bar,
    else beside it, else shortened with an ellipsis to the widest room beside or inside
    (a new lane has nothing else in it, so that room is free)."""
    x0 = plan_px(bar.start)
    x1 = max(plan_px(bar.end), x0 + 2.0)
    text = bar.label or ""
    inset = PAD_PX + (7.0 if bar.arrow_left else 0.0)  # clear of the arrow at the left edge

    def options(width: float) -> list[tuple[str, float, float, float, float, bool]]:
        # (where, occupied from, occupied to, label from, label to, within the axes)
        return [
            ("inside", x0, x1, x0 + inset, x0 + inset + width, width + inset + PAD_PX <= x1 - x0),
            ("right", x0, x1 + PAD_PX + width, x1 + PAD_PX, x1 + PAD_PX + width,
             x1 + PAD_PX + width <= axes_px),
            ("left", x0 - PAD_PX - width, x1, x0 - PAD_PX - width, x0 - PAD_PX,
             x0 - PAD_PX - width >= 0),
        ]  # fmt: skip

    def spans(where: str, lx0: float, lx1: float) -> list[tuple[float, float, bool]]:
        return [(x0, x1, False)] + ([(lx0, lx1, True)] if where in ("right", "left") else [])

    def put(lane: Lane, where: str, a: float, b: float, lx0: float, lx1: float) -> None:
        bar.where, bar.label_x0, bar.label_x1 = where, lx0, lx1
        lane.occupied.extend(spans(where, lx0, lx1))
        lane.bars.append(bar)

    width = text_size(text, LABEL_PT, dpi=DPI)[0]
    for lane in lanes:
        for where, a, b, lx0, lx1, ok in options(width):
            if ok and _free(lane, spans(where, lx0, lx1)):
                return put(lane, where, a, b, lx0, lx1)
    lane = Lane(bar.predicate, group)
    lanes.append(lane)
    for where, a, b, lx0, lx1, ok in options(width):
        if ok:
            return put(lane, where, a, b, lx0, lx1)
    rooms = {
        "inside": x1 - x0 - inset - PAD_PX,
        "right": axes_px - x1 - PAD_PX,
        "left": x0 - PAD_PX,
    }
    where = max(rooms, key=lambda k: rooms[k])
    bar.label = fit(text, LABEL_PT, rooms[where], dpi=DPI) if rooms[where] > 0 else None
    if bar.label is None:
        return put(lane, "none", x0, x1, x0, x0)
    width = text_size(bar.label, LABEL_PT, dpi=DPI)[0]
    spot = next(o for o in options(width) if o[0] == where)
    return put(lane, where, *spot[1:5])


def plan_timeline(
    rows: Sequence[tuple[Fact, str]],
    subject: str,
    *,
    at: datetime | None = None,
    since: datetime | None = None,
    history: bool = False,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
) -> TimelinePlan:
    """Lay out the picture of ``rows`` (``Memory.history`` output): the window, the
    lanes, every bar and where its label goes."""
    if not rows:
        raise GraphmemError(f"nothing recorded about {subject!r} to draw")
    at = at or now()
    believed = _coalesce([(r, s) for r, s in rows if s not in EXPIRED])
    given_up = [(r, s) for r, s in rows if s in EXPIRED]
    marks_at = [m for m in (as_of, known_at) if m is not None]
    spans = [(start, end) for _, _, start, end in believed]
    lo, hi = _window(spans or [(r.valid_from, r.valid_to) for r, _ in rows], at, since, marks_at)
    axes_px = (WIDTH_IN - LEFT_IN - RIGHT_IN) * DPI

    def px(t: datetime) -> float:
        return (min(max(t, lo), hi) - lo) / (hi - lo) * axes_px

    predicates = list(dict.fromkeys(row.predicate for row, _ in rows))
    lanes: list[Lane] = []
    before = 0
    groups: list[tuple[str, list[PlacedBar]]] = [("believed", [])]
    for row, status, start, end in believed:
        if end <= lo:
            before += 1
            continue
        groups[0][1].append(PlacedBar(row.predicate, row.object, status, max(start, lo),
                                      min(end, hi), row, arrow_left=start < lo,
                                      arrow_right=end > hi))  # fmt: skip
    if history:
        groups.append(("history", []))
        for row, status in given_up:
            # a belief drawn up to its giving up, capped where that came first
            capped = clip(row.valid_from, row.valid_to, NEG_INF, row.expired_at).cut_end
            cut = clip(row.valid_from, min(row.valid_to, row.expired_at), lo, hi)
            if not cut.visible:
                continue
            groups[1][1].append(PlacedBar(row.predicate, row.object, status, cut.start, cut.end,
                                          row, arrow_left=cut.cut_start,
                                          capped=capped))  # fmt: skip
    for group, bars in groups:
        for predicate in predicates:
            mine = sorted((b for b in bars if b.predicate == predicate),
                          key=lambda b: (b.start, b.end, b.value))  # fmt: skip
            own: list[Lane] = []
            for bar in mine:
                bar.label = _label_for(bar, lo)
                _place(own, bar, group, px, axes_px)
            if own:
                own[0].first = True
                lanes.extend(own)
    marks = [(at, "now", "#333333")]
    marks += [(t, name, colour) for t, name, colour in
              ((as_of, "as of", "#1f77b4"), (known_at, "known at", "#9467bd")) if t is not None]  # fmt: skip
    return TimelinePlan(subject, lo, hi, lanes, axes_px,
                        hidden_history=0 if history else len(given_up), before_window=before,
                        marks=[m for m in marks if lo <= m[0] <= hi])  # fmt: skip


def render_figure(
    rows: Sequence[tuple[Fact, str]],
    subject: str,
    *,
    at: datetime | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    since: datetime | None = None,
    history: bool = False,
    title: str | None = None,
):
    """A matplotlib ``Figure`` of the rows (``Memory.history`` output); its plan is
    ``figure.graphmem_plan``."""
    from matplotlib import dates as mdates
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    plan = plan_timeline(rows, subject, at=at, since=since, history=history, as_of=as_of,
                         known_at=known_at)  # fmt: skip
    lanes = plan.lanes
    height = TOP_IN + BOTTOM_IN + LANE_IN * max(len(lanes), 1)
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI)
    ax = fig.add_axes((LEFT_IN / WIDTH_IN, BOTTOM_IN / height,
                       (WIDTH_IN - LEFT_IN - RIGHT_IN) / WIDTH_IN,
                       LANE_IN * max(len(lanes), 1) / height))  # fmt: skip
    lo, hi = mdates.date2num(plan.lo), mdates.date2num(plan.hi)
    per_px = (hi - lo) / plan.axes_px
    colours: dict[tuple[str, str], str] = {}
    statuses: set[str] = set()
    y_labels: list[str] = []
    for y, lane in enumerate(lanes):
        name = lane.predicate if lane.first else ""
        y_labels.append(fit(name, TICK_PT, LEFT_IN * DPI - 16, dpi=DPI) or "")
        expired = lane.group == "history"
        for bar in lane.bars:
            alpha, hatch, edge, style = STYLE[bar.status]
            statuses.add(bar.status)
            colour = colours.setdefault((bar.predicate, bar.value),
                                        _PALETTE[len(colours) % len(_PALETTE)])  # fmt: skip
            left = mdates.date2num(bar.start)
            width = max(mdates.date2num(bar.end) - left, 2 * per_px)
            bar_h = 0.62 if not expired else 0.45
            ax.barh(y, width, left=left, height=bar_h, color=colour, alpha=alpha, hatch=hatch,
                    edgecolor=edge, linestyle=style, linewidth=1.2)  # fmt: skip
            # an outline at full opacity keeps faded bars readable
            ax.barh(y, width, left=left, height=bar_h, fill=False, edgecolor=edge,
                    linestyle=style, linewidth=1.0)  # fmt: skip
            if bar.arrow_right:
                ax.plot(left + width, y, marker=">", color=edge, markersize=6, clip_on=False)
            if bar.arrow_left:
                ax.plot(left, y, marker="<", color=edge, markersize=6, clip_on=False)
            if bar.capped:
                ax.plot(left + width, y, marker="|", color=edge, markersize=12, mew=2)
            if bar.label:
                ax.text(lo + bar.label_x0 * per_px, y, bar.label, va="center", ha="left",
                        fontsize=LABEL_PT, color="#111111" if not expired else "#444444",
                        parse_math=False, gid="bar-label")  # fmt: skip
    ax.set_yticks(range(len(lanes)), y_labels, fontsize=TICK_PT)
    ax.tick_params(axis="y", length=0, pad=9)  # clear of the arrows at the left edge
    for tick in ax.get_yticklabels():
        tick.set_parse_math(False)
    ax.set_ylim(len(lanes) - 0.5, -0.5)  # first lane on top
    history_at = next((i for i, lane in enumerate(lanes) if lane.group == "history"), None)
    if history_at is not None:
        ax.axhline(history_at - 0.5, color="#999999", linewidth=0.8)
        ax.annotate("no longer believed ▾", (0, history_at - 0.5), xycoords=("axes fraction", "data"),
                    xytext=(-6, 0), textcoords="offset points", ha="right", va="center",
                    fontsize=7.5, color="#666666", annotation_clip=False)  # fmt: skip
    ax.set_xlim(lo, hi)
    locator = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_xlabel("valid time (when it was true in the world)")
    for i, (when, name, colour) in enumerate(plan.marks):
        x = mdates.date2num(when)
        ax.axvline(x, color=colour, linestyle="--", linewidth=1)
        right = plan.px(when) > plan.axes_px * 0.8  # near the right edge: text to the left
        ax.annotate(f"{name} {format_instant(when)[:10]}", (x, 1), xycoords=("data", "axes fraction"),
                    xytext=(-3 if right else 3, 3 + 11 * i), textcoords="offset points",
                    ha="right" if right else "left", fontsize=8, color=colour,
                    annotation_clip=False)  # fmt: skip
    handles = [
        Patch(facecolor="#9aa5b1", alpha=STYLE[s][0], hatch=STYLE[s][1],
              edgecolor=STYLE[s][2], linestyle=STYLE[s][3], label=_LABEL[s])
        for s in ("current", "ended", "superseded", "corrected", "retracted")
        if s in statuses
    ]  # fmt: skip
    if handles:
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0),
                   ncol=min(3, len(handles)), fontsize=8, frameon=False)  # fmt: skip
    belief = f", as known at {format_instant(known_at)[:10]}" if known_at is not None else ""
    fig.text(0.01, 1 - 0.12 / height, title or f"{subject}: values over valid time{belief}",
             fontsize=11, va="top", ha="left", parse_math=False)  # fmt: skip
    notes = []
    if plan.before_window:
        notes.append(f"{plan.before_window} value(s) that ended before "
                     f"{format_instant(plan.lo)[:10]} not shown (--since widens)")  # fmt: skip
    if plan.hidden_history:
        notes.append(
            f"{plan.hidden_history} row(s) no longer believed hidden (--history shows them)"
        )
    if history_at is not None:
        notes.append("no longer believed: drawn until the belief was given up (|)")
    if notes:
        fig.text(0.01, 1 - 0.36 / height, "; ".join(notes), fontsize=8, color="#555555",
                 va="top", ha="left", parse_math=False)  # fmt: skip
    fig.graphmem_plan = plan
    return fig


def page(title: str, intro: str, svg: str, rows: Sequence[tuple[Fact, str]]) -> str:
    """A self-contained HTML page: a picture as inline SVG, then a table of the rows."""
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
    title = html.escape(title)
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
<p>{html.escape(intro)}</p>
{svg}
<table>
<thead><tr><th>predicate</th><th>value</th><th>valid_from</th><th>valid_to</th>
<th>recorded_at</th><th>expired_at</th><th>status</th></tr></thead>
<tbody>
{chr(10).join(cells)}
</tbody></table>
</body></html>
"""


def figure_svg(fig) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    return buffer.getvalue()


def render_html(
    rows: Sequence[tuple[Fact, str]],
    subject: str,
    *,
    at: datetime | None = None,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    since: datetime | None = None,
    history: bool = False,
) -> str:
    """A self-contained HTML page: the timeline as inline SVG plus a table of every row."""
    fig = render_figure(rows, subject, at=at, as_of=as_of, known_at=known_at, since=since,
                        history=history)  # fmt: skip
    intro = ("Bars run over valid time (when a value was true in the world). Faded, hatched "
             "bars are beliefs the store no longer holds: superseded, corrected or retracted; "
             "the table lists every row.")  # fmt: skip
    return page(f"graphmem timeline: {subject}", intro, figure_svg(fig), rows)


def check_format(output: str | os.PathLike[str]) -> Path:
    """The output path, if its extension names a format the pictures are drawn in."""
    path = Path(output)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise GraphmemError(
            f"cannot draw a timeline as {suffix or 'a file without extension'!r}; "
            f"use one of {', '.join(FORMATS)}"
        )
    return path


def plot_timeline(
    memory: Memory,
    subject: str,
    output: str | os.PathLike[str],
    *,
    predicate: str | None = None,
    scope: str = DEFAULT_SCOPE,
    as_of: datetime | None = None,
    known_at: datetime | None = None,
    since: datetime | None = None,
    history: bool = False,
) -> Path:
    """Draw ``subject``'s timeline to ``output`` (``.png``, ``.svg``, ``.pdf``, ``.html``):
    the last two years and the current values (``since``: from then), what is believed
    (``history``: also what no longer is, grouped below)."""
    path = check_format(output)
    suffix = path.suffix.lower()
    rows = memory.history(subject, predicate, scope=scope, known_at=known_at)
    if not rows:
        what = f"{subject} {predicate}" if predicate else subject
        raise GraphmemError(f"nothing recorded about {what!r} in scope {scope!r}")
    at = now()
    options = dict(at=at, as_of=as_of, known_at=known_at, since=since, history=history)
    if suffix in (".html", ".htm"):
        path.write_text(render_html(rows, subject, **options), encoding="utf-8")
    else:
        render_figure(rows, subject, **options).savefig(path, format=suffix[1:])
    return path
