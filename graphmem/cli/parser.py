"""The command line's grammar: every verb, its options and its help."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from graphmem.cli.context import UsageError
from graphmem.cli.demo import cmd_demo
from graphmem.cli.reads import (
    cmd_ask,
    cmd_browse,
    cmd_changes,
    cmd_entities,
    cmd_facts,
    cmd_history,
    cmd_predicates,
    cmd_search,
    cmd_stats,
    cmd_timeline,
)
from graphmem.cli.service import cmd_mcp, cmd_serve, cmd_view
from graphmem.cli.transfer import cmd_export, cmd_formats, cmd_import, cmd_push
from graphmem.cli.writes import (
    cmd_alias,
    cmd_correct,
    cmd_declare,
    cmd_erase,
    cmd_load,
    cmd_remember,
    cmd_retract,
    cmd_supersede,
)

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: error: {message} (see '{self.prog} --help')")

    def format_help(self) -> str:
        # An epilog may be a function: built only when help is shown (load's lists every
        # format, and importing the loaders for it would slow every command's start).
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()


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
    group.add_argument(
        "--no-service",
        action="store_true",
        help="open the store here even if 'graphmem serve' holds it (env GRAPHMEM_NO_SERVICE=1)",
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
    p.formatter_class, p.epilog = argparse.RawDescriptionHelpFormatter, _formats_epilog
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
    p.add_argument(
        "--since",
        metavar="WHEN",
        help="the picture's axis starts here (default: two years ago, plus the current values)",
    )
    p.add_argument(
        "--history",
        action="store_true",
        help="the picture also shows what is no longer believed, grouped below",
    )
    p.add_argument(
        "--bitemporal",
        action="store_true",
        help="one key (give P): valid time across, recorded time up, each row a rectangle",
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
    p = verb("browse", cmd_browse, "the Neo4j Browser address and the Cypher for this scope")
    p.add_argument("--as-of", help="also the graph as it was on this date")
    p.add_argument("--known-at", help="with --as-of: as the store knew it then")
    p.add_argument("--entity", action="append", metavar="NAME", help="also one entity's history")
    p.add_argument("--open", action="store_true", help="open the Browser in a web browser")
    p = verb("alias", cmd_alias, "declare other names of one person or thing (never across scopes)")
    p.add_argument("name", help="the name to keep, e.g. the owner 'Maya'")
    p.add_argument("aliases", nargs="+", metavar="ALIAS", help="other names, e.g. 'user' 'Maya K'")

    p = verb("demo", cmd_demo, "load a sample conversation and answer time-scoped questions")
    p.add_argument("--keep", action="store_true", help="keep the temporary store afterwards")

    p = verb("serve", cmd_serve, "keep the store and the model loaded; answer over HTTP")
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)"
    )
    p.add_argument("--port", type=int, default=0, help="port (default 0: a free one, see below)")
    p.add_argument(
        "--token",
        help="bearer token clients must send (env GRAPHMEM_TOKEN; default: a random one, "
        "kept in the store's .serve.json file; required for a --host other than loopback)",
    )
    p.epilog = (
        "The address and token go in STORE.serve.json (mode 0600) while it runs; ask, "
        "search, facts, timeline, history, changes, stats, entities and load on the same "
        "store then go through it (--no-service: not). API docs at http://HOST:PORT/docs."
    )

    p = verb("view", cmd_view, "a page that draws the scope's graph through time (in a browser)")
    p.add_argument("--entity", metavar="NAME", help="open with this entity's timeline shown")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (as serve)")
    p.add_argument("--port", type=int, default=0, help="port (default 0: a free one)")
    p.add_argument("--token", help="bearer token (as serve; default: a random one)")
    p.epilog = (
        "Prints the page's address, with the token in its #fragment: on the service of the "
        "store when one runs, else it serves the store here (as serve) until Ctrl-C. "
        "Sliders move valid time ('true as of') and transaction time ('as known at')."
    )

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
