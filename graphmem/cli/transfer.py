"""Moving a store in and out: export, import, push, and the formats it reads."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from graphmem.cli.context import EXIT_OK, Ctx, UsageError
from graphmem.cli.render import plain_text, shown_text
from graphmem.errors import InvalidStoreError

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


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
            shown_text(
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
            f"{counts['episodes']} episode(s), {counts['predicates']} declared predicate(s) "
            f"from {args.path}"
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
    data = plain_text(report)
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


def cmd_formats(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.loaders import FORMATS
    from graphmem.loaders.guide import GUIDE

    guides = [GUIDE[name] for name in FORMATS]
    if ctx.json:
        ctx.emit([asdict(g) for g in guides])
        return EXIT_OK
    for g in guides:
        ctx.out.print(f"[bold]{g.name}[/] [dim](e.g. {shown_text(g.file)}; {shown_text(g.keys)})[/]",
                      soft_wrap=True)  # fmt: skip
        ctx.out.print(shown_text(g.example.rstrip("\n")), soft_wrap=True)
        ctx.out.print()
    ctx.out.print("[dim]load one: graphmem load FILE --scope NAME (the format is detected)[/]")
    return EXIT_OK
