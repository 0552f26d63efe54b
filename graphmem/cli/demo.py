"""graphmem demo: a tour on a throwaway store."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.cli.context import DEMO_SCOPE, DEMO_SPEAKER, EXIT_OK, Ctx
from graphmem.cli.render import make_table, styled_text, timeline_table
from graphmem.time.instant import format_instant

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


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
    import tempfile

    folder = tempfile.mkdtemp(prefix="graphmem-demo-")
    try:
        yield os.path.join(folder, "demo.db")
    finally:
        if not keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


def cmd_demo(ctx: Ctx, args: argparse.Namespace) -> int:
    scope = getattr(args, "scope", None) or DEMO_SCOPE
    import importlib.resources  # here: every other verb starts without it

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
    table = make_table("Questions (I = Sam)", "question", "asked", "answer", "how it was read")
    for question, when, answer in answers:
        asked = ", ".join(f"{k.replace('_', ' ')} {v[:10]}" for k, v in when.items()) or "now"
        style = "green" if answer.known else "yellow"
        table.add_row(question, asked, styled_text(answer.answer, style), answer.mode)
    ctx.out.print(table)
    ctx.out.print(
        "What the store believed on 2024-02-20 (before the correction): "
        + ", ".join(f"{f.object} ({f.describe_validity()})" for f in believed)
    )
    ctx.out.print()
    table = timeline_table(f"Timeline of {DEMO_SPEAKER} (valid time, as best known now)", timeline)
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
