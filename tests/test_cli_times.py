"""The CLI's time flags mean what the library's keywords mean: one parser
(``graphmem.time.natural.read_time``) and one "now" (the Memory's clock).

The clock is set far from the wall clock, so a CLI that read "2 months ago" against its
own "now" would answer differently from the library.
"""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from graphmem.browse import graph_on
from graphmem.cli import main
from graphmem.memory import Memory
from graphmem.time.instant import to_instant
from graphmem.time.natural import read_time

NOW = to_instant("2024-05-15T14:30:00Z")


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A store where Alice moved from Paris to Berlin on 2024-03-01; the clock at NOW."""
    monkeypatch.setattr(Memory, "clock", staticmethod(lambda: NOW))
    monkeypatch.delenv("GRAPHMEM_STORE", raising=False)
    monkeypatch.delenv("GRAPHMEM_TZ", raising=False)
    path = tmp_path / "store.db"
    with Memory.open(path, embedder=None) as mem:
        mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
        mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01")
    return path


def _json(capsys, *argv: str):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_memory_reads_phrases_and_defaults_by_its_clock():
    def clock() -> datetime:
        return to_instant("2024-02-15T12:00:00Z")

    mem = Memory.open(":memory:", embedder=None, clock=clock)
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01")
    assert mem.now() == clock()
    assert [f.object for f in mem.facts("Alice")] == ["Paris"]  # now is before the move
    assert [f.object for f in mem.facts("Alice", as_of="in 2 months")] == ["Berlin"]
    assert [f.object for f in mem.facts("Alice", as_of="yesterday")] == ["Paris"]


@pytest.mark.parametrize(
    ("phrase", "lived_in"),
    [("3 months ago", "Paris"), ("last year", "Paris"), ("yesterday", "Berlin"),
     ("March 2024", "Berlin")],
)  # fmt: skip
def test_facts_as_of_a_phrase_is_the_librarys_answer(store, capsys, phrase, lived_in):
    shown = _json(capsys, "--store", str(store), "--no-embed", "facts", "Alice", "--as-of", phrase)
    with Memory.open(store, embedder=None) as mem:
        expected = [f.object for f in mem.facts("Alice", as_of=phrase)]
    assert [f["object"] for f in shown] == expected
    assert expected == [lived_in]  # by the clock: against the wall clock all are Berlin


def test_changes_since_a_phrase_is_the_librarys_window(store, capsys):
    shown = _json(capsys, "--store", str(store), "--no-embed", "changes", "--axis", "valid",
                  "--since", "3 months ago")  # fmt: skip
    with Memory.open(store, embedder=None) as mem:
        expected = mem.changes("3 months ago", axis="valid")
    assert len(shown) == len(expected) > 0


def test_browse_reads_its_dates_as_every_other_verb(store, capsys):
    shown = _json(capsys, "--store", str(store), "browse", "--as-of", "last March",
                  "--known-at", "2 weeks ago")  # fmt: skip
    on = read_time("last March", "--as-of", reference=NOW)
    known = read_time("2 weeks ago", "--known-at", reference=NOW)
    assert shown["queries"]["on last March"] == graph_on("default", on, known_at=known)
    assert "datetime('2024-03-01T00:00:00Z')" in shown["queries"]["on last March"]


def test_an_unreadable_flag_is_a_usage_error_naming_it(store, capsys):
    for verb in (["facts", "Alice"], ["browse"]):
        assert main(["--store", str(store), *verb, "--as-of", "the day after never"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"graphmem {verb[0]}: error: --as-of: cannot read"), err
