"""``graphmem demo`` on a fresh install, the way a new user runs it.

SLOW (about a minute): this test builds a brand-new virtual environment, installs
graphmem into it from a clean copy of the repository (what ``git clone`` plus the
working tree's changes would give: tracked and untracked-but-not-ignored files), and
runs the installed ``graphmem demo`` from an unrelated directory, with no server and
no network. Skip it with ``GRAPHMEM_SKIP_VENV_TEST=1``.

To avoid downloading torch and friends again, the new environment sees this test
environment's site-packages through a ``.pth`` file (the effect of ``python -m venv
--system-site-packages`` when the dependencies live in a virtualenv), and graphmem
itself is installed with ``python -m pip install --no-deps --no-build-isolation``:
the dependencies (and pip and setuptools) come from there, graphmem (code, console
script, package data) from the copy. Both the editable install the README shows and a
regular (wheel) install are checked; the regular one proves the sample conversation
ships as package data.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(
    os.environ.get("GRAPHMEM_SKIP_VENV_TEST") == "1", reason="GRAPHMEM_SKIP_VENV_TEST=1"
)

EXPECTED = {
    "Where do I live now?": "Lisbon (since 2024-02-12)",
    "Where did I live in January 2024?": "Berlin (from 2019-01-01 until 2024-02-12)",
    "What did you have on record on 20 February 2024 for where I live?": "Porto (since 2024-02-12)",
    "Which cities have I lived in, in order?": (
        "Berlin (from 2019-01-01 until 2024-02-12), then Lisbon (since 2024-02-12)"
    ),
    "Who was my employer in April 2024?": "Feedzai (from 2024-03-01 until 2024-05-03)",
    "Where does Ana live?": "Madrid (since 2024-04-01)",
}


def _source_files() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout.decode()
        return [f for f in listed.split("\0") if f and (REPO / f).is_file()]
    except (OSError, subprocess.SubprocessError):
        skip = {".git", ".venv", "__pycache__", "build", "dist", ".pytest_cache", "artifacts"}
        return [
            str(p.relative_to(REPO))
            for p in REPO.rglob("*")
            if p.is_file() and not (set(p.relative_to(REPO).parts) & skip)
        ]


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A clean copy of the repository, as a clone would be."""
    root = tmp_path_factory.mktemp("clone") / "graphmem"
    for name in _source_files():
        if name.startswith(("tests/", "bench/", "scripts/", "artifacts/")):
            continue  # not needed to install and run
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    assert (root / "pyproject.toml").exists()
    assert (root / "graphmem" / "data" / "demo_conversation.jsonl").exists()
    return root


def _fresh_venv(where: Path) -> Path:
    # no pip of its own: pip and setuptools come with the dependencies (see the .pth below)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=180
    )
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    Path(purelib, "_graphmem_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python


def _env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GRAPHMEM_", "PYTHON", "VIRTUAL_ENV"))
    }
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        COLUMNS="200",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INDEX="1",
    )
    return env


@pytest.mark.parametrize("mode", ["editable", "regular"])
def test_demo_in_a_fresh_venv(mode, clone, tmp_path):
    python = _fresh_venv(tmp_path / "venv")
    install = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
    install += ["-e", str(clone)] if mode == "editable" else [str(clone)]
    done = subprocess.run(install, capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr

    graphmem = tmp_path / "venv" / "bin" / "graphmem"
    assert graphmem.exists()
    where = subprocess.run(
        [str(python), "-c", "import graphmem; print(graphmem.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(),
    )
    home = clone if mode == "editable" else tmp_path / "venv"
    assert Path(where.stdout.strip()).is_relative_to(home), where.stdout + where.stderr
    elsewhere = tmp_path / "somewhere-else"
    elsewhere.mkdir()

    run = subprocess.run(
        [str(graphmem), "demo", "--json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=_env(),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    answers = {a["question"]: a for a in result["answers"]}
    for question, expected in EXPECTED.items():
        assert answers[question]["answer"] == expected, question
    # the same question in the API's time modes: as of a past date, as known at a past date
    by_mode = {
        (a["question"], a.get("as_of"), a.get("known_at")): a["answer"] for a in result["answers"]
    }
    assert by_mode[("Where do I live?", "2024-01-15", None)].startswith("Berlin")
    assert by_mode[("Where do I live?", None, "2024-02-20T23:00:00Z")].startswith("Porto")
    timeline = [(e["predicate"], e["object"]) for e in result["timeline"]]
    assert ("lives_in", "Berlin") in timeline and ("lives_in", "Lisbon") in timeline
    assert ("lives_in", "Porto") not in timeline  # corrected: it was never true
    assert ("owns_pet", "Tom") in timeline and ("owns_pet", "Rex") in timeline
    assert not list(elsewhere.iterdir())  # the demo store was temporary

    if mode == "editable":  # and the human-readable output a new user sees
        text = subprocess.run(
            [str(graphmem), "demo", "--no-embed"],
            capture_output=True,
            text=True,
            cwd=elsewhere,
            env=_env(),
            timeout=300,
        )
        assert text.returncode == 0, text.stderr
        for expected in (
            "Lisbon (since 2024-02-12)",
            "Porto (since 2024-02-12)",
            "Sorry, I meant Lisbon, not Porto.",
            "Timeline of Sam",
        ):
            assert expected in text.stdout
