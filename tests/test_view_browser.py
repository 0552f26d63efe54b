"""``graphmem view`` in headless Chromium: the page draws the graph of a scope at one
valid instant as believed at one transaction instant, and what it draws changes as each
slider moves; a click on an entity shows its timeline and its bitemporal picture.

A real ``graphmem view`` process serves a real embedded store (no Neo4j); the page is
driven with Playwright on the system Chromium (Debian ``chromium``, as for the Browser
test), with every request off this machine refused and recorded: the page must fetch
nothing from the network. Screenshots are kept in ``artifacts/``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem import Memory

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
SCOPE = "alice"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Alice's memory: a move, a job recorded by mistake and corrected, a cat."""
    path = tmp_path / "memory.db"
    mem = Memory.open(path, embedder=None)
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=SCOPE,
                 recorded_at="2019-01-02")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=SCOPE,
                  recorded_at="2024-03-02")  # fmt: skip
    mem.remember("Alice", "works_at", "Acme", valid_from="2022-01-01", scope=SCOPE,
                 recorded_at="2024-03-03")  # fmt: skip
    mem.remember("Alice", "owns_pet", "Tom", valid_from="2020-01-01", scope=SCOPE,
                 recorded_at="2024-03-04")  # fmt: skip
    mem.correct("Alice", "works_at", wrong="Acme", right="Initech", scope=SCOPE,
                recorded_at="2024-06-01")  # fmt: skip
    mem.close()
    return path


