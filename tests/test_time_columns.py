"""Nothing outside ``graphmem/time`` compares time columns or the infinity sentinels: the
time module compiles every such test (``TemporalBounds``, ``Changes``,
``Interval.well_formed``, ``is_open_start``/``is_open_end``).

Read from the source (``ast``, nothing is imported): Python comparisons whose operand is
a time column (``row.valid_from``...), a sentinel (``POS_INF``, ``NEG_INF``) or a year
read off an instant (``t.year > 1``), and Cypher text (any string but a docstring)
ordering a time property or testing it against ``$pos_inf`` / ``$neg_inf``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "graphmem"
COLUMNS = {"valid_from", "valid_to", "recorded_at", "expired_at"}
SENTINELS = {"POS_INF", "NEG_INF"}
CYPHER = re.compile(
    r"\.(?:valid_from|valid_to|recorded_at|expired_at)\s*(?:<|>|=\s*\$(?:pos|neg)_inf)"
    r"|(?:<|>)=?\s*\w+\.(?:valid_from|valid_to|recorded_at|expired_at)\b"
)


def _is_time(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in COLUMNS or node.attr == "year"
    return isinstance(node, ast.Name) and node.id in SENTINELS


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    where = path.relative_to(PACKAGE.parent)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            _is_time(x) for x in (node.left, *node.comparators)
        ):
            out.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            out += [f"{where}:{node.lineno}: {m.group()!r}" for m in CYPHER.finditer(node.value)]
    return out


def test_the_scan_sees_a_comparison():
    sample = PACKAGE / "time" / "bounds.py"
    assert _offences(sample)  # the time module itself does compare: it is where that lives


def test_nothing_outside_the_time_module_compares_time_columns():
    offences = [
        o
        for path in sorted(PACKAGE.rglob("*.py"))
        if "time" not in path.relative_to(PACKAGE).parts[:1]
        for o in _offences(path)
    ]
    assert offences == []
