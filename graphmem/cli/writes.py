"""The write verbs: load, remember, supersede, retract, correct, erase, declare, alias."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.cli.context import EXIT_ERROR, EXIT_OK, LINE_FORMATS, Ctx, UsageError
from graphmem.cli.render import make_table, predicate_json, shown_text, write_result
from graphmem.errors import GraphmemError

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


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
    table = make_table(
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
            ctx.err.print(f"[yellow]{label}:[/] {shown_text(error)}", markup=True, soft_wrap=True)
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
        if name not in LINE_FORMATS:
            return None
        with open(path, "rb") as handle:
            if handle.read(2) == b"\x1f\x8b":
                return None
            handle.seek(0)
            return sum(1 for line in handle if line.strip())
    except Exception:  # noqa: BLE001 - only an estimate for the progress bar
        return None


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
    return write_result(ctx, "remember", result)


def cmd_supersede(ctx: Ctx, args: argparse.Namespace) -> int:
    since = ctx.when(args.since, "--since")
    result = ctx.memory().supersede(
        args.subject, args.predicate, args.object, since=since, scope=ctx.scope
    )
    return write_result(ctx, "supersede", result)


def cmd_retract(ctx: Ctx, args: argparse.Namespace) -> int:
    at = ctx.when(args.at, "--at")
    result = ctx.memory(must_exist=True).retract(
        args.subject, args.predicate, args.object, at=at, scope=ctx.scope
    )
    return write_result(ctx, "retract", result)


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
    return write_result(ctx, "correct", result)


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
        ctx.out.print(shown_text(
            f"erased {what!r}: {erased.rows} row(s){replanned}, {erased.turns} turn(s), "
            f"{erased.entities} entit{'y' if erased.entities == 1 else 'ies'} deleted"
        ))  # fmt: skip
    return EXIT_OK


def cmd_declare(ctx: Ctx, args: argparse.Namespace) -> int:
    predicate = ctx.memory().declare(
        args.name, functional=args.functional, literal=args.literal, phrase=args.phrase
    )
    if ctx.json:
        ctx.emit(predicate_json(predicate))
    else:
        ctx.out.print(shown_text(
            f"declared {predicate.name}: {predicate.cardinality} {predicate.object_kind}"
            f" ({predicate.render('{subject}', '{object}')})"
        ))  # fmt: skip
    return EXIT_OK


def cmd_alias(ctx: Ctx, args: argparse.Namespace) -> int:
    entity = ctx.memory().alias(args.name, *args.aliases, scope=ctx.scope)
    if ctx.json:
        ctx.emit(entity.model_dump(mode="json"))
        return EXIT_OK
    ctx.out.print(
        shown_text(f"{entity.name}: also {', '.join(entity.aliases) or '(no other names)'}")
    )
    return EXIT_OK
