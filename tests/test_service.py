"""``graphmem serve``: one process holds the store and the model and answers the verbs over
HTTP; the CLI finds it from the store's discovery file and its output is the same as
when it opens the store itself.

The service runs as a real ``graphmem serve`` subprocess on a free loopback port over a
temporary embedded store, with the real embedding model; requests are real HTTP. The
demo conversation is loaded through the service itself.
"""

from __future__ import annotations

import importlib.resources
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.cli import main
from graphmem.service.client import connect
from graphmem.service.state import read_state, state_path

REPO = Path(__file__).resolve().parents[1]
DEMO = importlib.resources.files("graphmem") / "data" / "demo_conversation.jsonl"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **extra)
    return env


def _start(store: Path, *args: str) -> subprocess.Popen:
    """``graphmem serve`` on a free port; returns once its discovery file is written."""
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store), "serve", *args],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 90
    while read_state(str(store)) is None:
        if process.poll() is not None:
            raise AssertionError(f"serve exited {process.returncode}: {process.stderr.read()}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError("serve did not start in 90 s")
        time.sleep(0.1)
    return process


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _http(store: Path, method: str, path: str, body: object = None, *,
          token: str | None = None) -> tuple[int, object]:  # fmt: skip
    info = read_state(str(store))
    assert info is not None
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(info.url + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {info.token if token is None else token}")
    request.add_header("Content-Type", "application/json")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Path]:
    """A store with the demo conversation, loaded through a running service."""
    store = tmp_path_factory.mktemp("serve") / "memory.db"
    process = _start(store)
    try:
        with importlib.resources.as_file(DEMO) as log:
            status, report = _http(store, "POST", "/load", {"path": str(log), "scope": "demo"})
        assert status == 200, report
        assert report["episodes_added"] == 21 and report["facts_written"] > 0
        yield store
    finally:  # the service goes even when a setup step fails
        _stop(process)
    assert process.returncode == 0, process.stderr.read()
    assert not state_path(str(store)).exists(), "the discovery file outlives the service"


def test_every_request_needs_the_token(served: Path) -> None:
    assert _http(served, "GET", "/health", token="")[0] == 401
    assert _http(served, "GET", "/health", token="wrong")[0] == 401
    status, health = _http(served, "GET", "/health")
    assert status == 200
    assert health["store"] == str(served.resolve()) and health["embedder"] is True
    assert oct(state_path(str(served)).stat().st_mode & 0o777) == "0o600"


def test_ask_search_and_facts_in_every_time_mode(served: Path) -> None:
    def ask(question: str, **when: str) -> str:
        status, answer = _http(served, "POST", "/ask",
                               {"question": question, "speaker": "Sam", "scope": "demo", **when})  # fmt: skip
        assert status == 200, answer
        return answer["answer"]

    assert ask("Where do I live now?") == "Lisbon (since 2024-02-12)"
    assert ask("Where do I live?", reference="2024-01-15") == (
        "Berlin (from 2019-01-01 until 2024-02-12)"
    )
    assert ask("Where do I live?", known_at="2024-02-20T23:00:00Z") == "Porto (since 2024-02-12)"

    def objects(**when: str) -> list[str]:
        body = {"subject": "Sam", "predicate": "lives_in", "scope": "demo", **when}
        status, rows = _http(served, "POST", "/facts", body)
        assert status == 200, rows
        return [row["object"] for row in rows]

    assert objects() == ["Lisbon"]
    assert objects(as_of="2024-01-15") == ["Berlin"]
    assert objects(known_at="2024-02-20T23:00:00Z") == ["Porto"]
    assert objects(as_of="2024-01-15", known_at="2024-01-09") == ["Berlin"]

    status, result = _http(served, "POST", "/search",
                           {"query": "which dog did I adopt", "k": 3, "scope": "demo"})  # fmt: skip
    assert status == 200
    assert any("Rex" in (h.get("fact") or h.get("episode"))["text"] for h in result["hits"])


def test_the_service_says_what_is_wrong_as_the_library_does(served: Path) -> None:
    status, error = _http(served, "POST", "/facts", {"predicate": "lives_on", "scope": "demo"})
    assert status == 400 and error["error"] == "InvalidFactError"
    assert "lives_on" in error["detail"]
    assert _http(served, "POST", "/load", {"scope": "demo"})[0] == 422


def test_posted_records_load_and_loading_again_adds_nothing(served: Path) -> None:
    turn = {"timestamp": "2024-07-01T10:00:00Z", "speaker": "Sam", "role": "user",
            "text": "I took up bouldering."}  # fmt: skip
    status, report = _http(served, "POST", "/load", {"records": [turn], "scope": "posted"})
    assert status == 200 and report["episodes_added"] == 1
    assert (
        _http(served, "POST", "/load", {"records": [turn], "scope": "posted"})[1]["episodes_added"]
        == 0
    )
    status, facts = _http(served, "POST", "/facts", {"subject": "Sam", "scope": "posted"})
    assert [f["object"] for f in facts] == ["bouldering"]
    status, scopes = _http(served, "GET", "/scopes")
    assert scopes == ["demo", "posted"]


def _cli_in_subprocess(*argv: str) -> tuple[int, str, bool]:
    """A CLI command in a fresh interpreter: exit code, stdout, whether torch was imported."""
    code = (
        "import sys; from graphmem.cli import main; rc = main(sys.argv[1:]); "
        "sys.stdout.flush(); sys.stderr.write('TORCH=%s' % ('torch' in sys.modules)); "
        "sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code, *argv], env=_env(COLUMNS="100"),
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.returncode, done.stdout, done.stderr.endswith("TORCH=True")


CLI_READS = [
    ("ask", "Where do I live now?", "--speaker", "Sam"),
    ("ask", "Where did I live in January 2024?", "--speaker", "Sam"),
    ("ask", "what did I say about the cat?", "--speaker", "Sam"),  # falls back to search
    ("search", "moved to a new city", "-k", "5"),
    ("search", "employer", "--history", "--as-of", "2024-04-01"),
    ("facts", "Sam", "--as-of", "2024-01-15", "--known-at", "2024-02-20T23:00:00Z"),
    ("facts", "Sam", "lives_in", "--known-at", "2024-02-20T23:00:00Z"),
    ("history", "Sam", "lives_in"),
    ("history", "Sam", "--as-of", "2024-03-01", "--known-at", "2024-02-20T23:00:00Z"),
    ("timeline", "Sam"),
    ("timeline", "Sam", "lives_in", "--as-of", "2024-01-01"),
    ("changes", "--axis", "valid", "--since", "2024-02-01", "--until", "2024-06-01"),
    ("entities",),
    ("stats",),
]


def _same_json(text: str) -> object:
    """JSON output with floats to 9 places: a hit's recency component is reckoned
    against the clock of each call, so two calls seconds apart differ past that."""

    def rounded(value: object) -> object:
        if isinstance(value, float):
            return round(value, 9)
        if isinstance(value, list):
            return [rounded(v) for v in value]
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items()}
        return value

    return rounded(json.loads(text))


def test_the_cli_prints_the_same_through_the_service_as_in_process(
    served: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # one table width for both
    assert connect(str(served)) is not None  # so a CLI without --no-service uses it
    common = ["--store", str(served), "--scope", "demo"]
    for output in ([], ["--json"]):
        for argv in CLI_READS:
            via_service = main([*common, *output, *argv])
            served_out = capsys.readouterr().out
            # the same command opening the store here (the model loads once, in this process)
            assert main([*common, *output, "--no-service", *argv]) == via_service
            in_process = capsys.readouterr().out
            if output:
                assert _same_json(served_out) == _same_json(in_process), argv
            else:
                assert served_out == in_process, argv


def test_an_error_reads_the_same_through_the_service(
    served: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--store", str(served), "--scope", "demo"]
    for argv in (["facts", "Sam", "lives_on"], ["ask", "where do I live?", "--scope", "nobody"]):
        assert main([*common, *argv]) == 1
        via_service = capsys.readouterr()
        assert main([*common, "--no-service", *argv]) == 1
        assert capsys.readouterr() == via_service, argv
        assert via_service.err.startswith("graphmem")


@pytest.mark.parametrize("argv", [CLI_READS[0], CLI_READS[2], CLI_READS[3]], ids=str)
def test_a_question_from_the_shell_goes_to_the_service_and_never_loads_torch(
    served: Path, argv: tuple[str, ...]
) -> None:
    rc, out, torch = _cli_in_subprocess("--store", str(served), "--scope", "demo", *argv)
    assert rc == 0 and out
    assert not torch


def test_the_cli_loads_through_the_service(served: Path, tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text('{"timestamp": "2024-08-01T10:00:00Z", "speaker": "Kim", "role": "user",'
                   ' "text": "I live in Oslo."}\n')  # fmt: skip
    rc, out, torch = _cli_in_subprocess("--store", str(served), "--scope", "kim", "--json",
                                        "load", str(log))  # fmt: skip
    assert rc == 0 and not torch  # the rules extractor and the embedding ran in the service
    assert json.loads(out)[0]["episodes_added"] == 1
    rc, out, _ = _cli_in_subprocess("--store", str(served), "--scope", "kim", "--json",
                                    "ask", "where do I live?", "--speaker", "Kim")  # fmt: skip
    assert json.loads(out)["answer"] == "Oslo (since 2024-08-01)"


def test_a_verb_that_does_not_embed_never_imports_torch(served: Path) -> None:
    rc, out, torch = _cli_in_subprocess("--store", str(served), "--scope", "demo", "--no-service",
                                        "facts", "Sam", "lives_in")  # fmt: skip
    assert rc == 0 and "Lisbon" in out
    assert not torch


def test_serving_beyond_loopback_needs_a_token_and_the_file_goes_with_the_service(
    tmp_path: Path,
) -> None:
    store = tmp_path / "other.db"
    refused = subprocess.run(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store), "serve", "--host", "0.0.0.0"],
        env=_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2 and "--token" in refused.stderr
    process = _start(store, "--no-embed")
    try:
        info = read_state(str(store))
        assert info is not None and info.host == "127.0.0.1" and len(info.token) >= 24
        assert _http(store, "GET", "/health")[1]["embedder"] is False
        # a second service of the same store is refused while the first one runs
        again = subprocess.run(
            [sys.executable, "-m", "graphmem.cli", "--store", str(store), "serve", "--no-embed"],
            env=_env(), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert again.returncode == 1 and "already serves" in again.stderr
        # a CLI that wants vectors does not use a service without them: it opens the store
        assert main(["--store", str(store), "--no-embed", "stats"]) == 0
    finally:
        _stop(process)
    assert process.returncode == 0
    assert not state_path(str(store)).exists()


def test_the_mcp_server_runs_over_the_service(served: Path, tmp_path: Path) -> None:
    """``graphmem mcp`` with a service running: its tool calls are answered (and its
    writes made) by the service, and the MCP process never loads the model."""
    pytest.importorskip("mcp")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    code = (
        "import sys, atexit; from graphmem.cli import main; "
        "atexit.register(lambda: sys.stderr.write('TORCH=%s' % ('torch' in sys.modules))); "
        "sys.exit(main(sys.argv[1:]))"
    )
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", code, "--store", str(served), "--scope", "mcp", "mcp", "--speaker", "Lee"],
        env=_env(),
    )

    errlog = tmp_path / "mcp.err"

    async def session_calls() -> list[dict]:
        async with (
            stdio_client(params, errlog=errlog.open("w")) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            results = []
            for name, arguments in (
                ("remember", {"subject": "user", "predicate": "lives_in", "object": "Lyon",
                              "valid_from": "2023-05-01"}),
                ("ask", {"question": "Where do I live now?"}),
                ("search", {"query": "Lyon"}),
            ):  # fmt: skip
                result = await session.call_tool(name, arguments)
                results.append(json.loads(result.content[0].text))
            return results

    remembered, asked, searched = anyio.run(session_calls)
    assert "TORCH=False" in errlog.read_text(), errlog.read_text()
    assert remembered["ok"] and asked["answer"] == "Lyon (since 2023-05-01)"
    assert searched["ok"]
    # written by the service, into its store: a plain HTTP read sees it
    status, rows = _http(served, "POST", "/facts", {"subject": "Lee", "scope": "mcp"})
    assert [r["object"] for r in rows] == ["Lyon"]


def test_a_write_from_another_process_is_seen_by_the_service(
    served: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI's writes other than load open the store themselves while the service holds
    it: SQLite's write lock (WAL, BEGIN IMMEDIATE) makes the two take turns, and the
    service catches up with the other process's commit on its next read."""
    common = ["--store", str(served), "--scope", "writes", "--no-embed"]
    assert main([*common, "remember", "Noor", "hobby", "chess", "--from", "2024-01-01"]) == 0
    capsys.readouterr()
    status, rows = _http(served, "POST", "/facts", {"subject": "Noor", "scope": "writes"})
    assert status == 200 and [r["object"] for r in rows] == ["chess"]
