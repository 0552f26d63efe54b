"""Neo4j going away in the middle of a load: a clear error, and a resume that loses and
duplicates nothing. Runs its own Neo4j (other ports, its own folder) so that stopping
it does not disturb the shared test instance. That Neo4j makes its own password on first
start (no GRAPHMEM_NEO4J_PASSWORD is passed on) and keeps it across the restart."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import require_neo4j

from graphmem import Memory, StoreError
from graphmem.time.instant import format_instant, to_instant

ROOT = Path(__file__).resolve().parents[1]
BOLT, HTTP = 17688, 17475


def neo4j(command: str, state: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_NEO4J_PASSWORD"}
    env.update(GRAPHMEM_NEO4J_DIR=str(state), GRAPHMEM_NEO4J_BOLT_PORT=str(BOLT),
               GRAPHMEM_NEO4J_HTTP_PORT=str(HTTP))  # fmt: skip
    done = subprocess.run(["bash", str(ROOT / "scripts" / "neo4j" / f"{command}.sh")], env=env,
                          capture_output=True, text=True, timeout=240)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def write_log(path: Path, turns: int) -> None:
    start = to_instant("2023-01-01")
    cities = ["Berlin", "Oslo", "Lisbon", "Porto"]
    with path.open("w") as fh:
        for i in range(turns):
            fh.write(json.dumps({
                "session": f"s{i // 20}", "timestamp": format_instant(start + timedelta(hours=i)),
                "speaker": f"P{i % 7}", "role": "user", "text": f"I moved to {cities[i % 4]}.",
            }) + "\n")  # fmt: skip


def test_neo4j_stopping_mid_load_is_a_clear_error_and_resume_is_exact(tmp_path):
    require_neo4j()  # the same prerequisites as the shared instance (Java, the jars)
    state = tmp_path / "neo4j"
    log = tmp_path / "log.jsonl"
    write_log(log, 400)
    uri = f"bolt://127.0.0.1:{BOLT}"
    neo4j("start", state)
    try:
        auth = ("neo4j", (state / "password").read_text().strip())
        mem = Memory.open(uri, embedder=None, auth=auth)
        failure: list[BaseException] = []

        def loading() -> None:
            try:
                mem.load(log, scope="f", batch_size=10)
            except BaseException as exc:  # noqa: BLE001 - inspected below
                failure.append(exc)

        worker = threading.Thread(target=loading)
        worker.start()
        while mem.stats()["episodes"] < 30:
            time.sleep(0.05)
        neo4j("stop", state)
        worker.join(timeout=120)
        assert failure, "the load finished before Neo4j stopped; make the log longer"
        error = failure[0]
        assert isinstance(error, StoreError)
        assert f"127.0.0.1:{BOLT}" in str(error) and "\n" not in str(error).strip()

        neo4j("start", state)
        again = Memory.open(uri, embedder=None, auth=auth)  # the same password after restart
        stored = again.stats()["episodes"]
        assert stored % 10 == 0  # whole batches only
        report = again.load(log, scope="f", batch_size=10)
        assert report.episodes_skipped == stored
        assert again.stats()["episodes"] == 400
        assert again.backend.integrity_check() == []
        # Same facts as a clean load into an embedded store.
        clean = Memory.open(tmp_path / "clean.db", embedder=None)
        clean.load(log, scope="f", batch_size=10)
        facts = lambda m: sorted((f.subject, f.object, f.valid_from) for f in m.facts(scope="f"))  # noqa: E731
        assert facts(again) == facts(clean)
        again.close()
    finally:
        try:
            neo4j("stop", state)
        except AssertionError:
            pytest.fail("could not stop the private Neo4j")
