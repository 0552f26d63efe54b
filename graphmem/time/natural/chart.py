"""The chart: the readings (nodes) found at each word start, combined into expressions
(operators over nodes, ranges), and an expression's interval.

>>> from graphmem.time.natural import find_time_expressions
>>> from graphmem.time.instant import to_instant
>>> [e.text for e in find_time_expressions("from May to June 2023, at 3pm", to_instant("2024-05-15"))]
['from May to June 2023', 'at 3pm']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, time
from functools import partial

from graphmem.time.instant import NEG_INF, POS_INF
from graphmem.time.interval import Interval
from graphmem.time.natural.grammar import (
    AND,
    AT_SEP,
    BETWEEN,
    LEAD_PREP,
    MODIFIER,
    NAME_BLIND,
    ON_SEP,
    ONWARDS,
    OPERATOR,
    OPERATOR_KIND,
    RANGE_TO,
    RULES,
)
from graphmem.time.natural.lexicon import PARTS, clock_of
from graphmem.time.natural.periods import Ctx, Period, instant_period, part_of


def _safely(resolve: Callable[..., Period | None], *args: object) -> Period | None:
    try:
        return resolve(*args)
    except (ValueError, OverflowError, KeyError, StopIteration):
        return None


def _at_clock(day: Callable[[Ctx], Period | None], clock: time, ctx: Ctx) -> Period | None:
    period = day(ctx)
    if period is None or period.grain != "day" or period.kind != "point":
        return None
    moment = datetime.combine(period.start.date(), clock)
    return replace(instant_period(moment), inferred=period.inferred)


def _modified(part: str, node: Callable[[Ctx], Period | None], ctx: Ctx) -> Period | None:
    return part_of(node(ctx), part)


@dataclass(frozen=True, slots=True)
class _Node:
    start: int
    end: int
    need: str
    resolve: Callable[[Ctx], Period | None]
    clock: time | None = None


@dataclass(frozen=True, slots=True)
class _Expr:
    start: int
    end: int
    kind: str
    first: _Node
    second: _Node | None  # the end of a range
    weak: bool  # only a time when the caller says the whole text is one


class Chart:
    def __init__(self, text: str):
        self.text = text
        self._base: dict[int, list[_Node]] = {}
        self._nodes: dict[int, list[_Node]] = {}

    def base(self, p: int) -> list[_Node]:
        if p not in self._base:
            found = []
            for rule in RULES:
                m = rule.pattern.match(self.text, p)
                if m is None:
                    continue
                clock = clock_of(m) if rule.clock else None
                if rule.clock and clock is None:
                    continue  # "13 pm"
                found.append(_Node(p, m.end(), rule.need, partial(_safely, rule.resolve, m), clock))
            self._base[p] = found
        return self._base[p]

    def nodes(self, p: int) -> list[_Node]:
        """Base nodes, days with clock times ("8 May at 2pm", "2pm on 8 May"), "early X"."""
        if p in self._nodes:
            return self._nodes[p]
        out = list(self.base(p))
        for a in self.base(p):
            sep = (ON_SEP if a.clock else AT_SEP).match(self.text, a.end)
            for b in self.base(sep.end()) if sep else ():
                if (a.clock is None) == (b.clock is None):
                    continue
                day, clock = (b, a.clock) if a.clock else (a, b.clock)
                if day.need != "mod":
                    out.append(_Node(p, b.end, "", partial(_safely, _at_clock, day.resolve, clock)))
        mod = MODIFIER.match(self.text, p)
        if mod:
            part = PARTS[(mod["part"] or mod["part2"] or mod["part3"]).lower()]
            for b in self.base(mod.end()):
                if b.clock is None:
                    out.append(_Node(p, b.end, "", partial(_safely, _modified, part, b.resolve)))
        self._nodes[p] = out
        return out

    def _range_ends(self, x: _Node, connector: re.Pattern[str]) -> Iterator[_Node]:
        sep = connector.match(self.text, x.end)
        if sep:
            yield from (y for y in self.nodes(sep.end()) if y.need != "mod")

    def exprs(self, p: int) -> Iterator[_Expr]:
        for x in self.nodes(p):
            yield _Expr(p, x.end, "point", x, None, weak=bool(x.need))
            if not x.need:
                for y in self._range_ends(x, RANGE_TO):
                    yield _Expr(p, y.end, "range", x, y, weak=False)
        between = BETWEEN.match(self.text, p)
        if between:
            for x in self.nodes(between.end()):
                if x.need != "mod":
                    for y in self._range_ends(x, AND):
                        yield _Expr(p, y.end, "range", x, y, weak=False)
        op = OPERATOR.match(self.text, p)
        if not op:
            return
        name = op.lastgroup or "point"
        kind = OPERATOR_KIND.get(name, name)
        starts = [op.end()]
        lead = LEAD_PREP.match(self.text, op.end()) if name in ("since", "until") else None
        if lead:
            starts.append(lead.end())
        for q in starts:
            for x in self.nodes(q):
                if x.need == "mod" or (x.need == "name" and name in NAME_BLIND):
                    continue
                yield _Expr(p, x.end, kind, x, None, weak=False)
                if name in ("from", "since"):  # "from X to Y", "since X until Y"
                    for y in self._range_ends(x, RANGE_TO):
                        yield _Expr(p, y.end, "range", x, y, weak=False)
                    onwards = ONWARDS.match(self.text, x.end)
                    if onwards and name == "from":
                        yield _Expr(p, onwards.end(), "since", x, None, weak=False)


def _resolve_range(x: _Node, y: _Node, ctx: Ctx) -> tuple[Period, Period] | None:
    px, py = x.resolve(ctx), y.resolve(ctx)
    if px is None or py is None:
        return None
    if px.inferred and (not py.inferred or ctx.prefer == "past"):
        px = x.resolve(ctx.anchored(py.start, "past"))  # the latest X by the start of Y
    elif py.inferred:
        py = y.resolve(ctx.anchored(px.start, "future"))  # the first Y not over at X
    if px is None or py is None:
        return None
    return px, py


def expression_interval(e: _Expr, ctx: Ctx) -> tuple[Interval, str, str] | None:
    if e.second is not None:
        ends = _resolve_range(e.first, e.second, ctx)
        if ends is None:
            return None
        start, end = ctx.to_utc(ends[0].start), ctx.to_utc(ends[1].end)
        return Interval(start, end), ends[0].grain, "range"
    p = e.first.resolve(ctx)
    if p is None:
        return None
    kind = p.kind if e.kind == "point" else e.kind
    start, end = ctx.to_utc(p.start), ctx.to_utc(p.end)
    bounds = {
        "point": (start, end),
        "range": (start, end),
        "since": (start, POS_INF),
        "until": (NEG_INF, end),
        "before": (NEG_INF, start),
        "after": (end, POS_INF),
    }[kind]
    return Interval(*bounds), p.grain, kind
