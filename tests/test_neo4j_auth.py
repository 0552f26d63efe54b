"""The test Neo4j is not open to whoever asks: any web page in a browser on this machine can
reach 127.0.0.1, so Bolt and the HTTP API want the password, the HTTP API does not grant
other origins, and the password file is readable by its owner only.

These run against the Neo4j the test command starts (``GRAPHMEM_NEO4J_URI``,
``GRAPHMEM_NEO4J_HTTP``, ``GRAPHMEM_NEO4J_USER`` / ``GRAPHMEM_NEO4J_PASSWORD``).
"""

from __future__ import annotations

import base64
import json
import os
import stat
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import neo4j_auth, require_neo4j

from graphmem import Memory, StoreError

neo4j = pytest.importorskip("neo4j")

ROOT = Path(__file__).resolve().parents[1]
FOREIGN = "http://evil.example"


@pytest.fixture
def uri() -> str:
    return require_neo4j()


@pytest.fixture
def http() -> str:
    require_neo4j()
    base = os.environ.get("GRAPHMEM_NEO4J_HTTP")
    if not base:
        pytest.skip("no GRAPHMEM_NEO4J_HTTP (scripts/test.sh sets it)")
    return base.rstrip("/")


@pytest.fixture(autouse=True)
def reset_failed_logins():
    """Neo4j locks a user for 5 s after 3 failed logins in a row (every test after this
    file's would then fail): each test here fails at most twice, then logs in once."""
    yield
    if os.environ.get("GRAPHMEM_NEO4J_URI") and neo4j_auth() is not None:
        with neo4j.GraphDatabase.driver(os.environ["GRAPHMEM_NEO4J_URI"], auth=neo4j_auth()) as d:
            d.verify_connectivity()


@pytest.fixture
def no_env_auth(monkeypatch):
    monkeypatch.delenv("GRAPHMEM_NEO4J_USER", raising=False)
    monkeypatch.delenv("GRAPHMEM_NEO4J_PASSWORD", raising=False)


def intruders(uri: str) -> int:
    with neo4j.GraphDatabase.driver(uri, auth=neo4j_auth()) as driver:
        records, _, _ = driver.execute_query("MATCH (n:Intruder) RETURN count(n) AS n")
    return records[0]["n"]


def post_cypher(http: str, statement: str, *, auth: tuple[str, str] | None = None):
    """A Cypher POST as a page on another origin would send it: (status, headers, body)."""
    headers = {"Origin": FOREIGN, "Content-Type": "application/json"}
    if auth is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(":".join(auth).encode()).decode()
    body = json.dumps({"statements": [{"statement": statement}]}).encode()
    request = urllib.request.Request(f"{http}/db/neo4j/tx/commit", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read().decode()


# -- Bolt -------------------------------------------------------------------------------


def test_connecting_without_a_password_is_refused(uri, no_env_auth):
    with pytest.raises(neo4j.exceptions.AuthError), neo4j.GraphDatabase.driver(uri) as driver:
        driver.verify_connectivity()
    with pytest.raises(StoreError) as raised:
        Memory.open(uri, embedder=None)
    message = str(raised.value)
    assert uri in message and "authentication failed" in message
    assert "no password was given" in message and "GRAPHMEM_NEO4J_PASSWORD" in message


@pytest.mark.parametrize("how", ["auth", "uri", "env"])
def test_a_wrong_password_is_one_clear_error(uri, how, no_env_auth, monkeypatch):
    wrong = "not-the-password-42"
    options = {}
    target = uri
    if how == "auth":
        options["auth"] = ("neo4j", wrong)
    elif how == "uri":
        target = uri.replace("://", f"://neo4j:{wrong}@", 1)
    else:
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", wrong)
    with pytest.raises(StoreError) as raised:
        Memory.open(target, embedder=None, **options)
    message = str(raised.value)
    assert message.startswith(f"cannot open Neo4j store {uri}: authentication failed")
    assert "password was refused" in message and ".neo4j/password" in message
    assert wrong not in message and "\n" not in message
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_the_default_password_is_refused(uri):
    default = ("neo4j", "neo4j")
    with (
        pytest.raises(neo4j.exceptions.AuthError),
        neo4j.GraphDatabase.driver(uri, auth=default) as d,
    ):
        d.verify_connectivity()


def test_the_password_comes_from_the_environment_unless_given(uri, monkeypatch):
    if neo4j_auth() is None:
        pytest.skip("GRAPHMEM_NEO4J_PASSWORD is not set (scripts/test.sh sets it)")
    mem = Memory.open(uri, embedder=None)  # GRAPHMEM_NEO4J_USER / GRAPHMEM_NEO4J_PASSWORD
    mem.close()
    with pytest.raises(StoreError, match="password was refused"):  # auth= wins over the env
        Memory.open(uri, embedder=None, auth=("neo4j", "not-the-password-42"))
    monkeypatch.delenv("GRAPHMEM_NEO4J_USER")  # the user defaults to neo4j
    Memory.open(uri, embedder=None).close()


# -- the HTTP API -----------------------------------------------------------------------


def test_the_http_api_refuses_cypher_without_the_password(uri, http):
    status, headers, body = post_cypher(http, "CREATE (:Intruder)")
    assert status == 401, body
    assert "Unauthorized" in body
    assert intruders(uri) == 0


def test_the_http_api_does_not_grant_other_origins(uri, http):
    for auth in (None, neo4j_auth()):
        status, headers, _ = post_cypher(http, "RETURN 1", auth=auth)
        allowed = headers.get("Access-Control-Allow-Origin")
        assert allowed not in ("*", FOREIGN), (status, allowed)
    # The preflight a page must pass before it may send a JSON POST at all.
    preflight = urllib.request.Request(
        f"{http}/db/neo4j/tx/commit",
        method="OPTIONS",
        headers={
            "Origin": FOREIGN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type",
        },
    )
    try:
        with urllib.request.urlopen(preflight, timeout=10) as response:
            allowed = response.headers.get("Access-Control-Allow-Origin")
    except urllib.error.HTTPError as refused:
        allowed = refused.headers.get("Access-Control-Allow-Origin")
    assert allowed not in ("*", FOREIGN)


def test_neo4j_browser_is_still_served(http):
    with urllib.request.urlopen(f"{http}/browser/", timeout=10) as response:
        assert response.status == 200


# -- the password file ------------------------------------------------------------------


def test_the_password_file_is_readable_by_its_owner_only(uri):
    state = Path(os.environ.get("GRAPHMEM_NEO4J_DIR") or ROOT / ".neo4j")
    file = state / "password"
    if not file.exists():
        pytest.skip(f"no {file}: this Neo4j was not started by scripts/neo4j/start.sh")
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    password = file.read_text().strip()
    assert len(password) >= 8
    if os.environ.get("GRAPHMEM_NEO4J_PASSWORD"):
        assert password == os.environ["GRAPHMEM_NEO4J_PASSWORD"]  # what test.sh exported
    for log in [state / "neo4j.log", *state.glob("home/logs/*.log")]:
        assert password not in log.read_text(errors="replace"), f"the password is in {log}"
