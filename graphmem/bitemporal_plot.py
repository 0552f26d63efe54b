"""The standard picture of bitemporal data for one key: valid time across, recorded time
up, each row a rectangle (what was believed, for when, from when to when).

A row the store still believes reaches the top (an arrow: open in recorded time); one
given up stops where it was given up, and the row that replaced it starts there, so
"what did we believe when" is read off at once: go up to a recorded time, look across.
An open valid end is an arrow too. Labels sit inside their rectangle when they fit,
else beside it in free space (never over another rectangle or label, never past an
edge), else as a number with the value listed below.

>>> import os, tempfile
>>> from graphmem import Memory
>>> mem = Memory.open(":memory:", embedder=None)
>>> _ = mem.remember("Sam", "works_at", "Acme", valid_from="2023-01-01", recorded_at="2024-01-10")
>>> _ = mem.correct("Sam", "works_at", wrong="Acme", right="Initech", recorded_at="2024-02-05")
>>> plan = plan_bitemporal(mem.history("Sam", "works_at"), "Sam", "works_at")
>>> [(r.value, r.status, r.open_right, r.open_top) for r in plan.rects]
[('Acme', 'corrected', True, False), ('Initech', 'current', True, True)]
>>> path = plot_bitemporal(mem, "Sam", "works_at", os.path.join(tempfile.mkdtemp(), "b.svg"))
>>> "<svg" in path.read_text()
True
>>> mem.close()
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.errors import GraphmemError
from graphmem.model import DEFAULT_SCOPE, Fact
from graphmem.plot_text import Box, fit, text_size
from graphmem.time.instant import format_instant, is_infinite, now
from graphmem.time.interval import clip
from graphmem.timeline_plot import STYLE, check_format, figure_svg, page

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = ["BitemporalPlan", "plan_bitemporal", "plot_bitemporal", "render_bitemporal"]

DPI = 110
WIDTH_IN, LEFT_IN, RIGHT_IN = 11.0, 1.0, 0.5
AXES_H_IN, TOP_IN, BOTTOM_IN = 4.4, 0.8, 1.0
LABEL_PT = 8.5
PAD_PX = 4.0


@dataclass
class Rect:
    """One row as a rectangle, clipped to the window; ``box`` and ``label_box`` are in
    pixels from the axes' lower left corner."""

    value: str
    status: str
    row: Fact
    x0: datetime
    x1: datetime
    y0: datetime
    y1: datetime
    open_left: bool
    open_right: bool
    open_top: bool
    box: Box = field(default_factory=lambda: Box(0, 0, 0, 0))
    label: str | None = None
    label_box: Box | None = None
    where: str = "inside"  # inside / right / left / above / below / listed


@dataclass
class BitemporalPlan:
    subject: str
    predicate: str
    vlo: datetime
    vhi: datetime
    rlo: datetime
    rhi: datetime
    rects: list[Rect]
    width_px: float
    height_px: float
    listed: list[str]  # labels that went below the picture, by number
    at: datetime


def _pad(lo: datetime, hi: datetime) -> tuple[datetime, datetime]:
    pad = max((hi - lo) * 0.04, timedelta(days=10))
    return lo - pad, hi + pad


