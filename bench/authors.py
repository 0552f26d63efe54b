"""What the evaluations of authored sets share: where the sets are, who is in which
split, and the command-line options every one of them takes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

AUTHORS = Path(__file__).parent / "data" / "authors"
SPLITS: dict[str, str] = json.loads((AUTHORS / "splits.json").read_text())  # author -> split


def parser(
    doc: str, splits: tuple[str, ...] = ("all", "dev", "heldout")
) -> argparse.ArgumentParser:
    """``--split``, ``--show-errors`` and ``--json``, with the script's first doc line."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--split", default="all", choices=list(splits))
    p.add_argument("--show-errors", action="store_true", help="list every error")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    return p
