"""The timeline pictures read at a glance: checked on their geometry (the plan behind the
picture and the drawn text's real extents), not on pixels.

- the axis fits the stretch that matters: the last two years and the current values;
  ``since`` widens it; an old story that ended long ago is drawn whole, not empty;
- labels never collide with each other or with another bar, and never cross an edge;
- believed rows first; what is no longer believed is hidden (and counted) unless
  ``history``, then grouped below, each bar ending where the belief was given up;
- the bitemporal picture of one key: a rectangle per row, valid across and recorded
  up, rectangles disjoint, open ends marked, labels in free space.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.bitemporal_plot import render_bitemporal
from graphmem.plot_text import Box
from graphmem.timeline_plot import EXPIRED, plan_timeline, render_figure

REPO = Path(__file__).resolve().parents[1]
AT = datetime(2024, 6, 1, tzinfo=UTC)  # "now" for the pictures: the wall clock is not asked


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "m.db", embedder=None)
    mem.remember("Sam", "lives_in", "Berlin", valid_from="2019-01-01", recorded_at="2024-01-08")
    mem.supersede("Sam", "lives_in", "Porto", since="2024-02-12", recorded_at="2024-02-20")
    mem.correct("Sam", "lives_in", wrong="Porto", right="Lisbon", recorded_at="2024-02-21")
    mem.remember("Sam", "owns_pet", "Tom", valid_from="2015-05-01", recorded_at="2024-02-22")
    mem.retract("Sam", "owns_pet", "Tom", at="2016-04-10", recorded_at="2024-02-23")
    # short stints close together, long names: the labels that used to run together
    stints = [("2023-09-01", "BBC"), ("2023-10-01", "Spotify"), ("2023-10-20", "BBC"),
              ("2023-11-10", "Deutsche Bahn Regio Netz"),
              ("2023-11-25", "The International Business Machines Corporation of Greater "
                             "Manchester and the Surrounding Boroughs"),
              ("2023-12-01", "Globex")]  # fmt: skip
    for i, (since, employer) in enumerate(stints):
        mem.supersede("Sam", "works_at", employer, since=since,
                      recorded_at=f"2024-03-{i + 1:02d}")  # fmt: skip
    yield mem
    mem.close()


def test_the_axis_fits_the_last_two_years_and_the_current_values(memory):
    plan = plan_timeline(memory.history("Sam"), "Sam", at=AT)
    assert AT - timedelta(days=760) < plan.lo <= AT - timedelta(days=730)
    assert AT < plan.hi <= AT + timedelta(days=60)
    bars = {(b.predicate, b.value): b for b in plan.bars}
    berlin = bars[("lives_in", "Berlin")]  # began in 2019: enters from the left, dated
    assert berlin.arrow_left and berlin.label == "Berlin (since 2019-01-01)"
    assert bars[("lives_in", "Lisbon")].arrow_right  # current: runs on, an arrow
    assert ("owns_pet", "Tom") not in bars  # over in 2016: counted, not squeezed in
    assert plan.before_window == 1

    wide = plan_timeline(memory.history("Sam"), "Sam", at=AT, since=day("2015-01-01"))
    assert wide.lo <= day("2015-01-01")
    assert not {(b.predicate, b.value): b for b in wide.bars}[("lives_in", "Berlin")].arrow_left
    assert ("owns_pet", "Tom") in {(b.predicate, b.value) for b in wide.bars}


def test_an_old_story_is_drawn_whole_rather_than_empty(memory):
    plan = plan_timeline(memory.history("Sam", "owns_pet"), "Sam", at=AT)
    assert plan.lo <= day("2015-05-01") and [b.value for b in plan.bars] == ["Tom"]


def _drawn_labels(fig):
    """The bar labels as drawn: their real extents, from the Agg renderer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    texts = [t for t in ax.texts if t.get_gid() == "bar-label"]
    return ax.get_window_extent(renderer), [(t.get_text(), t.get_window_extent(renderer))
                                            for t in texts]  # fmt: skip


@pytest.mark.parametrize("history", [False, True])
def test_labels_never_collide_or_clip(memory, history):
    rows = memory.history("Sam")
    fig = render_figure(rows, "Sam", at=AT, history=history)
    plan = fig.graphmem_plan
    # in the plan: within a lane, no label overlaps another bar or another label, and
    # every label lies between the axes' edges
    for lane in plan.lanes:
        spans = [(plan.px(b.start), plan.px(b.end)) for b in lane.bars]
        for i, bar in enumerate(lane.bars):
            if not bar.label:
                continue
            assert 0 <= bar.label_x0 < bar.label_x1 <= plan.axes_px
            for j, other in enumerate(lane.bars):
                if j != i:
                    a, b = spans[j]
                    assert bar.label_x1 <= a or b <= bar.label_x0, (bar.label, other.value)
                    if other.label:
                        assert bar.label_x1 <= other.label_x0 or other.label_x1 <= bar.label_x0
    # as drawn: the texts' real boxes are pairwise apart and inside the axes
    frame, labels = _drawn_labels(fig)
    assert len(labels) >= 7
    for text, box in labels:
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 + 0.5, text
    for (t1, b1), (t2, b2) in combinations(labels, 2):
        assert not b1.overlaps(b2), (t1, t2)
    drawn = [t for t, _ in labels]
    assert drawn.count("BBC") == 2 and "Spotify" in drawn and "Globex" in drawn
    long = [t for t in drawn if t.startswith("The International")]
    assert long and all("…" in t for t in long)  # a paragraph of a name: shortened


