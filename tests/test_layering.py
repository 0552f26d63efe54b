"""The package's layers, read from the modules' own import statements (``ast``, nothing is
imported): time and the model are the bottom and know nothing above them; the loaders
only parse, on top of the model and time.

Every import counts, also those inside functions and under ``TYPE_CHECKING``: a module
that needs something of a module above it takes a ``Protocol`` of what it reads
(``answer.Memory``, ``ingest.Memory``), so the import graph has no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "graphmem"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """The graphmem modules ``path`` imports (relative imports resolved)."""
    name = _module(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                found.add(target)
                if not node.module:  # from . import x
                    found.update(f"{target}.{alias.name}" for alias in node.names)
            elif node.module:
                found.add(node.module)
    return {m for m in found if m == "graphmem" or m.startswith("graphmem.")}


IMPORTS = {_module(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _offenders(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, targets in IMPORTS.items()
        if _under(module, layer)
        for target in targets
        if any(_under(target, f) for f in forbidden)
    )


ABOVE_THE_MODEL = (
    "graphmem.store",
    "graphmem.retrieval",
    "graphmem.extraction",
    "graphmem.loaders",
    "graphmem.cli",
    "graphmem.memory",
)


def test_the_walk_sees_the_package() -> None:
    assert "graphmem.time.instant" in IMPORTS
    assert "graphmem.loaders.registry" in IMPORTS
    assert "graphmem.time.instant" in IMPORTS["graphmem.loaders.times"]


@pytest.mark.parametrize("layer", ["graphmem.time", "graphmem.model"])
def test_time_and_model_import_nothing_above_them(layer: str) -> None:
    assert _offenders(layer, ABOVE_THE_MODEL) == []


def _outside(layer: str, allowed: tuple[str, ...]) -> list[str]:
    """Imports of ``layer``'s modules from anywhere but ``allowed``."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in IMPORTS.items()
        if _under(module, layer)
        for target in targets
        if not any(_under(target, a) for a in allowed)
    )


def test_time_imports_only_itself_and_errors() -> None:
    assert _outside("graphmem.time", ("graphmem.time", "graphmem.errors")) == []


def test_loaders_do_not_import_the_cli() -> None:
    assert _offenders("graphmem.loaders", ("graphmem.cli",)) == []


def test_loaders_only_parse_on_top_of_model_and_time() -> None:
    """No store, retrieval, extraction or Memory in a loader: they yield records only."""
    allowed = ("graphmem.loaders", "graphmem.model", "graphmem.time", "graphmem.errors")
    assert _outside("graphmem.loaders", allowed) == []


def _module_graph() -> nx.DiGraph:
    """Module -> module it imports (a name imported from a module counts as the module;
    a package's own ``__init__`` seen from inside it does not)."""
    graph = nx.DiGraph()
    for module, targets in IMPORTS.items():
        graph.add_node(module)
        for target in targets:
            while target not in IMPORTS and "." in target:
                target = target.rpartition(".")[0]
            if target in IMPORTS and target != module and not _under(module, target):
                graph.add_edge(module, target)
    return graph


def test_the_import_graph_has_no_cycle() -> None:
    assert list(nx.simple_cycles(_module_graph())) == []


def test_the_facade_is_not_imported_below_it() -> None:
    below = ("graphmem.answer", "graphmem.ingest", "graphmem.retrieval", "graphmem.store",
             "graphmem.extraction", "graphmem.history", "graphmem.staleness")  # fmt: skip
    assert [m for m in below for t in IMPORTS if _under(t, m)
            if "graphmem.memory" in IMPORTS[t]] == []  # fmt: skip


def test_the_backends_own_their_indexes_and_know_nothing_above_the_store() -> None:
    above = ("graphmem.retrieval", "graphmem.extraction", "graphmem.memory", "graphmem.answer",
             "graphmem.ingest", "graphmem.cli", "graphmem.service")  # fmt: skip
    assert _offenders("graphmem.store", above) == []


def test_retrieval_reads_the_store_through_its_protocol_only() -> None:
    # index_text and passage_index: what every backend indexes a turn by (its words, its
    # passages), which the retriever must read the same way.
    allowed = ("graphmem.store.protocol", "graphmem.store.words", "graphmem.store.index_text",
               "graphmem.store.passage_index")  # fmt: skip
    assert [
        f"{m} imports {t}"
        for m, targets in IMPORTS.items()
        if _under(m, "graphmem.retrieval")
        for t in targets
        if _under(t, "graphmem.store") and not any(_under(t, a) for a in allowed)
    ] == []
