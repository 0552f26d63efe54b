"""Shapes found on the eleventh round's dev conversations (haruto, fenna, dolores):
moves whose place was said just before, a manager still to come, values that are only a
time, questions typed in lower case or wrapped in small talk, year-first months."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from turns import read_turns

from graphmem.question import read_question
from graphmem.time.natural import find_time_expressions

ASKED = datetime(2026, 2, 4, 10, 0, tzinfo=UTC)


def test_a_move_takes_the_place_said_before_it_in_the_turn():
    [facts] = read_turns(
        ("2024-07-27T10:00:00Z", "found a flat in utrecht, we move on 1 september")
    )
    assert ("supersede", "Maya", "lives_in", "Utrecht", "2024-09-01") in facts


def test_a_move_takes_the_place_of_the_turn_before():
    offer, move = read_turns(
        ("2024-04-20T10:00:00Z", "I got an offer from a company in Fukuoka. I accepted!"),
        ("2024-04-20T10:01:00Z", "I move on 2024/07/01. Yui stays in Osaka for now."),
    )
    assert ("supersede", "Maya", "lives_in", "Fukuoka", "2024-07-01") in move


def test_a_move_never_takes_someone_elses_home_or_a_trip():
    [sister] = read_turns(("2025-09-27T10:00:00Z", "My sister lives in Paris. I moved last year."))
    assert not any(f[1] == "Maya" and f[2] == "lives_in" for f in sister)
    [trip] = read_turns(
        ("2025-09-27T10:00:00Z", "Greetings from Rome! We arrived yesterday, the hotel is lovely")
    )
    assert not any(f[2] == "lives_in" for f in trip)
    # nothing said before it: no place to take
    [bare] = read_turns(("2025-09-27T10:00:00Z", "We moved last month, still unpacking."))
    assert not any(f[2] == "lives_in" for f in bare)


def test_a_place_read_with_a_date_stuck_to_it_is_the_place():
    [facts] = read_turns(("2024-08-10T10:00:00Z", "Moved to Fukuoka 7/1 as planned."))
    assert {f[3] for f in facts if f[2] == "lives_in"} == {"Fukuoka"}


def test_a_manager_still_to_come():
    [facts] = read_turns(
        ("2025-12-27T10:00:00Z", "Saskia moves teams, so from January my manager will be Joost.")
    )
    assert ("supersede", "Maya", "manager", "Joost", "2026-01-01") in facts
    [undated] = read_turns(("2025-12-27T10:00:00Z", "my wife will be happy about it"))
    assert not undated


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        # a word about the time before the value is not part of it
        ("Honestly now Kotlin is my favourite language!", "favourite_language", "Kotlin"),
        # "New" opens the name after "The"
        ("The New Braunfels Public Library hired me as a library aide.", "works_at",
         "New Braunfels Public Library"),
        ("Luckily Acme took me on.", "works_at", "Acme"),
    ],
)  # fmt: skip
def test_values_keep_their_name_and_lose_the_words_around_it(text, predicate, value):
    [facts] = read_turns(("2025-01-25T10:00:00Z", text))
    assert {f[3] for f in facts if f[2] == predicate} == {value}


def test_a_value_that_is_only_a_time_is_no_value():
    [facts] = read_turns(("2025-01-11T10:00:00Z", "my new manager since monday is sanne."))
    assert not any(f[2] == "manager" and f[3] == "Since Monday" for f in facts)


def _ask(question: str, known: dict[str, str] | None = None, people: tuple[str, ...] = ()):
    known = known or {}
    return read_question(
        question, owner="Fenna", reference=ASKED,
        known_names=lambda ns: {n: known[n.lower()] for n in ns if n.lower() in known},
        facts_of=lambda subject, predicate: [1] if subject in people else [],
    )  # fmt: skip


def test_a_name_typed_in_lower_case_is_whom_the_question_asks_about():
    known = {"lotte": "Lotte", "utrecht": "Utrecht"}
    r = _ask("on 1 may 2024, where did you think lotte lived?", known, ("Lotte",))
    assert (r.subject, r.predicate, r.mode) == ("Lotte", "lives_in", "known_at")
    # a name never heard of is unknown, never the owner's own facts
    for question in ("where does yara live now?", "what's sem's dog called again?"):
        r = _ask(question, known, ("Lotte",))
        assert r.subject != "Fenna" and r.unknown_name is not None
    # the owner's own questions, and words that are no names, stay the owner's
    for question in ("where do i live now?", "which phone is mine now?", "who's my boss"):
        assert _ask(question, known, ("Lotte",)).subject == "Fenna"


def test_small_talk_around_the_question_is_not_read():
    r = _ask("Good morning mijo, quick one for you: what town am I living in these days?",
             {"good": "Good"})  # fmt: skip
    assert (r.subject, r.predicate, r.mode, r.unknown_name) == (
        "Fenna", "lives_in", "current", None)  # fmt: skip
    r = _ask("Which phone do I have now? Mateo is asking for a charger.", {}, ())
    assert (r.subject, r.predicate, r.unknown_name) == ("Fenna", "phone", None)
    # a time said in a sentence of its own is kept
    r = _ask("On 2025/06/01: where did you have me living?")
    assert (r.predicate, r.mode) == ("lives_in", "known_at")


def test_questions_found_in_the_round():
    r = _ask("From which day I become vegan?")
    assert (r.predicate, r.mode) == ("diet", "when")
    r = _ask("Tell me all the towns I have lived in since we started writing, in order please.")
    assert (r.predicate, r.mode, r.window) == ("lives_in", "timeline", None)
    r = _ask("Who was my girlfriend in 2024/06?")
    assert (r.predicate, r.mode) == ("partner", "past")


def test_a_month_written_year_first():
    [june] = find_time_expressions("in 2024/06", ASKED)
    assert (june.interval.start.date().isoformat(), june.interval.end.date().isoformat()) == (
        "2024-06-01", "2024-07-01")  # fmt: skip
    assert find_time_expressions("deadline 2025.01", ASKED)[0].interval.start.month == 1
    assert find_time_expressions("it costs 2024.5 euro", ASKED) == []


def test_an_iso_week_number():
    [week] = find_time_expressions("where was I living in week 7 of 2025?", ASKED)
    assert (week.interval.start.date().isoformat(), week.interval.end.date().isoformat()) == (
        "2025-02-10", "2025-02-17")  # fmt: skip
    # without a year, the year spoken in, and only after a preposition
    assert find_time_expressions("interviewed in week 5", ASKED)[0].interval.start.month == 1
    assert find_time_expressions("it took a week 5 times", ASKED) == []


def test_a_month_asked_about_with_will_is_the_coming_one():
    asked = datetime(2026, 1, 20, 19, 0, tzinfo=UTC)
    ahead = read_question("Where will I be living in April?", owner="B", reference=asked)
    assert (ahead.mode, ahead.window.start.date().isoformat()) == ("past", "2026-04-01")
    back = read_question("Where did I live in April?", owner="B", reference=asked)
    assert back.window.start.date().isoformat() == "2025-04-01"


def test_a_project_typed_in_lower_case_the_store_knows():
    r = _ask("when's the hjerte deadline?", {"hjerte": "Hjerte"})
    assert (r.subject, r.predicate, r.unknown_name) == ("Hjerte", "deadline", None)


def test_a_person_known_only_by_name_is_still_whom_the_question_asks_about():
    # Lotte is known (as a sister) but nothing of her own is on record: "I don't know",
    # never the owner's city
    r = _ask("where does lotte live now?", {"lotte": "Lotte"}, ())
    assert (r.subject, r.predicate) == ("Lotte", "lives_in")


def test_a_home_is_a_place_not_someones_house():
    [facts] = read_turns(
        ("2025-11-09T10:00:00Z", "On November 1 I moved into Ernesto's house here in Seguin.")
    )
    assert {f[3] for f in facts if f[2] == "lives_in"} == {"Seguin"}


def test_a_move_to_a_home_named_before_it_and_the_day_of_a_move():
    [house] = read_turns(
        ("2025-11-05T10:00:00Z", "Marte and I signed for a house in Os. We move 1 March.")
    )
    assert ("supersede", "Maya", "lives_in", "Os", "2026-03-01") in house
    [flat] = read_turns(("2025-02-19T10:00:00Z", "Found a flat in Bergen, move date 15 March."))
    assert ("supersede", "Maya", "lives_in", "Bergen", "2025-03-15") in flat
    # "moved on" is getting over something, not a move
    [over] = read_turns(("2025-11-05T10:00:00Z", "the house in Leeds was cold, we moved on"))
    assert not any(f[2] == "lives_in" for f in over)


def test_a_question_with_will_and_no_time_gets_the_change_on_record_for_later(tmp_path):
    from graphmem import Memory

    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        mem.remember("Fenna", "manager", "Mikkel", valid_from="2025-09-13", scope="f")
        mem.supersede("Fenna", "manager", "Freja", since="2026-03-01", scope="f")
        mem.remember("Fenna", "lives_in", "Copenhagen", valid_from="2025-08-15", scope="f")

        def ask(question: str) -> str:
            return mem.ask(question, speaker="Fenna", scope="f", reference="2026-02-04").answer

        assert ask("who will i report to after the promotion?").startswith("Freja")
        assert ask("who do I report to?").startswith("Mikkel")
        # no change on record for later: the value now
        assert ask("where will I be living?").startswith("Copenhagen")


def test_a_parent_company_is_no_parent():
    [parent] = read_turns(("2024-03-09T10:00:00Z", "Kitahama Tech is our parent company."))
    assert not any(f[2] == "parent" for f in parent)


def test_a_joke_taken_back_corrects_no_place():
    _, joke = read_turns(
        ("2026-01-09T10:00:00Z", "We signed for a house in Radebeul! We move on 1 April."),
        ("2026-01-27T10:00:00Z", "I swam in ice-hole in Elbe... no, joke, I only watched."),
    )
    assert not joke


def test_an_employer_that_called_and_offered_the_job_starts_on_the_day_given():
    [facts] = read_turns((
        "2026-01-31T10:00:00Z",
        "I got it!! The Seguin Public Library called on Tuesday and offered me the job, youth "
        "services assistant. I start Monday, March 2.",
    ))  # fmt: skip
    assert ("supersede", "Maya", "works_at", "Seguin Public Library", "2026-03-02") in facts
    [mum] = read_turns(("2026-01-31T10:00:00Z", "Mum called and offered me the job of nanny"))
    assert not any(f[2] == "works_at" for f in mum)


def test_a_when_question_after_a_lead_in():
    r = _ask("remind me, what day do I start at Quarry?", {"quarry": "Quarry"})
    assert (r.predicate, r.mode, r.object) == ("works_at", "when", "Quarry")


def test_projects_named_after_a_colon_ended_when_done_and_their_deadline():
    on, done, second = read_turns(
        ("2024-06-15T10:00:00Z", "i'm on a project called tulp, a parking app."),
        ("2025-01-11T10:00:00Z", "tulp is DONE. now i'm on kompas, a banking app"),
        ("2026-01-10T10:00:00Z", "got put on a second project: fjord, a tool for nurses. "
         "deadline 1 june."),
    )  # fmt: skip
    assert ("retract", "Maya", "works_on", "Tulp", "2025-01-11") in done
    assert ("assert", "Maya", "works_on", "Fjord", "2026-01-10") in second
    assert ("assert", "Fjord", "deadline", "2026-06-01", "2026-01-10") in second
    [late] = read_turns(("2026-01-24T10:00:00Z", "The project is Late again"))
    assert not late
    # a thing that is done, not a project of the speaker's, ends nothing
    [dinner] = read_turns(("2026-01-24T10:00:00Z", "Dinner is done, come eat"))
    assert not dinner


def test_name_my_children_with_one_child_on_record_is_not_answered_as_complete(tmp_path):
    from graphmem import Memory

    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        mem.remember("Seamus", "child", "Siobhán", valid_from="2020-01-01", scope="s")
        ask = mem.ask("Name my children for me.", speaker="Seamus", scope="s",
                      reference="2026-01-01")  # fmt: skip
        assert not ask.known and "Siobhán" in ask.answer


def test_an_employer_named_short_is_the_full_name_said_before():
    _, took = read_turns(
        ("2025-12-06T10:00:00Z", "Got an offer from Mayo Clinic in Rochester, still deciding."),
        ("2026-01-24T10:00:00Z", "I took the Mayo job. I start March 2."),
    )
    assert ("supersede", "Maya", "works_at", "Mayo Clinic", "2026-03-02") in took


def test_a_correction_whose_wrong_value_is_named_again_after_it():
    said, fixed = read_turns(
        ("2024-02-10T10:00:00Z", "My company is Kitahama Tech."),
        ("2024-03-09T10:00:00Z", "Small correction, sorry, company name is Kitahama Digital, "
         "not Kitahama Tech. Kitahama Tech is our parent company."),
    )  # fmt: skip
    assert {(f[0], f[2], f[3]) for f in fixed} == {("correct", "works_at", "Kitahama Digital")}


def test_a_question_that_presumes_a_change_is_not_answered_with_the_value_now(tmp_path):
    from graphmem import Memory

    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        mem.remember("Thuy", "lives_in", "Sacramento", valid_from="2025-06-21", scope="t")

        def ask(question: str):
            return mem.ask(question, speaker="Thuy", scope="t", reference="2026-01-20")

        assert not ask("Which city am I moving to after the wedding?").known
        assert ask("where will I be living?").answer.startswith("Sacramento")
        mem.supersede("Thuy", "lives_in", "Davis", since="2026-04-01", scope="t")
        assert ask("Which city am I moving to after the wedding?").answer.startswith("Davis")


def test_a_kind_or_a_name_the_answer_does_not_carry_is_not_answered(tmp_path):
    from graphmem import Memory

    assert _ask("Which platform do I live on?").predicate is None
    assert _ask("What street do I live on?").predicate == "lives_in"
    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        mem.remember("Dolores", "phone", "iPhone 12", valid_from="2024-12-25", scope="d")
        ask = mem.ask("Which Samsung Galaxy did I end up buying?", speaker="Dolores",
                      scope="d", reference="2026-01-20")  # fmt: skip
        assert not ask.known
        ask = mem.ask("Which iPhone do I have now?", speaker="Dolores", scope="d",
                      reference="2026-01-20")  # fmt: skip
        assert ask.known
