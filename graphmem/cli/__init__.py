"""The ``graphmem`` command: the Memory facade's verbs from the shell.

    graphmem demo                                   # a sample conversation, answered
    graphmem load chat.jsonl --scope alice          # load a log (progress bar)
    graphmem ask "where do I live now?" --speaker Alice --scope alice
    graphmem facts Alice --as-of 2024-03-01 --known-at "last Tuesday"
    graphmem timeline Alice --output timeline.png   # a picture of valid time
    graphmem export --format graphml --output graph.graphml
    graphmem serve &                                # keep store and model loaded: the
    graphmem ask "where do I live now?"             # read verbs then answer through it
    graphmem view --scope alice                     # a page: the graph through time

Common options (before or after the verb): ``--store PATH|URI`` (env
``GRAPHMEM_STORE``, default ``./graphmem.db``; a ``neo4j://``/``bolt://`` URI opens
Neo4j, with ``GRAPHMEM_NEO4J_USER``/``GRAPHMEM_NEO4J_PASSWORD``), ``--scope`` (env
``GRAPHMEM_SCOPE``, default ``default``), ``--tz`` (env ``GRAPHMEM_TZ``: the zone of
dates written without an offset, default UTC), ``--no-embed`` (env
``GRAPHMEM_EMBEDDER=none``: no embedding model, keyword and graph search only),
``--no-service`` (open the store here even while ``graphmem serve`` holds it), ``--json``
(machine-readable output) and ``--debug`` (tracebacks).

Times (``--as-of``, ``--known-at``, ``--from``...) are ISO dates or natural phrases
("yesterday", "last March", "3 days ago"), read against the current time.

Exit codes: 0 success, 1 an error graphmem reports (one line on stderr), 2 bad usage
(unknown verb or option, unreadable date), 130 interrupted.

Why argparse and not typer/click: it is in the standard library (nothing more to
install for a tool whose core dependencies are kept small), it already exits with 2
on bad usage, and a shared parent parser gives every verb the same common options.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Sequence

from graphmem.cli.context import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Ctx, UsageError
from graphmem.cli.parser import build_parser
from graphmem.cli.render import one_line
from graphmem.errors import GraphmemError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    ctx: Ctx | None = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "command", None) is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        ctx = Ctx(args)
        return args.handler(ctx, args)
    except UsageError as exc:
        sys.stderr.write(f"{one_line(exc)}\n")
        return EXIT_USAGE
    except GraphmemError as exc:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"graphmem: error: {one_line(exc)}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("graphmem: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. piped into head
        with contextlib.suppress(Exception):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return EXIT_ERROR
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except Exception as exc:  # noqa: BLE001 - one clear line; --debug for the traceback
        if debug:
            traceback.print_exc()
        hint = "" if debug else " (run again with --debug for the traceback)"
        sys.stderr.write(f"graphmem: internal error: {type(exc).__name__}: {one_line(exc)}{hint}\n")
        return EXIT_ERROR
    finally:
        if ctx is not None:
            with contextlib.suppress(Exception):
                ctx.close()
