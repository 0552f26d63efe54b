"""Reading questions: whose fact, which predicate, which time mode and window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem import Memory
from graphmem.answer import reading_for
from graphmem.question import read_question

ASKED = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)


def _day(moment) -> str | None:
    return None if moment is None or moment.year in (1, 9999) else moment.date().isoformat()


@pytest.mark.parametrize(
    ("question", "subject", "predicate", "mode", "start", "end"),
    [
        ("Who do I answer to at work right now?", "Maya", "manager", "current", None, None),
        ("who's my other half these days", "Maya", "partner", "current", None, None),
        ("where was I living the summer before last?", "Maya", "lives_in", "past", "2024-06-01", "2024-09-01"),
        ("what was my go-to coding language last easter", "Maya", "favourite_language", "past", "2025-04-20", "2025-04-21"),
        ("which phones have I had, oldest first?", "Maya", "phone", "timeline", None, None),
        ("where have I lived since 2021?", "Maya", "lives_in", "timeline", "2021-01-01", None),
        ("where does my brother live now?", "Maya's brother", "lives_in", "current", None, None),
        ("what does Ana do for a living?", "Ana", "job_title", "current", None, None),
        ("this time last yr, who was my mgr?", "Maya", "manager", "past", "2025-03-10", "2025-03-11"),
        ("where was I living Q3 2024?", "Maya", "lives_in", "past", "2024-07-01", "2024-10-01"),
        ("what phone did I have on Thanksgiving 2024?", "Maya", "phone", "past", "2024-11-28", "2024-11-29"),
        ("Atlas deadline, latest?", "Atlas", "deadline", "current", None, None),
        ("where have I lived since June 2025, in order?", "Maya", "lives_in", "timeline", "2025-06-01", None),
        ("when was my last day at Globex?", "Maya", "works_at", "when", None, None),
        ("who is Ana engaged to?", "Ana", "partner", "current", None, None),
        ("which projects was I engaged on in 2025?", "Maya", "works_on", "past", "2025-01-01", "2026-01-01"),
        ("what's my shoe size?", "Maya", None, "none", None, None),
        ("what is my favourite animal?", "Maya", None, "none", None, None),
        ("should I get a Pixel or an iPhone?", "Maya", None, "none", None, None),
    ],
)  # fmt: skip
def test_a_question_is_read_into_subject_predicate_and_time(
    question, subject, predicate, mode, start, end
):
    r = read_question(question, owner="Maya", reference=ASKED)
    assert (r.subject, r.predicate, r.mode) == (subject, predicate, mode)
    if start or end:
        assert (_day(r.window.start), _day(r.window.end)) == (start, end)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("two Christmases ago", "2024-12-25", "2024-12-26"),
        ("the summer before last", "2024-06-01", "2024-09-01"),
        ("the first quarter of 2025", "2025-01-01", "2025-04-01"),
        ("winter 23/24", "2023-12-01", "2024-03-01"),
        ("the week of 2025-06-09", "2025-06-09", "2025-06-16"),
        ("1 December last year", "2025-12-01", "2025-12-02"),
    ],
)
def test_calendar_phrases_of_chat_resolve_against_the_question_date(phrase, start, end):
    from graphmem.time.natural import find_time_expressions

    (found,) = find_time_expressions(phrase, ASKED)
    assert (_day(found.interval.start), _day(found.interval.end)) == (start, end)


def test_what_was_on_record_is_read_at_the_stated_minute():
    r = read_question("what was on record on 4 August at 09:01 about my employer?",
                      owner="Maya", reference=ASKED)  # fmt: skip
    assert (r.predicate, r.mode) == ("works_at", "known_at")
    assert r.at == datetime(2025, 8, 4, 9, 1, tzinfo=UTC)


def test_a_when_question_names_the_value_and_the_edge():
    start = read_question("when did I start at the BBC?", owner="Maya", reference=ASKED)
    assert (start.predicate, start.mode, start.object, start.edge) == (
        "works_at", "when", "BBC", "start")  # fmt: skip
    end = read_question("when did I give up pottery?", owner="Maya", reference=ASKED)
    assert (end.predicate, end.object, end.edge) == ("hobby", "pottery", "end")


@pytest.fixture
def mem(tmp_path):
    with Memory.open(tmp_path / "m.db", embedder=None) as m:
        m.remember("Maya", "lives_in", "Austin", valid_from="2019-01-01", scope="s")
        m.supersede("Maya", "lives_in", "Denver", since="2024-06-15", scope="s")
        m.remember("Maya", "works_at", "Northwind", valid_from="2022-03-01", scope="s")
        m.remember("Maya", "sibling", "Ana", scope="s")
        m.remember("Maya", "partner", "Sam", valid_from="2021-01-01", scope="s")
        m.remember("Sam", "works_at", "Globex", valid_from="2021-01-01", scope="s")
        m.remember("Ana", "lives_in", "Porto", valid_from="2020-01-01", scope="s")
        yield m


def test_a_window_anchored_on_another_fact_comes_from_the_store(mem):
    r = reading_for(mem, "where did I live just before I relocated to Denver?", scope="s",
                    owner="Maya", reference=ASKED)  # fmt: skip
    assert (r.predicate, r.mode) == ("lives_in", "past")
    assert (_day(r.window.start), _day(r.window.end)) == ("2024-06-14", "2024-06-15")
    answer = mem.ask("where did I live just before I relocated to Denver?", speaker="Maya",
                     reference=ASKED, scope="s")  # fmt: skip
    assert [v.value for v in answer.values] == ["Austin"]


def test_my_wife_is_the_partner_the_store_knows(mem):
    answer = mem.ask("where does my wife work?", speaker="Maya", reference=ASKED, scope="s")
    assert [v.value for v in answer.values] == ["Globex"]


def test_a_named_sibling_is_answered_by_name(mem):
    answer = mem.ask("where does Ana live?", speaker="Maya", reference=ASKED, scope="s")
    assert [v.value for v in answer.values] == ["Porto"]


def test_a_relative_nobody_mentioned_is_not_answered_with_the_owners_facts(mem):
    answer = mem.ask("where does my brother live?", speaker="Maya", reference=ASKED, scope="s")
    assert not answer.known


def test_a_name_the_scope_never_heard_of_gets_i_dont_know(mem):
    answer = mem.ask("where does Priya live?", speaker="Maya", reference=ASKED, scope="s")
    assert not answer.known and answer.mode == "unknown subject"


def test_a_question_it_cannot_read_is_declined_not_guessed(mem):
    answer = mem.ask("what's my shoe size?", speaker="Maya", reference=ASKED, scope="s")
    assert not answer.known


def test_a_when_question_is_answered_with_the_instant(mem):
    answer = mem.ask("when did Sam start at Globex?", speaker="Maya", reference=ASKED, scope="s")
    assert answer.known and answer.at is not None and _day(answer.at) == "2021-01-01"
    assert answer.answer.startswith("2021-01-01")


def test_the_last_day_at_an_employer_asks_for_the_end_of_the_stay():
    r = read_question("when was my last day at Globex?", owner="Maya", reference=ASKED)
    assert (r.mode, r.edge) == ("when", "end")


def test_a_date_asked_as_on_record_at_a_past_date_is_a_when_at_that_belief():
    r = read_question("In June 2025, what date did you have for my first day at Globex?",
                      owner="Maya", reference=ASKED)  # fmt: skip
    assert (r.predicate, r.mode, r.edge) == ("works_at", "when", "start")
    assert r.at is not None and r.at.date().isoformat() == "2025-06-30"


def test_a_start_date_as_it_was_on_record_then_is_answered_from_that_belief(tmp_path):
    with Memory.open(tmp_path / "m.db", embedder=None) as m:
        m.remember("Maya", "works_at", "Globex", valid_from="2025-09-01", scope="s",
                   recorded_at="2025-05-01")  # fmt: skip
        asked = "In {}, what date did you have for my first day at Globex?"
        then = m.ask(asked.format("June 2025"), speaker="Maya", reference=ASKED, scope="s")
        before = m.ask(asked.format("April 2025"), speaker="Maya", reference=ASKED, scope="s")
    assert then.known and then.at is not None and then.at.date().isoformat() == "2025-09-01"
    assert not before.known  # nothing was on record yet


@pytest.mark.parametrize(
    "question",
    ["Who reports to me at work?", "who reports to Ana?", "who do I manage?",
     "who works under me now?", "who are my direct reports?"],
)  # fmt: skip
def test_who_reports_to_someone_is_not_read_as_their_manager(question):
    # the manager key read backwards: answering with the asker's own manager would be wrong
    assert read_question(question, owner="Maya", reference=ASKED).predicate is None


@pytest.mark.parametrize(
    ("question", "predicate"),
    [("who do I report to at the moment?", "manager"), ("Who does Ana report to now?", "manager"),
     ("who was I reporting to In March?", "manager")],
)  # fmt: skip
def test_whom_someone_reports_to_is_still_their_manager(question, predicate):
    assert read_question(question, owner="Maya", reference=ASKED).predicate == predicate


def test_since_when_have_i_been_x_asks_when_x_began():
    reading = read_question("Since when have I been vegan?", owner="Maya", reference=ASKED)
    assert (reading.predicate, reading.mode, reading.object) == ("diet", "when", "vegan")


@pytest.mark.parametrize(
    ("question", "newest_first"),
    [("what job titles have I had, oldest to newest?", False),
     ("which cities have I lived in, newest to oldest?", True)],
)  # fmt: skip
def test_an_order_from_one_end_to_the_other_asks_for_a_timeline(question, newest_first):
    reading = read_question(question, owner="Maya", reference=ASKED)
    assert (reading.mode, reading.newest_first) == ("timeline", newest_first)