def test_no_longer_believed_rows_are_hidden_unless_asked_then_grouped_below(memory):
    rows = memory.history("Sam")
    given_up = [r for r, s in rows if s in EXPIRED]
    plain = plan_timeline(rows, "Sam", at=AT, since=day("2015-01-01"))
    assert {lane.group for lane in plain.lanes} == {"believed"}
    assert plain.hidden_history == len(given_up) > 0

    full = plan_timeline(rows, "Sam", at=AT, since=day("2015-01-01"), history=True)
    groups = [lane.group for lane in full.lanes]
    assert groups == sorted(groups, key=lambda g: g != "believed")  # believed rows first
    old = [b for lane in full.lanes if lane.group == "history" for b in lane.bars]
    assert {b.status for b in old} == {"superseded", "corrected", "retracted"}
    for bar in old:  # ends where the belief ended: never running on as if still true
        assert not bar.arrow_right
        assert bar.end <= min(bar.row.valid_to, bar.row.expired_at)
        assert full.px(bar.end) < full.axes_px
    berlin = next(b for b in old if b.value == "Berlin")  # believed open-ended, given up
    assert berlin.capped and berlin.end == day("2024-02-20")


def test_the_bitemporal_picture_of_one_key(memory):
    rows = memory.history("Sam", "lives_in")
    fig = render_bitemporal(rows, "Sam", "lives_in", at=AT)
    plan = fig.graphmem_plan
    assert len(plan.rects) == len(rows)
    by = {(r.value, r.status): r for r in plan.rects}
    lisbon = by[("Lisbon", "current")]
    assert lisbon.open_right and lisbon.open_top  # true from then on, still believed
    porto = by[("Porto", "corrected")]  # believed for a day, then corrected
    assert not porto.open_top and porto.y0 == day("2024-02-20") and porto.y1 == day("2024-02-21")
    berlin = by[("Berlin", "superseded")]
    assert berlin.x0 == day("2019-01-01") and berlin.open_right and not berlin.open_top
    # rows of one key are disjoint as valid x recorded rectangles
    for a, b in combinations(plan.rects, 2):
        overlap_x = min(a.box.x1, b.box.x1) - max(a.box.x0, b.box.x0)
        overlap_y = min(a.box.y1, b.box.y1) - max(a.box.y0, b.box.y0)
        assert overlap_x <= 0.5 or overlap_y <= 2.5, (a.value, b.value)  # at most a border
    # labels: inside their rectangle or in free space, apart, within the axes; the rest
    # listed under the picture
    for rect in plan.rects:
        if rect.label_box is None:
            assert any(line.startswith(f"[{plan.rects.index(rect) + 1}]") for line in plan.listed)
            continue
        box = rect.label_box
        assert box.inside(Box(0, 0, plan.width_px, plan.height_px))
        for other in plan.rects:
            if other is not rect:
                assert not box.overlaps(other.box), (rect.value, other.value)
    boxes = [r.label_box for r in plan.rects if r.label_box is not None]
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b)


def test_cli_timeline_history_since_and_bitemporal(memory, tmp_path):
    store = memory.backend.location
    memory.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")

    def graphmem(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "graphmem.cli", "--store", str(store),
                               "--no-embed", *args], capture_output=True, text=True, env=env,
                              timeout=120)  # fmt: skip

    out = tmp_path / "bt.svg"
    done = graphmem("timeline", "Sam", "lives_in", "--bitemporal", "--output", str(out))
    assert done.returncode == 0, done.stderr
    svg = out.read_text()
    assert svg.count('id="row') == 4  # one rectangle per row of the key
    assert "recorded time" in svg or "<svg" in svg

    page = tmp_path / "t.html"
    done = graphmem("timeline", "Sam", "--history", "--since", "2015-01-01", "-o", str(page))
    assert done.returncode == 0, done.stderr
    assert "corrected (recorded by mistake)" in page.read_text()

    refused = graphmem("timeline", "Sam", "--bitemporal")
    assert refused.returncode == 2 and "give the predicate" in refused.stderr
    table = graphmem("timeline", "Sam", "lives_in", "--bitemporal")
    assert table.returncode == 0 and "corrected" in table.stdout