@pytest.fixture
def view_url(store: Path) -> Any:
    """``graphmem view`` on the store; yields the address it prints (token in #fragment)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store), "--scope", SCOPE,
         "--no-embed", "view"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("http://127.0.0.1:"), process.stderr.read()
        assert "/view/#token=" in line and f"scope={SCOPE}" in line
        yield line
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# What the page drew, read from its SVG.
_DRAWN = """() => ({
  nodes: [...document.querySelectorAll('#graph .node')].map(g => ({
    label: g.dataset.label, faded: g.classList.contains('faded')})),
  edges: [...document.querySelectorAll('#graph .edge')].map(g => ({
    predicate: g.dataset.predicate, object: g.dataset.object, status: g.dataset.status,
    caption: g.querySelector('text.caption').textContent,
    dashed: getComputedStyle(g.querySelector('path')).strokeDasharray !== 'none'})),
  caption: document.getElementById('graph-caption').textContent,
})"""


def _move(page: Any, slider: str, when: str | None) -> None:
    """Move a slider as a hand would (an input event), to the day of ``when`` (None: to
    its right end, now), and wait until the page has drawn the new graph."""
    handle = page.locator(f"#{slider}")
    start = datetime.fromisoformat(handle.get_attribute("data-start").replace("Z", "+00:00"))
    if when is None:
        value = int(handle.get_attribute("max"))
    else:
        value = (datetime.fromisoformat(when).replace(tzinfo=UTC) - start).days
    before = int(page.evaluate("Number(document.body.dataset.renders || 0)"))
    handle.evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }",
        value,
    )
    page.wait_for_function(
        "(n) => Number(document.body.dataset.renders) > n && document.body.dataset.state === 'ready'",
        arg=before,
    )


def _edges(drawn: dict) -> dict[tuple[str, str], dict]:
    return {(e["predicate"], e["object"]): e for e in drawn["edges"]}


def test_the_view_draws_the_graph_through_both_times(view_url: str) -> None:
    from browser_driver import CHROMIUM_ARGS, find_chromium
    from playwright.sync_api import sync_playwright

    try:
        find_chromium()
    except FileNotFoundError as exc:
        pytest.fail(f"Chromium is needed for the view test: {exc}")
    ARTIFACTS.mkdir(exist_ok=True)
    off_machine: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), headless=True,
                                     args=CHROMIUM_ARGS)  # fmt: skip
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.set_default_timeout(30_000)

            def guard(route: Any) -> None:
                if route.request.url.startswith("http://127.0.0.1:"):
                    route.continue_()
                else:
                    off_machine.append(route.request.url)
                    route.abort()

            page.route("**/*", guard)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(view_url)
            page.wait_for_function("() => document.body.dataset.state === 'ready'")
            assert "token" not in page.url  # read, then taken out of the address bar

            # Now, as known now: Berlin, Initech, Tom believed; Paris superseded and Acme
            # corrected drawn apart (dashed, with their status word).
            now = page.evaluate(_DRAWN)
            page.screenshot(path=str(ARTIFACTS / "view-now.png"))
            edges = _edges(now)
            assert {k for k, e in edges.items() if e["status"] == "current"} == {
                ("lives_in", "Berlin"), ("works_at", "Initech"), ("owns_pet", "Tom")}  # fmt: skip
            assert edges[("lives_in", "Berlin")]["caption"] == "lives_in · since 2024-03-01"
            assert not edges[("lives_in", "Berlin")]["dashed"]
            assert edges[("lives_in", "Paris")]["status"] == "superseded"
            assert edges[("lives_in", "Paris")]["caption"].endswith("· superseded")
            assert edges[("lives_in", "Paris")]["dashed"]
            assert edges[("works_at", "Acme")]["status"] == "corrected"
            assert edges[("works_at", "Acme")]["dashed"]
            labels = {n["label"]: n for n in now["nodes"]}
            assert {"Alice", "Berlin", "Initech", "Tom", "Paris", "Acme"} <= set(labels)
            assert labels["Acme"]["faded"] and not labels["Berlin"]["faded"]

            # Valid time back to mid-2023: Paris is where she lived (believed, ended since),
            # the Berlin edge is gone.
            _move(page, "as-of", "2023-06-01")
            assert page.locator("#as-of-label").text_content() == "2023-06-01"
            past = page.evaluate(_DRAWN)
            page.screenshot(path=str(ARTIFACTS / "view-valid-2023.png"))
            edges = _edges(past)
            assert ("lives_in", "Berlin") not in edges
            assert edges[("lives_in", "Paris")]["status"] == "ended"
            assert edges[("lives_in", "Paris")]["caption"] == "lives_in · 2019-01-01 → 2024-03-01"
            assert not edges[("lives_in", "Paris")]["dashed"]
            assert "Berlin" not in {n["label"] for n in past["nodes"]}
            assert edges[("works_at", "Initech")]["status"] == "current"

            # As known on 1 April 2024 (before the correction): Acme, as it was believed.
            _move(page, "known-at", "2024-04-01")
            believed = page.evaluate(_DRAWN)
            page.screenshot(path=str(ARTIFACTS / "view-known-2024-04.png"))
            edges = _edges(believed)
            assert edges[("works_at", "Acme")]["status"] == "current"
            assert not edges[("works_at", "Acme")]["dashed"]
            assert ("works_at", "Initech") not in edges
            assert "as known on 2024-04-01" in believed["caption"]

            # Before anything was recorded about her job or her cat: neither is drawn.
            _move(page, "known-at", "2024-03-02")
            early = _edges(page.evaluate(_DRAWN))
            assert set(early) == {("lives_in", "Paris")}

            # Back to now on both axes, then a click on Alice: her timeline and, per key,
            # the bitemporal picture (valid across, recorded up).
            _move(page, "known-at", None)
            _move(page, "as-of", None)
            page.locator('#graph .node[data-label="Alice"] circle').click()
            page.wait_for_selector('#panel[data-entity="Alice"] svg.bitemporal')
            panel = page.evaluate("""() => ({
              title: document.querySelector('#panel h2').textContent,
              rows: [...document.querySelectorAll('#panel .timeline-row')].map(
                g => [g.dataset.predicate, g.dataset.object, g.classList[1]]),
              keys: [...document.querySelectorAll('#panel svg.bitemporal')].map(s => s.dataset.key),
              rects: [...document.querySelectorAll('#panel svg[data-key="works_at"] .rect-row')].map(
                g => [g.dataset.object, g.dataset.status]),
            })""")
            page.screenshot(path=str(ARTIFACTS / "view-entity-alice.png"), full_page=True)
            assert panel["title"].startswith("Alice: timeline")
            assert ["lives_in", "Paris", "ended"] in panel["rows"]
            assert ["lives_in", "Berlin", "current"] in panel["rows"]
            assert ["works_at", "Initech", "current"] in panel["rows"]
            assert ["works_at", "Acme", "corrected"] not in panel["rows"]  # not believed now
            assert set(panel["keys"]) == {"lives_in", "works_at", "owns_pet"}
            assert ("Acme", "corrected") in {tuple(r) for r in panel["rects"]}
            assert ("Initech", "current") in {tuple(r) for r in panel["rects"]}
            assert not errors, errors
        finally:
            browser.close()
    assert off_machine == []  # nothing fetched from the network
    shots = [ARTIFACTS / f"{name}.png" for name in
             ("view-now", "view-valid-2023", "view-known-2024-04", "view-entity-alice")]  # fmt: skip
    assert all(shot.stat().st_size > 10_000 for shot in shots)
    assert len({shot.read_bytes() for shot in shots}) == len(shots)  # each move redrew it


def test_the_page_ships_everything_it_needs() -> None:
    """No CDN, no web font: every file the page loads is in the package, named in its
    package data, and nothing in it points off this machine."""
    import tomllib

    static = REPO / "graphmem" / "view" / "static"
    names = {p.name for p in static.iterdir()}
    assert {"index.html", "view.js", "view.css"} <= names
    page = (static / "index.html").read_text(encoding="utf-8")
    assert 'src="view.js"' in page and 'href="view.css"' in page
    for path in static.iterdir():
        text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, path
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert data["tool"]["setuptools"]["package-data"]["graphmem.view"] == ["static/*"]


def test_view_uses_the_running_service(store: Path) -> None:
    """With ``graphmem serve`` running on the store, ``graphmem view`` prints the page of
    that service and exits."""
    from graphmem.service.state import read_state

    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    base = [sys.executable, "-m", "graphmem.cli", "--store", str(store), "--no-embed"]
    serve = subprocess.Popen([*base, "serve"], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        import time

        deadline = time.monotonic() + 90
        while read_state(str(store)) is None:
            assert serve.poll() is None, serve.stderr.read()
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.1)
        info = read_state(str(store))
        done = subprocess.run([*base, "--scope", SCOPE, "view", "--entity", "Alice"], env=env,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == (
            f"{info.url}/view/#token={info.token}&scope={SCOPE}&entity=Alice"
        )
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=20)