def plan_bitemporal(
    rows: Sequence[tuple[Fact, str]], subject: str, predicate: str, *, at: datetime | None = None
) -> BitemporalPlan:
    """Lay out the rectangles of ``rows`` (``Memory.history`` of one key) and their labels."""
    if not rows:
        raise GraphmemError(f"nothing recorded about {subject!r} {predicate!r} to draw")
    at = at or now()
    valid = [t for r, _ in rows for t in (r.valid_from, r.valid_to) if not is_infinite(t)]
    recorded = [r.recorded_at for r, _ in rows]
    expired = [r.expired_at for r, _ in rows if not is_infinite(r.expired_at)]
    vlo, vhi = _pad(min([*valid, *recorded]), max([*valid, *recorded, at]))
    rlo, rhi = _pad(min(recorded), max([*recorded, *expired, at]))
    width = (WIDTH_IN - LEFT_IN - RIGHT_IN) * DPI
    height = AXES_H_IN * DPI

    def px(t: datetime) -> float:
        return (min(max(t, vlo), vhi) - vlo) / (vhi - vlo) * width

    def py(t: datetime) -> float:
        return (min(max(t, rlo), rhi) - rlo) / (rhi - rlo) * height

    rects = []
    for row, status in sorted(rows, key=lambda p: (p[0].recorded_at, p[0].valid_from)):
        valid = clip(row.valid_from, row.valid_to, vlo, vhi)
        belief = clip(row.recorded_at, row.expired_at, rlo, rhi)
        rect = Rect(row.object, status, row, valid.start, valid.end, row.recorded_at, belief.end,
                    open_left=valid.cut_start, open_right=valid.cut_end,
                    open_top=belief.cut_end)  # fmt: skip
        x0, x1 = px(rect.x0), max(px(rect.x1), px(rect.x0) + 2)
        y0, y1 = py(rect.y0), max(py(rect.y1), py(rect.y0) + 2)
        rect.box = Box(x0, y0, x1, y1)
        rects.append(rect)
    listed: list[str] = []
    frame = Box(0, 0, width, height)
    placed: list[Box] = []
    for number, rect in enumerate(rects, 1):
        text = f"{rect.value} ({rect.status})"
        for attempt in (text, fit(text, LABEL_PT, rect.box.x1 - rect.box.x0 - 2 * PAD_PX, dpi=DPI),
                        f"[{number}]"):  # fmt: skip
            if attempt is None:
                continue
            spot = _spot(attempt, rect, rects, placed, frame)
            if spot is not None:
                rect.label, (rect.where, rect.label_box) = attempt, spot
                placed.append(spot[1])
                break
        else:
            rect.where = "listed"
        if rect.label != text:
            listed.append(f"[{number}] {text}: valid {_span(rect.row.valid_from, rect.row.valid_to)}"
                          f", recorded {_span(rect.row.recorded_at, rect.row.expired_at)}")  # fmt: skip
    return BitemporalPlan(subject, predicate, vlo, vhi, rlo, rhi, rects, width, height, listed,
                          at)  # fmt: skip


def _span(start: datetime, end: datetime) -> str:
    a = "…" if is_infinite(start) else format_instant(start)[:10]
    b = "…" if is_infinite(end) else format_instant(end)[:10]
    return f"{a} → {b}"


def _spot(text: str, rect: Rect, rects: list[Rect], placed: list[Box],
          frame: Box) -> tuple[str, Box] | None:  # fmt: skip
    """Where ``text`` can go for ``rect``: inside it, else beside, above or below it,
    in free space within ``frame``; None if nowhere."""
    w, h = text_size(text, LABEL_PT, dpi=DPI)
    b = rect.box
    cy = (b.y0 + b.y1) / 2
    inset = 8.0 if rect.open_left else PAD_PX
    candidates = [
        # inside at the bottom left: at the value's start, from when it was recorded
        ("inside", Box(b.x0 + inset, b.y0 + PAD_PX, b.x0 + inset + w, b.y0 + PAD_PX + h)),
        ("right", Box(b.x1 + PAD_PX + 6, cy - h / 2, b.x1 + PAD_PX + 6 + w, cy + h / 2)),
        ("left", Box(b.x0 - PAD_PX - 6 - w, cy - h / 2, b.x0 - PAD_PX - 6, cy + h / 2)),
        ("above", Box(b.x0 + inset, b.y1 + PAD_PX, b.x0 + inset + w, b.y1 + PAD_PX + h)),
        ("below", Box(b.x0 + inset, b.y0 - PAD_PX - h, b.x0 + inset + w, b.y0 - PAD_PX)),
    ]
    for where, box in candidates:
        if not box.inside(frame):
            continue
        if where == "inside" and not box.inside(b):
            continue
        others = [r.box for r in rects if r is not rect]
        if where != "inside":
            others.append(b)
        if any(box.overlaps(o) for o in [*others, *placed]):
            continue
        return where, box
    return None


