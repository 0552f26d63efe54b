"""Drive Neo4j Browser in headless Chromium and report what it rendered.

A helper for end-to-end checks (not a test module). It uses Playwright's Python
API against the system Chromium (Debian package ``chromium``); Playwright's own
browser download (``playwright install``) is neither needed nor possible here.

    from tests.browser_driver import render_query_in_browser
    seen = render_query_in_browser(
        "http://127.0.0.1:7474/browser/", "neo4j://127.0.0.1:7687",
        "MATCH p=()-->() RETURN p", "artifacts/graph.png", auth=("neo4j", password))
    assert seen["node_count"] == 2 and "Alice" in seen["node_captions"]

Neo4j Browser 5.x reads these URL parameters: ``dbms`` (alias ``connectURL``),
``db``, ``discoveryURL`` and ``preselectAuthMethod`` (NATIVE, SSO, NO_AUTH).
With ``auth`` the driver types the user and password into the connect form, as a person
would (the password never goes into the URL); without it, it asks for NO_AUTH, and a
server with auth disabled connects on load ("Connected to Neo4j").

The sync Playwright API cannot run inside a running asyncio event loop (call it
from a plain test, or from a worker thread).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

# Chromium flags required on the CI/dev machines (closed network, no GPU, root).
# Playwright adds --headless itself when headless=True.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

_LOCAL_PREFIXES = (
    "http://127.0.0.1",
    "http://localhost",
    "ws://127.0.0.1",
    "ws://localhost",
    "data:",
    "blob:",
)

# Monaco (the Cypher editor) handles paste events on its hidden textarea verbatim.
_PASTE_JS = """
(text) => {
  const ta = document.querySelector('[data-testid="activeEditor"] textarea');
  if (!ta) throw new Error('Neo4j Browser editor textarea not found');
  ta.focus();
  const dt = new DataTransfer();
  dt.setData('text/plain', text);
  ta.dispatchEvent(new ClipboardEvent('paste',
      {clipboardData: dt, bubbles: true, cancelable: true}));
}
"""

# Snapshot of the newest result frame (frames are prepended to the stream).
_FRAME_JS = """
(args) => {
  const [before] = args;
  const frames = [...document.querySelectorAll('[data-testid="frame"]')];
  if (frames.length <= before) return null;
  const f = frames[0];
  const q = (sel) => f.querySelector(sel);
  const nodes = [...f.querySelectorAll('svg g.node')];
  const rels = [...f.querySelectorAll('svg g.relationship')];
  const err = q('[data-testid="cypherFrameErrorMessage"]');
  const pick = (prefix) => [...f.querySelectorAll('[data-testid^="' + prefix + '"]')]
      .map(e => e.getAttribute('data-testid').slice(prefix.length))
      .filter(x => x !== '*');
  const overview = q('[data-testid="vizInspector"]');
  const displaying = overview
      ? (overview.innerText.match(/Displaying [^\\n]*/) || [null])[0] : null;
  return {
    frame_command: (q('[data-testid="frameCommand"]') || {}).innerText || null,
    loaded: !!q('[data-testid="frame-loaded-contents"]') || !!err,
    running: !!q('[data-testid="stopRunFrameButton"]'),
    node_count: nodes.length,
    relationship_count: rels.length,
    node_captions: nodes.map(n => [...n.querySelectorAll('text')]
        .map(t => t.textContent.trim()).filter(Boolean).join(' ')),
    relationship_captions: rels.map(r => [...r.querySelectorAll('text')]
        .map(t => t.textContent.trim()).filter(Boolean).join(' ')),
    node_transforms: nodes.map(n => n.getAttribute('transform')).join('|'),
    labels: pick('property-details-overview-node-label-'),
    relationship_types: pick('property-details-overview-relationship-type-'),
    overview: displaying,
    error: err ? err.innerText.trim() : null,
    text: (q('[data-testid="frameContents"]') || f).innerText.slice(0, 2000),
  };
}
"""


def find_chromium() -> str:
    """Path of the system Chromium (override with $GRAPHMEM_CHROMIUM)."""
    env = os.environ.get("GRAPHMEM_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise FileNotFoundError(
        "no Chromium found: apt-get install -y chromium (or set GRAPHMEM_CHROMIUM)"
    )


def browser_url_with_params(
    browser_url: str, bolt_url: str, db: str | None = None, *, native_auth: bool = False
) -> str:
    """Add Neo4j Browser's connection URL parameters (keeps existing ones)."""
    parts = urllib.parse.urlsplit(browser_url)
    params = dict(urllib.parse.parse_qsl(parts.query))
    params.setdefault("dbms", bolt_url)
    params.setdefault("preselectAuthMethod", "NATIVE" if native_auth else "NO_AUTH")
    if db:
        params.setdefault("db", db)
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(params)))


