"""The passage options both retrieval benches take: ``--long-turn`` and ``--passage-chars``.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_passage_flags(parser)
>>> parser.parse_args(["--long-turn", "100"]).long_turn
100
"""

from __future__ import annotations

import argparse


def add_passage_flags(parser: argparse.ArgumentParser) -> None:
    """Add the options that set ``graphmem.store.passage_index`` for one run."""
    parser.add_argument("--long-turn", type=int, default=None,
                        help="passage_index.LONG_TURN_CHARS for this run (a turn longer is "
                             "also indexed by its passages)")  # fmt: skip
    parser.add_argument("--passage-chars", type=int, default=None,
                        help="passage_index.PASSAGE_CHARS for this run (window size)")  # fmt: skip


def apply_passage_flags(args: argparse.Namespace) -> None:
    """Set the passage sizes the options name, and say which the run uses."""
    import graphmem.store.passage_index as passage_index

    if args.long_turn is not None:
        passage_index.LONG_TURN_CHARS = args.long_turn
    if args.passage_chars is not None:
        passage_index.PASSAGE_CHARS = args.passage_chars
    print(f"passages: turns over {passage_index.LONG_TURN_CHARS} chars, windows of "
          f"{passage_index.PASSAGE_CHARS}")  # fmt: skip