def render_bitemporal(
    rows: Sequence[tuple[Fact, str]], subject: str, predicate: str, *, at: datetime | None = None
):
    """A matplotlib ``Figure`` of one key's rows; its plan is ``figure.graphmem_plan``."""
    from matplotlib import dates as mdates
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    plan = plan_bitemporal(rows, subject, predicate, at=at)
    list_in = 0.16 * len(plan.listed)
    height = TOP_IN + AXES_H_IN + BOTTOM_IN + list_in
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI)
    ax = fig.add_axes((LEFT_IN / WIDTH_IN, (BOTTOM_IN + list_in) / height,
                       (WIDTH_IN - LEFT_IN - RIGHT_IN) / WIDTH_IN, AXES_H_IN / height))  # fmt: skip
    vlo, vhi = mdates.date2num(plan.vlo), mdates.date2num(plan.vhi)
    rlo, rhi = mdates.date2num(plan.rlo), mdates.date2num(plan.rhi)
    per_x, per_y = (vhi - vlo) / plan.width_px, (rhi - rlo) / plan.height_px
    for rect in plan.rects:
        alpha, hatch, edge, style = STYLE[rect.status]
        x0, y0 = vlo + rect.box.x0 * per_x, rlo + rect.box.y0 * per_y
        w, h = (rect.box.x1 - rect.box.x0) * per_x, (rect.box.y1 - rect.box.y0) * per_y
        ax.add_patch(Rectangle((x0, y0), w, h, facecolor="#4C72B0", alpha=alpha, hatch=hatch,
                               edgecolor=edge, linestyle=style, linewidth=1.0))  # fmt: skip
        ax.add_patch(Rectangle((x0, y0), w, h, fill=False, edgecolor=edge, linestyle=style,
                               linewidth=1.2, gid="row"))  # fmt: skip
        if rect.open_right:
            ax.plot(x0 + w, y0 + h / 2, marker=">", color=edge, markersize=7, clip_on=False)
        if rect.open_left:
            ax.plot(x0, y0 + h / 2, marker="<", color=edge, markersize=7, clip_on=False)
        if rect.open_top:
            ax.plot(x0 + w / 2, y0 + h, marker="^", color=edge, markersize=7, clip_on=False)
        if rect.label and rect.label_box is not None:
            box = rect.label_box
            ax.text(vlo + box.x0 * per_x, rlo + (box.y0 + box.y1) / 2 * per_y, rect.label,
                    va="center", ha="left", fontsize=LABEL_PT, parse_math=False,
                    color="#c0392b" if rect.status == "corrected" else "#111111",
                    gid="rect-label")  # fmt: skip
    at = mdates.date2num(plan.at)
    ax.axvline(at, color="#333333", linestyle="--", linewidth=0.9)
    ax.axhline(at, color="#333333", linestyle="--", linewidth=0.9)
    ax.annotate("now", (at, 1), xycoords=("data", "axes fraction"), xytext=(-3, 3),
                textcoords="offset points", ha="right", fontsize=8)  # fmt: skip
    ax.set_xlim(vlo, vhi)
    ax.set_ylim(rlo, rhi)
    for axis in (ax.xaxis, ax.yaxis):
        locator = mdates.AutoDateLocator()
        axis.set_major_locator(locator)
        axis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.grid(color="#eeeeee", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_xlabel("valid time (when it was true in the world)")
    ax.set_ylabel("recorded time (when the memory believed it)")
    fig.text(0.01, 1 - 0.12 / height, f"{subject} {predicate}: what was believed, when",
             fontsize=11, va="top", ha="left", parse_math=False)  # fmt: skip
    fig.text(0.01, 1 - 0.38 / height,
             "each row a rectangle: valid across, recorded up; an arrow is an open end "
             "(up: still believed)", fontsize=8, color="#555555", va="top", ha="left")  # fmt: skip
    for i, line in enumerate(plan.listed):
        fig.text(LEFT_IN / WIDTH_IN, (list_in - 0.16 * i - 0.05) / height, line, fontsize=8,
                 va="top", ha="left", parse_math=False)  # fmt: skip
    fig.graphmem_plan = plan
    return fig


def plot_bitemporal(
    memory: Memory,
    subject: str,
    predicate: str,
    output: str | os.PathLike[str],
    *,
    scope: str = DEFAULT_SCOPE,
) -> Path:
    """Draw the bitemporal picture of the key (``subject``, ``predicate``) to ``output``
    (``.png``, ``.svg``, ``.pdf``, ``.html``)."""
    path = check_format(output)
    rows = memory.history(subject, predicate, scope=scope)
    if not rows:
        raise GraphmemError(f"nothing recorded about {subject!r} {predicate!r} in scope {scope!r}")
    fig = render_bitemporal(rows, subject, predicate)
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        intro = ("Valid time across, recorded time up: each row the memory ever held is a "
                 "rectangle; an arrow is an open end. The table lists every row.")  # fmt: skip
        path.write_text(page(f"graphmem: {subject} {predicate}, bitemporal", intro,
                             figure_svg(fig), rows), encoding="utf-8")  # fmt: skip
    else:
        fig.savefig(path, format=suffix[1:])
    return path