def render_query_in_browser(
    browser_url: str,
    bolt_url: str,
    cypher: str,
    screenshot_path: str,
    *,
    db: str | None = None,
    auth: tuple[str, str] | None = None,
    timeout_s: float = 60.0,
    full_page: bool = False,
    viewport: tuple[int, int] = (1400, 900),
) -> dict[str, Any]:
    """Open Neo4j Browser, log in (``auth``: user and password, through the connect form;
    None: no auth), run ``cypher``, screenshot the result.

    Returns what the page showed: ``node_count`` / ``relationship_count`` (rendered
    ``g.node`` / ``g.relationship`` SVG groups), ``node_captions`` and
    ``relationship_captions`` (their visible texts), ``labels`` and
    ``relationship_types`` (from the overview panel), ``overview`` ("Displaying 2
    nodes, 1 relationships."), ``error`` (Cypher error text or None), ``text`` (the
    frame's text, for table/empty results), ``frame_command``, ``screenshot_path``,
    ``chromium_version`` and ``elapsed_s``. The screenshot shows the result frame
    (query, graph and overview), or the whole page with ``full_page=True``.
    """
    from playwright.sync_api import sync_playwright  # optional dependency

    started = time.monotonic()
    deadline = started + timeout_s
    timeout_ms = timeout_s * 1000
    url = browser_url_with_params(browser_url, bolt_url, db, native_auth=auth is not None)
    shot = Path(screenshot_path)
    shot.parent.mkdir(parents=True, exist_ok=True)

    with (
        tempfile.TemporaryDirectory(prefix="graphmem-chromium-") as user_data_dir,
        sync_playwright() as pw,
    ):
        ctx = pw.chromium.launch_persistent_context(
            user_data_dir,
            executable_path=find_chromium(),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": viewport[0], "height": viewport[1]},
        )
        try:
            # The network is closed: fail fast on fonts/telemetry instead of waiting.
            ctx.route(
                "**/*",
                lambda route: (
                    route.continue_()
                    if route.request.url.startswith(_LOCAL_PREFIXES)
                    else route.abort()
                ),
            )
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.set_default_timeout(timeout_ms)
            page.goto(url, wait_until="domcontentloaded")

            # Connected (auth disabled: automatic), or the connect form to submit.
            connected = page.get_by_text("Connected to Neo4j", exact=True).first
            connect_btn = page.locator('[data-testid="connect"]')
            connected.or_(connect_btn).first.wait_for(state="visible")
            if not connected.is_visible():
                if auth is not None:
                    page.locator('[data-testid="username"]').fill(auth[0])
                    page.locator('[data-testid="password"]').fill(auth[1])
                connect_btn.click()
                refused = page.locator('[data-testid="frame"]').get_by_text(
                    "Neo.ClientError.Security", exact=False
                )
                connected.or_(refused).first.wait_for(state="visible")
                if not connected.is_visible():
                    raise PermissionError(f"Neo4j Browser could not log in to {bolt_url}")

            # Hide the usage-statistics banner (cosmetic, for full-page screenshots).
            page.evaluate(
                """() => { const main = document.querySelector('[data-testid="main"]');
                  for (const c of main ? main.children : [])
                    if (c.textContent.trim().startsWith('To help make Neo4j Browser better'))
                      c.style.display = 'none'; }"""
            )

            frames_before = page.locator('[data-testid="frame"]').count()
            editor = page.locator('[data-testid="activeEditor"]')
            editor.click()
            # Paste rather than type: typed (and insert_text) input goes through Monaco's
            # auto-closing of brackets/quotes, so "MATCH (n RETURN n" became "...n)".
            page.evaluate(_PASTE_JS, cypher)
            page.locator('[data-testid="editor-Run"]').click()

            # Wait for the new frame to finish, then for the force layout to settle.
            snap: dict[str, Any] | None = None
            stable, last_transforms = 0, None
            while time.monotonic() < deadline:
                snap = page.evaluate(_FRAME_JS, [frames_before])
                if snap and snap["loaded"] and not snap["running"]:
                    if snap["node_count"] == 0:
                        # Table/empty/error result: give the graph view a moment to appear.
                        if snap["error"] or stable >= 4:
                            break
                        stable += 1
                    else:
                        stable = stable + 1 if snap["node_transforms"] == last_transforms else 0
                        last_transforms = snap["node_transforms"]
                        if stable >= 4:
                            break
                time.sleep(0.25)
            if snap is None:
                raise TimeoutError(
                    f"Neo4j Browser showed no result frame for {cypher!r} within {timeout_s}s"
                )

            if full_page:
                page.screenshot(path=str(shot), full_page=True)
            else:
                page.locator('[data-testid="frame"]').first.screenshot(path=str(shot))

            internal = ("node_transforms", "loaded", "running")
            result = {k: v for k, v in snap.items() if k not in internal}
            result.update(
                screenshot_path=str(shot),
                url=url,
                chromium_version=ctx.browser.version if ctx.browser else None,
                elapsed_s=round(time.monotonic() - started, 2),
            )
            return result
        finally:
            ctx.close()


SMOKE_SEED = (
    "MERGE (a:Person {name: 'Alice'}) MERGE (b:Place {name: 'Berlin'}) MERGE (a)-[:LIVES_IN]->(b)"
)


def main(argv: list[str] | None = None) -> int:
    """Smoke check: python tests/browser_driver.py [--seed] [--query Q] [--out PNG]."""
    import argparse
    import json

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--browser", default="http://127.0.0.1:7474/browser/")
    ap.add_argument("--bolt", default="neo4j://127.0.0.1:7687")
    ap.add_argument("--query", default="MATCH p=()-->() RETURN p")
    ap.add_argument("--out", default="artifacts/browser-smoke.png")
    ap.add_argument("--seed", action="store_true", help=f"first run: {SMOKE_SEED}")
    ap.add_argument("--user", default=os.environ.get("GRAPHMEM_NEO4J_USER") or "neo4j")
    ap.add_argument(
        "--password-file", default=".neo4j/password", help="ignored if GRAPHMEM_NEO4J_PASSWORD"
    )
    ns = ap.parse_args(argv)
    password = os.environ.get("GRAPHMEM_NEO4J_PASSWORD") or Path(ns.password_file).read_text()
    auth = (ns.user, password.strip())
    if ns.seed:
        from neo4j import GraphDatabase

        with GraphDatabase.driver(ns.bolt, auth=auth) as driver:
            driver.execute_query(SMOKE_SEED)
    seen = render_query_in_browser(ns.browser, ns.bolt, ns.query, ns.out, auth=auth)
    print(json.dumps(seen, indent=2))
    return 0 if seen["node_count"] and not seen["error"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
