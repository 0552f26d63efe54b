"""The picture of time: PNG/SVG/HTML timelines are produced and show something."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from graphmem import GraphmemError, Memory
from graphmem.timeline_plot import plot_timeline


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "m.db", embedder=None)
    mem.remember("Sam", "lives_in", "Berlin", valid_from="2019-01-01", recorded_at="2024-01-08")
    mem.supersede("Sam", "lives_in", "Porto", since="2024-02-12", recorded_at="2024-02-20")
    mem.correct("Sam", "lives_in", wrong="Porto", right="Lisbon", recorded_at="2024-02-21")
    mem.remember("Sam", "owns_pet", "Tom", valid_from="2023-05-01", recorded_at="2024-02-22")
    mem.retract("Sam", "owns_pet", "Tom", at="2024-04-10", recorded_at="2024-04-10")
    mem.remember(
        "Sam",
        "works_at",
        "Siemens",
        valid_from="2021-01-01",
        valid_to="2024-03-01",
        recorded_at="2024-04-11",
    )
    yield mem
    mem.close()


def _pixels(path: Path) -> np.ndarray:
    from matplotlib import image

    return image.imread(path)


def test_png_is_drawn_and_not_blank(memory, tmp_path):
    path = plot_timeline(memory, "Sam", tmp_path / "timeline.png")
    assert path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = _pixels(path)
    assert pixels.shape[0] > 200 and pixels.shape[1] > 400
    rgb = pixels[..., :3]
    assert rgb.std() > 0.05  # not a blank canvas
    colours = {tuple(c) for c in (rgb.reshape(-1, 3) * 255).astype(int)[::7]}
    assert len(colours) > 50  # bars, hatches, text: many distinct colours


def test_statuses_are_distinguishable(memory, tmp_path):
    statuses = {status for _, status in memory.history("Sam")}
    assert {"current", "ended", "superseded", "corrected", "retracted"} <= statuses
    page = plot_timeline(
        memory,
        "Sam",
        tmp_path / "timeline.html",
        history=True,
        since=datetime(2018, 1, 1, tzinfo=UTC),
    ).read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert "http://" not in page.split("<svg", 1)[0]  # self-contained: nothing fetched
    for label in (
        "superseded (a later change replaced this belief)",
        "corrected (recorded by mistake)",
        "retracted (stopped holding)",
    ):
        assert label in page  # the legend names each style
    assert '<tr class="corrected"><td>lives_in</td><td>Porto</td>' in page


def test_known_at_draws_the_past_belief(memory, tmp_path):
    belief = datetime(2024, 2, 20, 12, tzinfo=UTC)  # after the move, before the correction
    rows = memory.history("Sam", "lives_in", known_at=belief)
    assert sorted((r.object, s) for r, s in rows) == [
        ("Berlin", "ended"),
        ("Berlin", "superseded"),
        ("Porto", "current"),
    ]
    path = plot_timeline(
        memory, "Sam", tmp_path / "past.svg", predicate="lives_in", known_at=belief
    )
    assert "<svg" in path.read_text()


def test_errors(memory, tmp_path):
    with pytest.raises(GraphmemError, match="Nobody"):
        plot_timeline(memory, "Nobody", tmp_path / "x.png")
    with pytest.raises(GraphmemError, match=".gif"):
        plot_timeline(memory, "Sam", tmp_path / "x.gif")


def test_cli_timeline_output(memory, tmp_path):
    store = memory.backend.location
    memory.close()
    script = Path(sys.executable).parent / "graphmem"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "graphmem.cli"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "cli.png"
    proc = subprocess.run(
        [*command, "--store", str(store), "--no-embed", "timeline", "Sam", "--output", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert _pixels(out)[..., :3].std() > 0.05
