"""Latency of ``graphmem ask`` and ``graphmem search`` from the shell: cold (the command
opens the store and loads the model itself) and with ``graphmem serve`` running, side by
side, with the ratio.

    .venv/bin/python bench/bench_cli_latency.py               # 3 cold runs, 10 served
    .venv/bin/python bench/bench_cli_latency.py --cold 5 --served 20

Each run is a new process, as from a shell: ``python -m graphmem.cli ...``, timed from
spawn to exit, with Python's bytecode cache on (one untimed run of each command first). The store is a temporary one holding the demo conversation. ``ask`` is
asked a question it answers exactly and one it answers by falling back to search (the
slow case before the service: search embeds the question).
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from graphmem.service.state import read_state  # noqa: E402

COMMANDS = {
    "ask (exact)": ["ask", "Where do I live now?", "--speaker", "Sam"],
    "ask (search fallback)": ["ask", "what did I say about the cat?", "--speaker", "Sam"],
    "search": ["search", "moved to a new city", "-k", "5"],
    "facts (no embedding)": ["facts", "Sam", "lives_in"],
}


def _env() -> dict[str, str]:
    # Bytecode caching on, as in an ordinary install (some sandboxes turn it off, and then
    # every start compiles each module again); the first run writes the cache.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GRAPHMEM_") and k != "PYTHONDONTWRITEBYTECODE"}  # fmt: skip
    env.update(PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    return env


def _cli(store: Path, *argv: str) -> float:
    """Seconds one ``graphmem`` command takes, spawn to exit (it must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store), "--scope", "demo", *argv],
        env=_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"graphmem {' '.join(argv)} failed: {done.stderr.strip()}")
    return seconds


def _times(store: Path, argv: list[str], runs: int, *extra: str) -> list[float]:
    return [_cli(store, *extra, *argv) for _ in range(runs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=3, help="cold runs per command")
    parser.add_argument("--served", type=int, default=10, help="runs with the service")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="graphmem-bench-cli-"))
    store = folder / "memory.db"
    log = importlib.resources.files("graphmem") / "data" / "demo_conversation.jsonl"
    with importlib.resources.as_file(log) as path:
        _cli(store, "--no-service", "load", str(path))
    for argv in COMMANDS.values():  # untimed: writes the bytecode cache of every module
        _cli(store, "--no-service", *argv)
    startup = _times(store, ["--help"], max(args.cold, 3))

    cold = {name: _times(store, argv, args.cold, "--no-service") for name, argv in COMMANDS.items()}

    started = time.perf_counter()
    service = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "--store", str(store), "serve"],
        env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        while read_state(str(store)) is None:
            if service.poll() is not None:
                raise SystemExit(f"serve failed: {service.stderr.read()}")
            time.sleep(0.05)
        ready = time.perf_counter() - started
        served = {name: _times(store, argv, args.served) for name, argv in COMMANDS.items()}
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(timeout=30)

    print(f"graphmem CLI latency, demo store, {os.cpu_count()} CPUs "
          f"(median of {args.cold} cold / {args.served} served runs; each a new process)")  # fmt: skip
    print(f"  python -m graphmem.cli --help: {statistics.median(startup) * 1000:.0f} ms "
          "(interpreter and CLI start, nothing opened)")  # fmt: skip
    print(f"  graphmem serve ready (store open, model loaded) after {ready:.1f} s")
    print(f"  {'command':<24}{'cold':>10}{'served':>10}{'ratio':>9}{'served p95':>12}")
    for name in COMMANDS:
        c, s = statistics.median(cold[name]), statistics.median(served[name])
        p95 = sorted(served[name])[max(0, round(0.95 * len(served[name])) - 1)]
        print(
            f"  {name:<24}{c * 1000:>8.0f}ms{s * 1000:>8.0f}ms{c / s:>8.1f}x{p95 * 1000:>10.0f}ms"
        )
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
