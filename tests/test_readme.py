"""The README's Python examples run as written and print what their comments say.

Each ```python block runs in a fresh namespace in an empty directory. A comment
``# -> text`` (at the end of a line or on a line of its own) is output the block must
print, as a whole line, in that order. The first block is the quickstart; it uses the
real embedding model.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks() -> list[str]:
    return _BLOCK.findall(README.read_text(encoding="utf-8"))


def _expected(code: str) -> list[str]:
    return [line.split("# -> ", 1)[1].strip() for line in code.splitlines() if "# -> " in line]


def _run(code: str, tmp_path: Path, monkeypatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})  # noqa: S102
    return [line.strip() for line in out.getvalue().splitlines()]


def _assert_in_order(expected: list[str], printed: list[str]) -> None:
    remaining = iter(printed)
    for line in expected:
        assert any(p == line for p in remaining), f"expected {line!r} in output:\n{printed}"


def test_readme_has_the_two_commands_first():
    text = README.read_text(encoding="utf-8")
    first_shell = text.split("```bash\n", 1)[1].split("```", 1)[0]
    assert "pip install -e . && .venv/bin/graphmem demo" in first_shell
    assert "scripts/test.sh" in first_shell
    assert text.index("```bash") < text.index("```python")


def test_quickstart_runs_as_written(tmp_path, monkeypatch):
    code = python_blocks()[0]
    expected = _expected(code)
    assert len(expected) >= 5
    printed = _run(code, tmp_path, monkeypatch)
    _assert_in_order(expected, printed)
    assert any(line == "<memory>" for line in printed)  # the prompt-ready context block


@pytest.mark.parametrize("index", range(1, len(python_blocks())))
def test_other_examples_run(index, tmp_path, monkeypatch):
    code = python_blocks()[index]
    _assert_in_order(_expected(code), _run(code, tmp_path, monkeypatch))
