"""Reliability of the embedded store: crashes, concurrency, erase, scope isolation.

- A loading process killed with SIGKILL at random points leaves a store that opens,
  passes its integrity check, holds exactly the batches committed before the kill, and
  a resumed load ends with exactly the counts of an uninterrupted one.
- Threads and processes writing and reading at once lose no write, and readers always
  see a consistent snapshot (one value per functional key).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.model import Entity
from graphmem.store.protocol import RowQuery
from graphmem.time.instant import format_instant, to_instant

CITIES = ["Berlin", "Lisbon", "Oslo", "Porto", "Vienna", "Madrid", "Prague", "Dublin"]
TURNS = 1200
BATCH = 40


def write_log(path: Path, turns: int = TURNS) -> None:
    """A dated chat where people move around: every turn yields a fact."""
    rng = random.Random(5)
    start = to_instant("2023-01-01")
    with path.open("w") as fh:
        for i in range(turns):
            person = f"Person{i % 25}"
            text = f"I moved to {rng.choice(CITIES)}." if i % 3 else "Nice weather today."
            fh.write(json.dumps({
                "session": f"s{i // 50}", "timestamp": format_instant(start + timedelta(hours=i)),
                "speaker": person, "role": "user", "text": text,
            }) + "\n")  # fmt: skip


def facts_snapshot(mem: Memory) -> list[tuple]:
    rows = mem.backend.rows(RowQuery(scope="crash"))
    return sorted((r.subject, r.predicate, r.object, r.valid_from, r.valid_to) for r in rows)


LOADER = """
import sys
from graphmem import Memory
mem = Memory.open(sys.argv[1], embedder=None)
print("started", flush=True)
mem.load(sys.argv[2], scope="crash", batch_size=int(sys.argv[3]))
print("done", flush=True)
"""


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("crash")
    log = folder / "log.jsonl"
    write_log(log)
    mem = Memory.open(folder / "reference.db", embedder=None)
    report = mem.load(log, scope="crash", batch_size=BATCH)
    snapshot = facts_snapshot(mem)
    episodes = mem.stats()["episodes"]
    mem.close()
    assert report.episodes_added == TURNS and report.facts_written > 0
    return log, episodes, snapshot


@pytest.mark.parametrize("trial", range(20))
def test_sigkill_during_a_load_loses_nothing_committed_and_resumes_exactly(
    reference, tmp_path, trial
):
    log, total_episodes, expected = reference
    db = tmp_path / "crash.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", LOADER, str(db), str(log), str(BATCH)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout.readline().strip() == "started"
    time.sleep(random.Random(trial).uniform(0.05, 1.5))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)

    mem = Memory.open(db, embedder=None)
    assert mem.backend.integrity_check() == []
    stored = mem.backend.episodes("crash")
    # Batches are atomic: the turns stored are a prefix of the log, whole batches only
    # (or everything, if the load finished before the kill).
    assert len(stored) % BATCH == 0 or len(stored) == total_episodes
    # ... and every fact of a stored turn is there, none of a turn that is not.
    prefix = Memory.open(tmp_path / "prefix.db", embedder=None)
    prefix_log = tmp_path / "prefix.jsonl"
    prefix_log.write_text("".join(log.read_text().splitlines(keepends=True)[: len(stored)]))
    if stored:
        prefix.load(prefix_log, scope="crash", batch_size=BATCH)
    assert facts_snapshot(mem) == facts_snapshot(prefix)

    resumed = mem.load(log, scope="crash", batch_size=BATCH)
    assert resumed.episodes_skipped == len(stored)
    assert mem.stats()["episodes"] == total_episodes
    assert facts_snapshot(mem) == expected
    assert mem.backend.integrity_check() == []


# -- concurrency --------------------------------------------------------------------------


def test_threads_lose_no_write_and_readers_see_one_value(tmp_path):
    mem = Memory.open(tmp_path / "threads.db", embedder=None)
    mem.remember("Shared", "lives_in", "City0", valid_from="2020-01-01", scope="c")
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer(n: int) -> None:
        try:
            for i in range(60):
                mem.remember(f"W{n}-{i}", "hobby", "chess", scope="c")
                if n == 0:
                    mem.supersede("Shared", "lives_in", f"City{i + 1}",
                                  since=f"2021-01-{(i % 28) + 1:02d}", scope="c")  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            while not stop.is_set():
                values = mem.facts("Shared", "lives_in", scope="c")
                assert len(values) == 1, values
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    readers = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads + readers:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    for t in readers:
        t.join()
    assert errors == []
    assert len(mem.facts(predicate="hobby", scope="c")) == 4 * 60
    assert mem.backend.integrity_check() == []


def _process_writer(path: str, n: int, count: int) -> None:
    mem = Memory.open(path, embedder=None)
    for i in range(count):
        mem.remember(f"P{n}-{i}", "hobby", "chess", scope="p")
    mem.close()


def test_processes_sharing_a_file_lose_no_write(tmp_path):
    path = str(tmp_path / "procs.db")
    Memory.open(path, embedder=None).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_process_writer, args=(path, n, 40)) for n in range(3)]
    for p in procs:
        p.start()
    reader = Memory.open(path, embedder=None)
    seen = []
    while any(p.is_alive() for p in procs):
        seen.append(len(reader.facts(predicate="hobby", scope="p")))
        time.sleep(0.01)
    for p in procs:
        p.join()
        assert p.exitcode == 0
    assert seen == sorted(seen), "a reader saw the count go backwards"
    assert len(reader.facts(predicate="hobby", scope="p")) == 120
    assert reader.stats()["events"] == 120


# -- erase ----------------------------------------------------------------------------------


def test_erase_removes_rows_events_vectors_and_index_entries(tmp_path):
    from graphmem import Episode

    mem = Memory.open(tmp_path / "erase.db")
    mem.add_episodes(
        [Episode(scope="e", speaker="Bob", text="hello there", timestamp="2024-01-01")]
    )
    mem.remember("Alice", "lives_in", "Berlin", scope="e")
    mem.remember("Alice", "owns_pet", "Tom", scope="e")
    mem.remember("Bob", "lives_in", "Oslo", scope="e")
    alice = Entity.id_for("e", "Alice")
    assert mem.search("Alice lives in Berlin", scope="e").facts

    mem.erase("Alice", scope="e")

    hits = mem.search("Alice Berlin Tom", scope="e", history=True).hits
    assert all("Alice" not in h.text for h in hits)
    table = mem.backend._search_ready()["facts"]
    db = mem.backend._db
    live = {p for p in range(table.size) if table.has(p)}
    assert live <= {r[0] for r in db.execute("SELECT rowid FROM rows")}, "no entry of an erased row"
    assert db.execute("SELECT count(*) FROM rows WHERE subject_id=?", (alice,)).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM events WHERE payload LIKE '%Alice%'").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM entities WHERE name='Alice'").fetchone()[0] == 0
    owners = {r[0] for r in db.execute("SELECT owner_id FROM embeddings")}
    from graphmem.model import text_owner

    assert text_owner("e", "Alice lives in Berlin") not in owners
    assert text_owner("e", "Bob lives in Oslo") in owners
    # Nothing of Alice in the file itself (SQLite reuses freed pages; we vacuum on erase).
    mem.close()
    assert b"Alice" not in (tmp_path / "erase.db").read_bytes()
