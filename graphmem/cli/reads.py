"""The read verbs: ask, search, facts, timeline, history, changes, stats, predicates,
entities. Each is a thin call of the ``Memory`` method of the same name."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from graphmem.cli.context import EXIT_ERROR, EXIT_OK, Ctx, UsageError
from graphmem.cli.render import (
    answer_json,
    fact_json,
    facts_table,
    hit_json,
    make_table,
    predicate_json,
    short_time,
    shown_text,
    status_text,
    timeline_table,
)
from graphmem.time.instant import format_instant

if TYPE_CHECKING:
    from graphmem.memory import Memory

if TYPE_CHECKING:
    from graphmem.memory import Memory


def speaker_of(args: argparse.Namespace) -> str | None:
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
        shown_text(f"graphmem: scope {ctx.scope!r} holds nothing; scopes here: {here}"),
        soft_wrap=True,
    )
    return EXIT_ERROR if named else EXIT_OK


def cmd_ask(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    answer = memory.ask(
        args.question, speaker=speaker_of(args), reference=as_of, known_at=known_at, scope=ctx.scope
    )
    if ctx.json:
        ctx.emit(answer_json(answer))
    else:
        style = "bold green" if answer.known else "bold yellow"
        ctx.out.print(f"[{style}]{shown_text(answer.answer)}[/]")
        ctx.out.print(f"[dim]mode: {shown_text(answer.mode)}[/]")
        if answer.supporting:
            rows = [(f, None) for f in answer.supporting]
            ctx.out.print(facts_table("supporting facts", rows, width=ctx.out.width))
    return EXIT_OK if answer.known else _unknown_scope(ctx, memory, named=True)


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
                "hits": [hit_json(h) for h in result.hits],
            }
        )
        return EXIT_OK if result.hits else _unknown_scope(ctx, memory, named=True)
    title = f"search: {args.query!r} ({result.mode}"
    title += f", window {result.window_text!r})" if result.window_text else ")"
    table = make_table(title, "#", "kind", "score", "text", "when", "status")
    for i, hit in enumerate(result.hits, 1):
        if hit.fact is not None:
            when = hit.fact.describe_validity()
        else:
            when = f"said {short_time(hit.episode.timestamp)} by {hit.episode.speaker}"  # type: ignore[union-attr]
        table.add_row(str(i), hit.kind, f"{hit.score:.3f}", hit.text, when, status_text(hit.status))
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
        ctx.emit([fact_json(r) for r in rows])
        return EXIT_OK if rows else _unknown_scope(ctx, memory, named=named)
    title = "facts" + (f" of {args.subject}" if args.subject else "")
    title += f", true at {short_time(as_of)}" if as_of else ", true now"
    title += f", as known at {short_time(known_at)}" if known_at else ""
    ctx.out.print(
        facts_table(title, [(r, None) for r in rows], width=ctx.out.width)
        if rows
        else f"[yellow]no facts[/] ({shown_text(title)})"
    )
    return EXIT_OK if rows else _unknown_scope(ctx, memory, named=named)


def cmd_timeline(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    since = ctx.when(getattr(args, "since", None), "--since")
    if getattr(args, "bitemporal", False) and args.predicate is None:
        raise UsageError(
            "graphmem timeline: error: --bitemporal draws one key: give the predicate too "
            "(graphmem timeline SUBJECT PREDICATE --bitemporal)"
        )
    memory = ctx.memory(must_exist=True)
    if args.predicate is not None:
        memory.registry.get(args.predicate)
    if getattr(args, "bitemporal", False) and not args.output:
        ctx.err.print("every row of the key with its four times; --output FILE draws them "
                      "(valid time across, recorded time up)", soft_wrap=True)  # fmt: skip
        return cmd_history(ctx, args)
    if args.output:
        from graphmem.timeline_plot import plot_timeline

        if ctx.scope not in memory.scopes():  # no picture of nothing: name the scopes there are
            return _unknown_scope(ctx, memory, named=True)

        if args.bitemporal:
            from graphmem.bitemporal_plot import plot_bitemporal

            path = plot_bitemporal(memory, args.subject, args.predicate, args.output,
                                   scope=ctx.scope)  # fmt: skip
        else:
            path = plot_timeline(
                memory,
                args.subject,
                args.output,
                predicate=args.predicate,
                scope=ctx.scope,
                as_of=as_of,
                known_at=known_at,
                since=since,
                history=args.history,
            )
        if ctx.json:
            ctx.emit({"output": str(path)})
        else:
            ctx.out.print(f"wrote {path}")
        return EXIT_OK
    entries = memory.timeline(
        args.subject, args.predicate, as_of=as_of, known_at=known_at, scope=ctx.scope
    )
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
    title += f", as known at {short_time(known_at)}" if known_at else ""
    table = timeline_table(title, entries)
    ctx.out.print(table if entries else f"[yellow]nothing known[/] ({shown_text(title)})")
    return EXIT_OK if entries else _unknown_scope(ctx, memory, named=True)


def cmd_history(ctx: Ctx, args: argparse.Namespace) -> int:
    as_of = ctx.when(args.as_of, "--as-of")
    known_at = ctx.when(args.known_at, "--known-at")
    memory = ctx.memory(must_exist=True)
    rows = memory.history(
        args.subject, args.predicate, as_of=as_of, known_at=known_at, scope=ctx.scope
    )
    if ctx.json:
        ctx.emit([fact_json(r, s) for r, s in rows])
        return EXIT_OK if rows else _unknown_scope(ctx, memory, named=True)
    title = f"history of {args.subject}" + (f" {args.predicate}" if args.predicate else "")
    ctx.out.print(
        facts_table(title, rows, width=ctx.out.width)
        if rows
        else f"[yellow]nothing recorded[/] ({shown_text(title)})"
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
                    "fact": fact_json(c.fact),
                }
                for c in changes
            ]
        )
        return EXIT_OK if changes else _unknown_scope(ctx, memory, named=False)
    table = make_table(f"changes ({args.axis} time)", "at", "change", "fact", "valid")
    for c in changes:
        kind = c.kind + (f" ({c.reason})" if c.reason else "")
        table.add_row(short_time(c.at), kind, c.fact.text, c.fact.describe_validity())
    ctx.out.print(table if changes else "[yellow]no changes[/]")
    return EXIT_OK if changes else _unknown_scope(ctx, memory, named=False)


def cmd_stats(ctx: Ctx, args: argparse.Namespace) -> int:
    memory = ctx.memory(must_exist=True)
    # --scope (or GRAPHMEM_SCOPE) given: that scope alone, no other scope's name or counts
    explicit = getattr(args, "scope", None) or os.environ.get("GRAPHMEM_SCOPE")
    stats = dict(memory.stats(scope=explicit or None))
    scopes = memory.scopes()
    if explicit:
        scopes = [s for s in scopes if s == explicit]
    if ctx.json:
        ctx.emit({"store": ctx.store, "scopes": scopes, **stats})
        return EXIT_OK
    title = f"store {ctx.store}" + (f", scope {explicit}" if explicit else "")
    table = make_table(title, "what", "count")
    for key, value in stats.items():
        table.add_row(key, str(value))
    table.add_row("scopes", ", ".join(scopes) or "-")
    ctx.out.print(table)
    return EXIT_OK


def cmd_predicates(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.store import NEO4J_SCHEMES

    if not ctx.store.startswith(NEO4J_SCHEMES) and not os.path.exists(ctx.store):
        from graphmem.predicates import PredicateRegistry

        predicates = list(PredicateRegistry.with_builtins())  # no store yet: none declared
    else:
        predicates = ctx.memory().predicates()
    if ctx.json:
        ctx.emit([predicate_json(p) for p in predicates])
        return EXIT_OK
    table = make_table("predicates", "name", "values", "object", "phrase")
    for p in predicates:
        table.add_row(p.name, p.cardinality, p.object_kind, p.phrase)
    ctx.out.print(table)
    ctx.out.print("[dim]declare another: graphmem declare NAME --functional|--set [--literal][/]")
    return EXIT_OK


def cmd_entities(ctx: Ctx, args: argparse.Namespace) -> int:
    memory = ctx.memory(must_exist=True)
    entities = sorted(memory.entities(scope=ctx.scope), key=lambda e: e.name)
    if ctx.json:
        ctx.emit([e.model_dump(mode="json") for e in entities])
    else:
        table = make_table(f"entities (scope {ctx.scope})", "name", "type", "aliases", "id")
        for e in entities:
            table.add_row(e.name, e.type, ", ".join(e.aliases), e.id)
        ctx.out.print(table)
    return EXIT_OK if entities else _unknown_scope(ctx, memory, named=False)


def cmd_browse(ctx: Ctx, args: argparse.Namespace) -> int:
    """The Neo4j Browser address for this store and the Cypher to paste for the scope."""
    from graphmem.browse import browser_url, entity_history, graph_now, graph_on

    url = browser_url(ctx.store)
    queries = {"now": graph_now(ctx.scope)}
    if args.as_of:
        on, known_at = ctx.when(args.as_of, "--as-of"), ctx.when(args.known_at, "--known-at")
        queries["on " + args.as_of] = graph_on(ctx.scope, on, known_at=known_at)
    for name in args.entity or ():
        queries[f"history of {name}"] = entity_history(ctx.scope, name)
    if ctx.json:
        ctx.emit({"url": url, "scope": ctx.scope, "queries": queries})
        return EXIT_OK
    if url is None:
        ctx.out.print(
            f"{ctx.store} is an embedded store: Neo4j Browser shows a Neo4j one. Copy it there "
            "with 'graphmem push bolt://127.0.0.1:7687' (scripts/neo4j/start.sh starts a "
            "local Neo4j), then run 'graphmem --store bolt://127.0.0.1:7687 browse'."
        )
    else:
        ctx.out.print(f"Neo4j Browser: {url}", markup=False, highlight=False, soft_wrap=True)
        ctx.out.print("log in as neo4j with the server's password (cat .neo4j/password)")
    for title, query in queries.items():
        ctx.out.print(
            f"\n// the graph {title}" if not title.startswith("history") else f"\n// {title}"
        )
        ctx.out.print(query, markup=False, highlight=False, soft_wrap=True)
    if url is not None and args.open:
        import webbrowser

        webbrowser.open(url)
    return EXIT_OK
