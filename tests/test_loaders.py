"""Log loaders: parsing every format into records, detection, errors, gzip, streaming."""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import LoadError
from graphmem.loaders import (
    FORMATS,
    Record,
    RecordError,
    detect,
    get_loader,
    iter_records,
    json_stream,
)
from graphmem.loaders.chatgpt import active_branch
from graphmem.loaders.times import parse_time
from graphmem.loaders.whatsapp import WhatsAppLoader
from graphmem.model import Episode
from graphmem.time.instant import NEG_INF, POS_INF

DATA = Path(__file__).parent / "data" / "logs"
BROKEN = DATA / "broken"
# shared/ lies beside the repository (in development and in CI).
LONGMEMEVAL = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "data"
    / "longmemeval-dev"
    / "longmemeval_s_dev66.json.gz"
)

SAMPLES = {
    "turns.jsonl": "jsonl",
    "openai_chat.json": "openai",
    "chatgpt_conversations.json": "chatgpt",
    "claude_conversations.json": "claude",
    "longmemeval_sample.json": "longmemeval",
    "locomo_sample.json": "locomo",
    "whatsapp_android.txt": "whatsapp",
    "whatsapp_ios.txt": "whatsapp",
    "transcript.txt": "transcript",
    "facts.csv": "facts-csv",
    "facts.jsonl": "facts-jsonl",
}


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def episodes(path: Path | str, **kwargs) -> list[Episode]:
    return [r.episode for r in iter_records(path, **kwargs)]


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle`` in the file."""
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def gzip_copy(src: Path, dest: Path) -> Path:
    with open(src, "rb") as fin, gzip.open(dest, "wb") as fout:
        shutil.copyfileobj(fin, fout)
    return dest


# --------------------------------------------------------------------------- detection


@pytest.mark.parametrize(("name", "fmt"), sorted(SAMPLES.items()))
def test_detects_every_sample(name: str, fmt: str) -> None:
    assert detect(DATA / name).name == fmt


@pytest.mark.parametrize(("name", "fmt"), sorted(SAMPLES.items()))
def test_detects_gzipped_samples_and_reads_them_the_same(
    name: str, fmt: str, tmp_path: Path
) -> None:
    gz = gzip_copy(DATA / name, tmp_path / (name + ".gz"))
    assert detect(gz).name == fmt
    plain = [(r.line, r.episode, r.fact) for r in iter_records(DATA / name)]
    zipped = [(r.line, r.episode, r.fact) for r in iter_records(gz)]
    strip = [
        (line, ep.model_copy(update={"source": None}) if ep else None, fact)
        for line, ep, fact in plain
    ]
    strip_gz = [
        (line, ep.model_copy(update={"source": None}) if ep else None, fact)
        for line, ep, fact in zipped
    ]
    assert plain and len(plain) == len(zipped)
    assert [line for line, _, _ in plain] == [line for line, _, _ in zipped]
    if fmt.startswith("facts"):
        assert [f.model_dump(exclude={"provenance"}) for _, _, f in plain] == [
            f.model_dump(exclude={"provenance"}) for _, _, f in zipped
        ]
    else:
        # the default session is the file stem, which ignores ".gz"
        assert [e.model_dump(exclude={"source", "id"}) for _, e, _ in strip] == [
            e.model_dump(exclude={"source", "id"}) for _, e, _ in strip_gz
        ]


def test_gzip_is_recognised_by_content_not_name(tmp_path: Path) -> None:
    odd = gzip_copy(DATA / "transcript.txt", tmp_path / "transcript.txt")
    assert detect(odd).name == "transcript"
    assert len(episodes(odd)) == 5


def test_unknown_format_lists_the_formats(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("just some prose\nwith no timestamps\n")
    with pytest.raises(LoadError) as info:
        detect(path)
    message = str(info.value)
    assert str(path) in message
    for fmt in FORMATS:
        assert fmt in message


def test_get_loader_names_and_unknown() -> None:
    for fmt in FORMATS:
        assert get_loader(fmt).name == fmt
    assert get_loader("facts_csv").name == "facts-csv"
    with pytest.raises(LoadError, match="known formats"):
        get_loader("msn-messenger")


def test_missing_file_raises_at_call_time(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="no such file"):
        iter_records(tmp_path / "absent.jsonl")


def test_explicit_format_overrides_detection() -> None:
    # a LongMemEval file is also a list of role/content messages to nobody's surprise,
    # but asking for "openai" on it must not pretend: entries have no role
    with pytest.raises(LoadError, match="no role"):
        list(iter_records(DATA / "longmemeval_sample.json", format="openai"))


def test_record_holds_exactly_one_thing() -> None:
    with pytest.raises(ValueError):
        Record(path="x", line=1)


# --------------------------------------------------------------------------- formats


def test_jsonl_turns_aliases_sessions_and_order() -> None:
    eps = episodes(DATA / "turns.jsonl")
    assert [e.text for e in eps] == [
        "I moved to Berlin last month.",
        "That sounds exciting!",
        "I started working at Acme today.",
        "Congrats from Bob!",
        "Thanks Bob.",
    ]  # the system line is skipped, the blank line too
    assert [e.speaker for e in eps] == ["alice", "assistant", "alice", "bob", "alice"]
    assert [e.role for e in eps] == ["user", "assistant", None, None, None]
    assert [e.session for e in eps] == ["s1", "s1", "s2", "s2", "s2"]
    assert [e.scope for e in eps] == ["default"] * 4 + ["team"]
    assert [e.turn for e in eps] == [0, 1, 0, 1, 0]
    assert eps[2].timestamp == utc(2024, 3, 2, 9, 30)  # naive: UTC by default
    assert eps[3].timestamp == utc(2024, 3, 2, 9, 33, 20)  # epoch seconds
    assert eps[4].timestamp == utc(2024, 3, 2, 9, 35)  # epoch milliseconds
    assert all(e.timestamp.tzinfo is UTC for e in eps)
    assert [r.line for r in iter_records(DATA / "turns.jsonl")] == [1, 2, 5, 6, 7]


def test_jsonl_naive_times_use_the_given_zone() -> None:
    eps = episodes(DATA / "turns.jsonl", tz="Europe/Berlin", scope="alice")
    assert eps[2].timestamp == utc(2024, 3, 2, 8, 30)  # 09:30 CET
    assert eps[0].timestamp == utc(2024, 3, 1, 10)  # explicit Z unchanged
    assert eps[0].scope == "alice" and eps[4].scope == "team"


def test_jsonl_default_session_is_the_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "chat-log.jsonl"
    path.write_text('{"speaker": "a", "text": "hi", "timestamp": "2024-01-01T00:00:00Z"}\n')
    assert episodes(path)[0].session == "chat-log"


def test_openai_object_with_messages() -> None:
    path = DATA / "openai_chat.json"
    records = list(iter_records(path))
    eps = [r.episode for r in records]
    assert [e.text for e in eps] == [
        "I adopted a dog named Rex.",
        "Rex is a great name!",
        "He is two years old.",
    ]  # system, tool-call-only and tool messages skipped
    assert [e.speaker for e in eps] == ["user", "assistant", "dana"]
    assert [e.role for e in eps] == ["user", "assistant", "user"]
    assert {e.session for e in eps} == {"chat-42"}
    assert [e.turn for e in eps] == [0, 1, 2]
    # first message takes the conversation's time; the third its own epoch time
    assert [e.timestamp for e in eps] == [
        utc(2024, 5, 1, 12),
        utc(2024, 5, 1, 12, 0, 7),
        utc(2024, 5, 1, 12, 0, 30),
    ]
    assert records[0].line == line_of(path, '"role": "user"') - 1
    assert records[2].line == line_of(path, '"name": "dana"') - 2


def test_openai_list_of_messages_and_of_conversations(tmp_path: Path) -> None:
    path = tmp_path / "msgs.json"
    path.write_text(
        json.dumps(
            [
                {"role": "user", "content": "one", "timestamp": "2024-01-01T10:00:00"},
                {"from": "gpt", "value": "two"},
                {"role": "human", "content": "three", "created_at": "2024-01-01T10:05:00Z"},
            ],
            indent=1,
        )
    )
    eps = episodes(path)
    assert [(e.speaker, e.text) for e in eps] == [
        ("user", "one"),
        ("assistant", "two"),
        ("user", "three"),
    ]
    assert eps[1].timestamp == utc(2024, 1, 1, 10)  # inherited from the previous message
    assert [r.line for r in iter_records(path)] == [2, 7, 11]
    convs = tmp_path / "convs.json"
    convs.write_text(
        json.dumps(
            [
                {"messages": [{"role": "user", "content": "a"}], "timestamp": 1700000000},
                {"id": "x", "messages": [{"role": "user", "content": "b", "time": 1700000100}]},
            ]
        )
    )
    assert [e.session for e in episodes(convs)] == ["convs#0", "x"]


def test_chatgpt_active_branch_only() -> None:
    eps = episodes(DATA / "chatgpt_conversations.json")
    first = [e for e in eps if e.session.endswith("001")]
    assert [e.text for e in first] == [
        "I moved to Berlin last month.",
        "Congratulations on the move!",
        "I work at Globex now.",  # the edited branch "I work at Acme." is not current
        "Noted: you work at Globex.",
    ]  # hidden system message, code call and tool output skipped
    assert [e.speaker for e in first] == ["user", "assistant", "user", "assistant"]
    assert [e.turn for e in first] == [0, 1, 2, 3]
    assert first[0].timestamp == utc(2024, 3, 1, 10)
    assert first[1].timestamp == utc(2024, 3, 1, 10) + timedelta(seconds=5.5)
    assert first[3].timestamp == first[2].timestamp  # null create_time: previous message's
    second = [e for e in eps if e.session.endswith("002")]
    assert [e.text for e in second][0] == "What is a good name for this cat?"  # image part dropped
    assert len(eps) == 6
    lines = [r.line for r in iter_records(DATA / "chatgpt_conversations.json")]
    path = DATA / "chatgpt_conversations.json"
    assert lines == [2] * 4 + [line_of(path, '"title": "Cat names"') - 1] * 2


def test_chatgpt_branch_without_current_node_follows_last_children() -> None:
    mapping = {
        "r": {"id": "r", "parent": None, "children": ["a"], "message": None},
        "a": {"id": "a", "parent": "r", "children": ["b1", "b2"], "message": None},
        "b1": {"id": "b1", "parent": "a", "children": [], "message": None},
        "b2": {"id": "b2", "parent": "a", "children": [], "message": None},
    }
    assert [n["id"] for n in active_branch(mapping, None)] == ["r", "a", "b2"]
    assert [n["id"] for n in active_branch(mapping, "b1")] == ["r", "a", "b1"]
    mapping["r"]["parent"] = "b1"  # a cycle
    with pytest.raises(RecordError, match="cycle"):
        active_branch(mapping, "b1")


def test_claude_conversations() -> None:
    eps = episodes(DATA / "claude_conversations.json")
    assert [e.speaker for e in eps] == ["user", "assistant", "user", "user", "assistant"]
    assert eps[1].text == "Congratulations!\n\nHow is the team?"  # text blocks only
    assert eps[2].text == "Great, thanks."  # the empty message is skipped
    assert eps[2].timestamp == utc(2024, 4, 2, 8, 1)  # +02:00 converted
    assert eps[0].timestamp == utc(2024, 4, 2, 8, 0, 5, 123456)
    assert [e.session for e in eps] == ["5e1d0a1e-0000-4000-8000-00000000000a"] * 3 + [
        "5e1d0a1e-0000-4000-8000-00000000000b"
    ] * 2
    assert [e.turn for e in eps] == [0, 1, 2, 0, 1]


def test_longmemeval_sample_sessions_sorted_by_date_and_scoped_per_question() -> None:
    eps = episodes(DATA / "longmemeval_sample.json")
    assert [e.session for e in eps] == ["answer_sess_a"] * 3 + ["sess_b"] * 2 + ["sess_c"] * 2 + [
        "sess_d"
    ] * 2
    assert [e.scope for e in eps] == ["q_ku_1"] * 7 + ["q_tr_2_abs"] * 2
    assert [e.turn for e in eps[:3]] == [0, 1, 2]
    assert eps[0].timestamp == utc(2023, 5, 18, 10)
    assert eps[3].timestamp == utc(2023, 5, 20, 2, 21)
    assert [e.speaker for e in eps[:3]] == ["user", "assistant", "user"]
    scoped = episodes(DATA / "longmemeval_sample.json", scope="bench", tz="America/New_York")
    assert {e.scope for e in scoped} == {"bench/q_ku_1", "bench/q_tr_2_abs"}
    assert scoped[0].timestamp == utc(2023, 5, 18, 14)  # 10:00 EDT


@pytest.mark.skipif(not LONGMEMEVAL.exists(), reason="LongMemEval dev file not present")
def test_real_longmemeval_dev_file() -> None:
    first_scope = None
    sessions: set[str] = set()
    turns = 0
    previous = None
    for record in iter_records(LONGMEMEVAL):
        ep = record.episode
        if first_scope is None:
            first_scope = ep.scope
            assert record.line == 1
        if ep.scope != first_scope:
            break
        sessions.add(ep.session)
        turns += 1
        assert previous is None or previous <= ep.timestamp
        previous = ep.timestamp
    with gzip.open(LONGMEMEVAL, "rt") as fh:
        entry = json.load(fh)[0]
    assert first_scope == entry["question_id"]
    assert len(sessions) == len(entry["haystack_sessions"]) == 52
    expected = sum(1 for s in entry["haystack_sessions"] for t in s if t["content"].strip())
    assert turns == expected == 523


def test_locomo_sessions_in_numeric_order() -> None:
    eps = episodes(DATA / "locomo_sample.json")
    assert [e.session for e in eps] == ["session_1"] * 3 + ["session_2"] * 2 + ["session_10"]
    assert {e.scope for e in eps} == {"conv-1"}
    assert [e.speaker for e in eps[:3]] == ["Caroline", "Melanie", "Caroline"]
    assert eps[0].timestamp == utc(2023, 5, 8, 13, 56)
    assert eps[5].timestamp == utc(2023, 6, 27, 10, 37)
    assert eps[4].text == "Here it is. [image: a photo of a painting of a sunset]"
    assert [e.turn for e in eps] == [0, 1, 2, 0, 1, 0]
    assert all(e.role is None for e in eps)


def test_whatsapp_android_month_first() -> None:
    records = list(iter_records(DATA / "whatsapp_android.txt"))
    eps = [r.episode for r in records]
    assert [(e.speaker, e.text) for e in eps] == [
        ("Alice", "Hi Bob! I just moved to Lisbon."),
        ("Bob", "Nice!\nHow is it?\nSend pics"),
        ("Alice", "Happy new year 🎉"),
        ("Bob", "See you soon: Friday?"),
    ]  # encryption notice, subject change and media placeholder skipped
    assert [r.line for r in records] == [2, 3, 7, 9]
    assert eps[0].timestamp == utc(2023, 12, 30, 21, 1)
    assert eps[2].timestamp == utc(2023, 12, 31, 0, 16)  # 12:16 AM
    assert eps[3].timestamp == utc(2024, 1, 2, 8, 6)
    assert {e.session for e in eps} == {"whatsapp_android"}


def test_whatsapp_ios_day_first() -> None:
    eps = episodes(DATA / "whatsapp_ios.txt", tz="Europe/Lisbon")
    assert [(e.speaker, e.text) for e in eps] == [
        ("Alice", "Happy new year!"),
        ("Bob", "Same to you\nand many more"),
        ("Alice", "I start at Globex on Monday"),
        ("Bob", "Good luck!"),
    ]
    assert eps[1].timestamp == utc(2024, 1, 1, 9)  # 1 January (Lisbon is UTC in winter)
    assert eps[2].timestamp == utc(2024, 1, 2, 10, 15, 30)


def test_whatsapp_date_order_rules(tmp_path: Path) -> None:
    ambiguous = tmp_path / "a.txt"
    ambiguous.write_text("01/02/24, 10:00 - Alice: hi\n03/04/24, 11:00 - Bob: yo\n")
    assert episodes(ambiguous)[0].timestamp == utc(2024, 1, 2, 10)  # month-first default
    later = tmp_path / "b.txt"
    later.write_text("01/02/24, 10:00 - Alice: hi\n25/02/24, 11:00 - Bob: yo\n")
    assert episodes(later)[0].timestamp == utc(2024, 2, 1, 10)  # decided by a later line
    dots = tmp_path / "c.txt"
    dots.write_text("01.02.24, 10:00 - Alice: hallo\n")
    assert episodes(dots)[0].timestamp == utc(2024, 2, 1, 10)  # dotted: day-first
    forced = WhatsAppLoader(dayfirst=True)
    assert next(forced.records(ambiguous)).episode.timestamp == utc(2024, 2, 1, 10)
    us = tmp_path / "d.txt"
    us.write_text("[12/31/23, 9:41:05\u202fPM] Alice: late\n")
    assert episodes(us)[0].timestamp == utc(2023, 12, 31, 21, 41, 5)


def test_transcript() -> None:
    records = list(iter_records(DATA / "transcript.txt"))
    eps = [r.episode for r in records]
    assert [e.speaker for e in eps] == ["Alice", "Bob", "Alice", "Carol", "Bob"]
    assert eps[1].text == "Welcome!\n  Let me know if you need anything."
    assert [r.line for r in records] == [2, 3, 6, 7, 8]
    assert eps[3].timestamp == utc(2024, 3, 1, 10, 5)  # +01:00 converted
    assert eps[4].timestamp == utc(2024, 3, 1, 10, 7)
    berlin = episodes(DATA / "transcript.txt", tz="Europe/Berlin")
    assert berlin[0].timestamp == utc(2024, 3, 1, 9)  # naive: Berlin wall clock
    assert berlin[2].timestamp == utc(2024, 3, 1, 10, 5)  # Z stays Z


def test_facts_csv() -> None:
    records = list(iter_records(DATA / "facts.csv"))
    facts = [r.fact for r in records]
    assert [r.line for r in records] == [2, 3, 4, 5, 7]  # row 4 spans lines 5-6
    assert (facts[0].subject, facts[0].predicate, facts[0].object) == (
        "Alice",
        "lives_in",
        "Berlin",
    )
    assert facts[0].valid_from == utc(2024, 3, 1) and facts[0].valid_to == POS_INF
    assert facts[0].confidence == 0.9
    assert facts[1].valid_to == utc(2024, 3, 1) and facts[1].confidence == 1.0
    assert facts[2].object == "Acme, Inc." and facts[2].scope == "alice"
    assert facts[3].object == "a cat\nnamed Miso" and facts[3].valid_from == NEG_INF
    assert facts[4].valid_from == NEG_INF and facts[4].valid_to == POS_INF
    assert facts[0].provenance.source == str(DATA / "facts.csv")
    assert facts[0].provenance.extractor == "given"


def test_facts_tsv(tmp_path: Path) -> None:
    path = tmp_path / "facts.tsv"
    path.write_text("subject\tpredicate\tobject\nAlice\thobby\tchess, go\n")
    assert next(iter(iter_records(path))).fact.object == "chess, go"


def test_facts_jsonl() -> None:
    facts = [r.fact for r in iter_records(DATA / "facts.jsonl", scope="me")]
    assert [f.predicate for f in facts] == ["lives_in", "age", "works_at"]
    assert facts[0].scope == "me" and facts[1].scope == "alice"
    assert facts[1].object == "34" and facts[1].confidence == 0.8
    assert facts[1].valid_to == POS_INF
    assert facts[2].valid_to == utc(2023, 12, 31, 16)
    assert (facts[2].subject_type, facts[2].object_type) == ("Person", "Company")


# --------------------------------------------------------------------------- errors


BROKEN_CASES = [
    # file, line of the first error, words in its message, records kept with skip_bad
    ("bad_json_line.jsonl", 3, "invalid JSON", 3),
    ("missing_timestamp.jsonl", 2, "no timestamp", 2),
    ("unknown_speaker.jsonl", 2, "no speaker", 1),
    ("truncated.jsonl", 2, "invalid JSON", 1),
    ("bad_date_whatsapp.txt", 2, "day is out of range", 2),
    ("bad_date_transcript.txt", 2, "2024-02-30", 2),
    ("truncated_chatgpt.json", None, "truncated", 4),
    ("bad_item_claude.json", None, "invalid JSON", 4),
    ("openai_no_time.json", 2, "no timestamp", 0),
    ("locomo_missing_date.json", 2, "no session_2_date_time", 4),
    ("bad_facts.csv", 3, "valid_from must be before valid_to", 2),
    ("bad_facts.jsonl", 2, "object is missing", 1),
]


@pytest.mark.parametrize(("name", "line", "words", "kept"), BROKEN_CASES)
def test_broken_file_error_names_file_and_line(
    name: str, line: int | None, words: str, kept: int
) -> None:
    path = BROKEN / name
    if name == "truncated_chatgpt.json":
        line = line_of(path, '"title": "Cat names"') - 1
    if name == "bad_item_claude.json":
        line = line_of(path, '"name": "Pets"') + 1  # the missing comma
    with pytest.raises(LoadError) as info:
        list(iter_records(path))
    err = info.value
    assert err.path == str(path) and err.line == line
    assert str(err).startswith(f"{path}:{line}: ")
    assert words in str(err)


@pytest.mark.parametrize(("name", "line", "words", "kept"), BROKEN_CASES)
def test_skip_bad_collects_the_report_and_yields_the_rest(
    name: str, line: int | None, words: str, kept: int
) -> None:
    report: list[LoadError] = []
    records = list(iter_records(BROKEN / name, skip_bad=True, report=report))
    assert len(records) == kept
    assert report and words in str(report[0])
    assert all(isinstance(e, LoadError) and e.path == str(BROKEN / name) for e in report)


def test_skip_bad_reports_every_bad_record() -> None:
    report: list[LoadError] = []
    records = list(iter_records(BROKEN / "bad_facts.csv", skip_bad=True, report=report))
    assert [r.fact.subject for r in records] == ["Alice", "Carol"]
    assert [e.line for e in report] == [3, 4, 5, 6]
    assert "confidence" in str(report[1]) and "expected 6 fields" in str(report[2])


def test_claude_bad_item_is_skipped_and_the_next_conversation_kept() -> None:
    report: list[LoadError] = []
    eps = [
        r.episode
        for r in iter_records(BROKEN / "bad_item_claude.json", skip_bad=True, report=report)
    ]
    assert [e.text for e in eps][-1] == "Third conversation."
    assert len(report) == 1


def test_errors_are_raised_lazily_after_the_good_records() -> None:
    it = iter_records(BROKEN / "bad_json_line.jsonl")
    assert next(it).episode.text == "first"
    assert next(it).episode.text == "second"
    with pytest.raises(LoadError):
        next(it)


def test_skip_bad_without_report_just_skips() -> None:
    assert len(list(iter_records(BROKEN / "missing_timestamp.jsonl", skip_bad=True))) == 2


def test_file_level_problems_always_raise(tmp_path: Path) -> None:
    csv_path = tmp_path / "f.csv"
    csv_path.write_text("subject,object\nAlice,Berlin\n")
    with pytest.raises(LoadError, match="predicate"):
        list(iter_records(csv_path, skip_bad=True, report=[]))
    not_json = tmp_path / "x.json"
    not_json.write_text("hello")
    with pytest.raises(LoadError, match="not a JSON document"):
        list(iter_records(not_json, format="chatgpt", skip_bad=True))
    empty = tmp_path / "e.json"
    empty.write_text("  \n")
    with pytest.raises(LoadError, match="empty file"):
        list(iter_records(empty, format="claude"))


def test_truncated_gzip_is_reported(tmp_path: Path) -> None:
    full = gzip_copy(DATA / "whatsapp_android.txt", tmp_path / "w.txt.gz").read_bytes()
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(full[: len(full) - 12])
    report: list[LoadError] = []
    records = list(iter_records(cut, format="whatsapp", skip_bad=True, report=report))
    assert report and "truncated" in str(report[0])
    assert len(records) >= 1
    with pytest.raises(LoadError, match="truncated"):
        list(iter_records(cut, format="whatsapp"))


def test_bad_utf8_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(
        b'{"speaker": "a", "text": "ok", "timestamp": "2024-01-01T00:00:00Z"}\n\xff\xfe\n'
    )
    with pytest.raises(LoadError, match="UTF-8"):
        list(iter_records(path))


def test_trailing_data_after_the_json_list(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('[{"role": "user", "content": "x", "timestamp": 1}]\n\n]oops\n')
    with pytest.raises(LoadError) as info:
        list(iter_records(path, format="openai"))
    assert info.value.line == 3


# --------------------------------------------------------------------------- times


def test_parse_time_rules() -> None:
    assert parse_time("2024-03-01T10:00:00+01:00") == utc(2024, 3, 1, 9)
    assert parse_time("2024-03-01 10:00", "Europe/Berlin") == utc(2024, 3, 1, 9)
    assert parse_time(1709287200) == utc(2024, 3, 1, 10)
    assert parse_time(1709287200500) == utc(2024, 3, 1, 10, 0, 0, 500000)
    assert parse_time("1709287200") == utc(2024, 3, 1, 10)
    assert parse_time("March 1, 2024 10:00 AM") == utc(2024, 3, 1, 10)
    for bad in ("10:00", "Tuesday", "", None, True, "inf", "soon"):
        with pytest.raises(RecordError):
            parse_time(bad)
    assert parse_time("inf", allow_infinite=True) == POS_INF


# --------------------------------------------------------------------------- streaming


def test_streaming_json_items_across_tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "CHUNK_SIZE", 3)
    for name in ("chatgpt_conversations.json", "claude_conversations.json", "locomo_sample.json"):
        monkeypatch.setattr(json_stream, "CHUNK_SIZE", 1 << 20)
        big = [(r.line, r.episode) for r in iter_records(DATA / name)]
        monkeypatch.setattr(json_stream, "CHUNK_SIZE", 3)
        small = [(r.line, r.episode) for r in iter_records(DATA / name)]
        assert big == small


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.text(alphabet=st.sampled_from('ab"\\[]{},:\n\té/ '), max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(alphabet='k"\\]', max_size=3), children, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(
    items=st.lists(_json_values, max_size=6),
    indent=st.sampled_from([None, 0, 1, 2]),
    chunk=st.integers(1, 9),
)
def test_array_splitter_matches_json(items, indent, chunk) -> None:
    text = json.dumps(items, indent=indent)
    chunks = [text[1:][i : i + chunk] for i in range(0, len(text) - 1, chunk)]
    splitter = json_stream._ArraySplitter(chunks, 1)
    parts = list(splitter)
    assert splitter.closed
    assert [json.loads(t) for _, _, t in parts] == items
    if indent is not None and items:
        # pretty-printed: item i starts on the line json.dumps put it on
        lines = [start for _, start, _ in parts]
        expected = []
        line = 1
        for item in items:
            line += 1
            expected.append(line)
            line += json.dumps(item, indent=indent).count("\n")
        assert lines == expected


def test_jsonl_reads_line_by_line(tmp_path: Path) -> None:
    # the reader must not slurp the file: stop after the first record of a big file
    path = tmp_path / "big.jsonl"
    line = '{"speaker": "a", "text": "%s", "timestamp": "2024-01-01T00:00:00Z"}\n'
    with open(path, "w") as fh:
        for i in range(20000):
            fh.write(line % i)
    it = iter_records(path)
    assert next(it).episode.text == "0"
    it.close()
