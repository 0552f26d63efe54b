"""Shapes found on the twelfth round's dev conversations (priyanka, olek, gwen): terse
chat that drops "my" and articles, self-introductions, relatives named by "his/her",
deadlines said without their project's name, one phone said twice in a turn, accents
typed once, and questions that ask "when" at their end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from turns import read_turns

from graphmem.question import read_question

ASKED = datetime(2026, 2, 4, 10, 0, tzinfo=UTC)


def _facts(text: str, when: str = "2025-06-07T10:00:00Z") -> set[tuple]:
    [facts] = read_turns((when, text))
    return {f[:4] for f in facts}


# -- people ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("boss - jarek - wants everything in go now", ("Maya", "manager", "Jarek")),
        ("bf tomek says I work too much", ("Maya", "partner", "Tomek")),
        ("anyway partner Ruben thinks I'm mad", ("Maya", "partner", "Ruben")),
        ("mum halina keeps asking about xmas", ("Maya", "parent", "Halina")),
    ],
)
def test_a_relative_named_without_my_is_still_mine(text, fact):
    assert ("assert", *fact) in _facts(text)


def test_who_someone_is_holds_in_a_clause_that_states_nothing_else():
    # reported speech states nothing, but "my girlfriend Ines" is still said
    facts = _facts("my girlfriend Ines keeps saying I should get a cat")
    assert ("assert", "Maya", "partner", "Ines") in facts
    assert not any(f[2] == "owns_pet" for f in facts)


def test_a_capitalised_title_is_not_a_relative():
    assert not any(f[2] == "sibling" for f in _facts("Sister Act is my favourite film."))


def test_his_or_her_relative_belongs_to_the_person_named():
    assert ("assert", "Tomos", "partner", "Nia") in _facts(
        "Tomos proposed to his girlfriend Nia at the weekend!"
    )
    assert ("assert", "Ana", "partner", "Rui") in _facts(
        "My sister Ana and her husband Rui came for lunch."
    )


def test_someone_in_a_small_town_lives_there():
    assert ("assert", "Bethan", "lives_in", "Llansteffan") in _facts("Bethan's in Llansteffan.")


# -- work -----------------------------------------------------------------------------


def test_a_self_introduction_gives_title_and_employer():
    facts = _facts("hi. kuba here, 31, frontend dev at vectra in gdynia. mostly react")
    assert ("assert", "Maya", "job_title", "frontend dev") in facts
    assert ("assert", "Maya", "works_at", "Vectra") in facts
    assert ("assert", "Maya", "job_title", "pharmacist") in _facts(
        "I'm Meera btw, 29, pharmacist, originally from Nagpur"
    )


def test_a_list_after_a_name_is_no_introduction_of_the_speaker():
    facts = _facts("I met Sam, 40, nurse at the Royal, lovely guy")
    assert not any(f[1] == "Maya" and f[2] == "job_title" for f in facts)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("promoted - staff engineer from 2025-07-01", "staff engineer"),
        ("Gwil has made me deputy manager from the 1st of September.", "deputy manager"),
    ],
)
def test_a_promotion_said_tersely_or_by_the_boss(text, title):
    assert ("supersede", "Maya", "job_title", title) in _facts(text)


def test_a_manager_to_come_with_the_subject_dropped():
    assert ("supersede", "Maya", "manager", "Ingrid") in _facts(
        "promoted - tech lead from 2025-07-01. will report to Ingrid"
    )


def test_a_job_started_with_words_between_job_and_employer():
    assert ("supersede", "Maya", "works_at", "Pentre Nurseries") in _facts(
        "I started a little Saturday job last week, at Pentre Nurseries."
    )


def test_a_group_joined_is_not_an_employer():
    facts = _facts("And I've joined the Crickhowell in Bloom committee.")
    assert not any(f[2] == "works_at" for f in facts)
    assert ("supersede", "Maya", "works_at", "Acme") in _facts("I joined Acme as a team lead.")


def test_a_lowercase_employer_ends_before_a_word_that_ends_the_clause():
    facts = _facts("first week at brightline done. on project Harbor")
    assert ("supersede", "Maya", "works_at", "Brightline") in facts


@pytest.mark.parametrize(
    ("text", "project"),
    [
        ("I've been put on a project called Osprey.", "Osprey"),
        ("I've also been added to a second project, Lumen, early days.", "Lumen"),
        ("Carys has put me in charge of Summer Reading.", "Summer Reading"),
    ],
)
def test_a_project_named_after_the_word_or_put_in_my_charge(text, project):
    assert any(f[2] == "works_on" and f[3] == project for f in _facts(text))


def test_someone_elses_project_is_not_mine():
    assert not any(f[2] == "works_on" for f in _facts("My sister's project, Zeus, is late."))


# -- deadlines ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "project", "date"),
    [
        ("the board wants a workshop series, we call it 'Open Doors'. "
         "Deadline for the first session is 31.01.2026.", "Open Doors", "2026-01-31"),
        ("It's called Ty Bach and the manuscript is due on 30 June.", "Ty Bach", "2025-06-30"),
        ("Osprey has a deadline now, the dossier has to go in by 12th Dec.", "Osprey",
         "2025-12-12"),
        ("Osprey update: Ruth has moved the evaluation deadline to 16 May.", "Osprey",
         "2026-05-16"),
        ("Lumen also has a deadline now, 30th June next year.", "Lumen", "2026-06-30"),
    ],
)  # fmt: skip
def test_a_deadline_said_without_its_name_is_the_turns_project(text, project, date):
    facts = _facts(text)
    assert any(f[1:] == (project, "deadline", date) for f in facts), facts


def test_a_deadline_never_belongs_to_the_person_who_set_it():
    facts = _facts(
        "Big project: Martin wants a course, we call it 'Compass'. Martin wants it by 1 March."
    )
    assert not any(f[1] == "Martin" and f[2] == "deadline" for f in facts)
    assert any(f[1] == "Compass" and f[2] == "deadline" for f in facts)


# -- phones and spelling --------------------------------------------------------------


def test_a_brand_said_after_its_model_is_the_same_phone():
    facts = _facts("he got me an iPhone 16 for christmas, so I'm back to iphone lol")
    assert {f[3] for f in facts if f[2] == "phone"} == {"iPhone 16"}


def test_the_phone_someone_else_bought_in_my_sentence_is_theirs():
    facts = _facts(
        "So I've got a Galaxy A55 now, and Gareth finally bought his Pixel 9, "
        "so we're a two-Android house."
    )
    assert {f[3] for f in facts if f[1] == "Maya" and f[2] == "phone"} == {"Galaxy A55"}


@pytest.mark.parametrize(
    "text", ["pixel 7 finally died, got pixel 9 on wednesday", "replaced it w/ pixel 9, fine"]
)
def test_a_phone_got_without_an_article(text):
    assert any(f[2] == "phone" and f[3] == "Pixel 9" for f in _facts(text))


def test_adopted_without_an_article():
    assert ("assert", "Maya", "owns_pet", "Bajt") in _facts(
        "adopted dog! shelter mutt, named him Bajt"
    )


def test_a_place_typed_once_with_its_accents_keeps_them():
    first, second = read_turns(
        ("2025-08-09T10:00:00Z", "and - moving to wrocław w/ ewa on 2025-10-01"),
        ("2025-10-11T10:00:00Z", "moved to wroclaw 2025-10-01 as planned"),
    )
    assert ("supersede", "Maya", "lives_in", "Wrocław", "2025-10-01") in first
    assert ("supersede", "Maya", "lives_in", "Wrocław", "2025-10-01") in second


# -- questions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "predicate", "edge"),
    [
        ("What's the date of our move?", "lives_in", "start"),
        ("last day at brightline - when", "works_at", "end"),
        ("How many years did I live in Cardiff?", "lives_in", "span"),
    ],
)
def test_a_when_asked_at_the_end_or_as_a_date(question, predicate, edge):
    reading = read_question(question, owner="Maya", reference=ASKED)
    assert (reading.predicate, reading.mode, reading.edge) == (predicate, "when", edge)


def test_a_relative_without_my_is_asked_about_not_the_owner():
    reading = read_question("where does brother work", owner="Maya", reference=ASKED)
    assert (reading.subject, reading.predicate) == ("Maya's brother", "works_at")


# -- later in the round ---------------------------------------------------------------


def test_a_bare_ordinal_day_is_a_day_of_the_month_said_before_it():
    from graphmem.time.natural import find_time_expressions

    ref = datetime(2026, 2, 1, 10, tzinfo=UTC)
    keys, move = find_time_expressions(
        "we get the keys on 10th March and move on the 14th", ref, prefer="future"
    )
    assert move.interval.start.date().isoformat() == "2026-03-14"
    [alone] = find_time_expressions("she moved on the 5th as planned", ref)
    assert alone.interval.start.date().isoformat() == "2026-01-05"  # the last 5th before
    assert find_time_expressions("the 5 of us went", ref) == []


def test_a_move_that_shares_its_subject_by_and_has_its_own_day():
    [facts] = read_turns(
        ("2026-02-01T10:00:00Z",
         "we bought a house in Greystones, we get the keys on 10th March and move on the 14th"),
    )  # fmt: skip
    assert ("supersede", "Maya", "lives_in", "Greystones", "2026-03-14") in facts


def test_a_move_never_goes_to_a_place_visited_the_turn_before():
    trip, move = read_turns(
        ("2024-10-26T10:00:00Z", "We spent a few days in Barcelona, lovely."),
        ("2024-10-26T10:05:00Z", "Mum is now officially in Annecy, she moved on the 5th."),
    )
    assert not any(f[3] == "Barcelona" for f in move)


def test_i_keep_saying_x_but_it_is_y_corrects_the_fact_whose_value_is_x():
    start, fix = read_turns(
        ("2025-03-08T10:00:00Z", "I started a weekend job at Pengwern Garden Centre."),
        ("2025-06-14T10:00:00Z",
         "Sorry, another correction. I keep saying Pengwern Garden Centre, but it's "
         "Penrallt Garden Centre."),
    )  # fmt: skip
    assert ("supersede", "Maya", "works_at", "Pengwern Garden Centre", "2025-03-08") in start
    assert {f[:4] for f in fix} == {("correct", "Maya", "works_at", "Penrallt Garden Centre")}


@pytest.mark.parametrize(
    ("text", "pets"),
    [
        ("We've got two ex-battery hens now too, Ffion and Nel, from the rescue.", {"Ffion", "Nel"}),
        ("ive got two working dogs, Moss (huntaway) and Fly (heading dog). plus Tibs the cat",
         {"Moss", "Fly", "Tibs"}),
        ("NEWS: I adopted a second cat!! her name is Bolacha", {"Bolacha"}),
    ],
)  # fmt: skip
def test_pets_counted_listed_or_named_with_their_species(text, pets):
    assert {f[3] for f in _facts(text) if f[2] == "owns_pet"} == pets


def test_a_pet_named_with_its_species_needs_the_speakers_pets_in_the_turn():
    assert not any(f[2] == "owns_pet" for f in _facts("I watched Garfield the cat on TV."))


def test_a_countdown_to_a_deadline_on_record_is_no_new_deadline():
    set_, countdown = read_turns(
        ("2024-05-18T10:00:00Z", "The publisher moved the Ty Bach deadline to 30 September."),
        ("2024-09-14T10:00:00Z", "Ty Bach is going badly, the deadline is in a fortnight."),
    )
    assert any(f[1:4] == ("Ty Bach", "deadline", "2024-09-30") for f in set_)
    assert not any(f[2] == "deadline" for f in countdown)


def test_a_project_typed_in_lower_case_before_deadline():
    facts = _facts("tidepool deadline moved to 2025-09-30, customs api changed again")
    assert any(f[1:] == ("Tidepool", "deadline", "2025-09-30") for f in facts)


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("When is Fjordlink first power now?", "Fjordlink"),
        ("When's the Lyngen cutover now?", "Lyngen"),
        ("When is Kalina submission now?", "Kalina"),
        ("When is Schwalbe opening now?", "Schwalbe"),
        ("In September 2025, what did you have as the Kurl Kream launch date?", "Kurl Kream"),
    ],
)
def test_a_projects_milestone_is_asked_as_its_deadline(question, subject):
    reading = read_question(question, owner="Maya", reference=ASKED)
    assert (reading.subject, reading.predicate) == (subject, "deadline")


def test_a_job_opening_is_no_deadline():
    assert read_question("When is the job opening?", owner="Maya", reference=ASKED).predicate != (
        "deadline"
    )


def test_a_pet_named_in_a_fragment_right_after():
    assert ("assert", "Yolanda", "owns_pet", "Princesa") in _facts(
        "And Yolanda got a chihuahua! Named Princesa. She loves her."
    )


def test_a_favourite_film_is_its_title_not_who_made_it():
    assert any(f[2:] == ("favourite_film", "Stalker") for f in _facts(
        "My favourite film is Stalker by Tarkovsky."
    ))  # fmt: skip


def test_a_brand_said_later_is_the_phone_on_record():
    first, later = read_turns(
        ("2024-12-25T10:00:00Z", "Got an iPhone 12 for Christmas!"),
        ("2025-02-01T10:00:00Z", "So I switched to iPhone, finally."),
    )
    assert {f[3] for f in later if f[2] == "phone"} <= {"iPhone 12"}


def test_a_when_question_with_no_value_named_answers_the_latest_change(chat_memory):
    memory = chat_memory(
        ("2024-01-10T09:00:00Z", "I live in Leeds."),
        ("2024-06-10T09:00:00Z", "We moved to York on 1 June."),
    )
    answer = memory.ask("What's the date of our move?", reference="2024-07-01")
    assert answer.known and answer.at.date().isoformat() == "2024-06-01"


def test_a_when_question_about_a_phone_not_on_record_is_unknown(chat_memory):
    memory = chat_memory(("2024-11-13T09:00:00Z", "Got a Pixel 9 on Wednesday!"))
    answer = memory.ask("since when do I have iphone 16", reference="2025-01-01")
    assert not answer.known
    assert memory.ask("since when do I have the pixel 9", reference="2025-01-01").known


def test_two_people_who_move_together_both_live_there():
    facts = _facts("Ingrid and Jonas moved to Bodø in July.")
    assert {f[1] for f in facts if f[2] == "lives_in" and f[3] == "Bodø"} == {"Ingrid", "Jonas"}


@pytest.mark.parametrize("text", ["My sister is nurse.", "My sister is nurse and loves it"])
def test_a_bare_title_ending_the_clause(text):
    assert ("assert", "Maya's sister", "job_title", "nurse") in _facts(text)


def test_a_bit_of_a_nurse_is_no_title():
    assert not any(f[2] == "job_title" for f in _facts("I'm a bit of a nurse, honestly."))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My friend Nour has a boyfriend now, Karim.", ("Nour", "partner", "Karim")),
        ("My sister Ingrid called. Her boyfriend Jonas just got them a dog.",
         ("Ingrid", "partner", "Jonas")),
    ],
)  # fmt: skip
def test_someone_elses_partner_by_has_or_her(text, fact):
    assert any(f[1:] == fact for f in _facts(text))


def test_a_partner_named_after_the_clause_is_who_he_is_next():
    facts = _facts(
        "Irina news: she has new partner in Berlin, his name is Klaus, he is sound engineer."
    )
    assert ("supersede", "Irina", "partner", "Klaus") in facts
    assert ("assert", "Klaus", "job_title", "sound engineer") in facts


def test_someone_met_is_who_he_is_next():
    assert ("assert", "Ernesto", "owns_pet", "Chato") in _facts(
        "I met Ernesto at the fish fry in January. He has a dog named Chato."
    )


def test_a_negation_in_the_first_part_of_a_clause_stays_there():
    facts = _facts("I ain't pescatarian no more, me and Andre went vegan for the new year")
    assert ("supersede", "Maya", "diet", "vegan") in facts


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I don't play guitar no more, sold it.", ("retract", "Maya", "hobby", "guitar")),
        ("I'm in College Park.", ("assert", "Maya", "lives_in", "College Park")),
    ],
)
def test_no_more_and_a_town_named_with_a_common_word(text, fact):
    assert fact in _facts(text)


def test_an_old_phone_that_gave_up_is_no_new_phone():
    facts = _facts(
        "got a pixel 9 for me bday yesterday, the old iphone 11 finally gave up the ghost"
    )
    assert {f[3] for f in facts if f[2] == "phone"} == {"Pixel 9"}


@pytest.mark.parametrize(
    "text",
    ["Does Garfield the cat count as a pet?", "Would Tom and his sister Kate come?",
     "Is her boyfriend Jonas coming?"],
)  # fmt: skip
def test_a_question_naming_someone_in_passing_reads_without_failing(text):
    _facts(text)  # a mention rule that does not apply inside a question reads nothing


@pytest.mark.parametrize(
    ("text", "project", "date"),
    [
        ("Ostra cutover got pushed. Now Monday week 23, 3 June. Supplier late.", "Ostra",
         "2025-06-03"),
        ("Vika: energisation moved to 14 February. Vessel delays.", "Vika", "2026-02-14"),
        ("Brisa is late. Ana says opening is moved to 15 May, the room is not ready.", "Brisa",
         "2025-05-15"),
    ],
)  # fmt: skip
def test_a_moved_milestone_is_the_projects_new_deadline(text, project, date):
    facts = read_turns(("2025-03-09T10:00:00Z", text))[0]
    assert any(f[1:4] == (project, "deadline", date) for f in facts), facts


def test_a_milestone_moved_after_a_comma_so():
    first, moved = read_turns(
        ("2024-11-16T10:00:00Z", "It's called Llyfr and it has to be with the printers by 29 June."),
        ("2025-04-26T10:00:00Z",
         "The Llyfr booklet won't be ready, so the printers' date is now the 5th of October."),
    )  # fmt: skip
    assert any(f[1:4] == ("Llyfr", "deadline", "2025-10-05") for f in moved)


def test_started_on_a_day_as_a_title_dates_the_new_job():
    [facts] = read_turns(
        ("2024-10-16T10:00:00Z",
         "I got the job at Sutter Health! Started on 10/01 as a clinical pharmacist."),
    )  # fmt: skip
    assert ("supersede", "Maya", "works_at", "Sutter Health", "2024-10-01") in facts
    assert ("supersede", "Maya", "job_title", "clinical pharmacist", "2024-10-01") in facts


@pytest.mark.parametrize(
    "question", ["Where did I do my pharmacy residency?", "Where did we go on holiday?"]
)
def test_where_an_activity_happened_asks_for_no_home(question):
    assert read_question(question, owner="Maya", reference=ASKED).predicate is None
    asked = read_question("On 1 June 2024, where did you have me living?", owner="Maya",
                          reference=ASKED)  # fmt: skip
    assert (asked.predicate, asked.mode) == ("lives_in", "known_at")


@pytest.mark.parametrize(
    "text",
    ["In another life I'm a farm manager on Rangitoto Station.",
     "Ana reckons the deadline is moved to May but I doubt it."],
)  # fmt: skip
def test_another_life_and_a_doubted_claim_state_nothing(text):
    assert _facts(text) == set()


def test_an_exclamation_after_a_name_is_no_second_name():
    facts = _facts("My wife Maureen, God rest her, is gone eight years now.")
    assert not any(f[3] == "God" for f in facts)


def test_an_app_asked_about_is_no_partner():
    reading = read_question("What dating app was it I signed up to?", owner="Maya", reference=ASKED)
    assert reading.predicate is None


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("boil-up was my fav food but it's out now. honestly reckon kumara is my new fav, lol",
         ("favourite_food", "Kumara")),
        ("I like it better than Scratch now, Python is my favourite.",
         ("favourite_language", "Python")),
        ("oat flat white has replaced chai as my favourite drink", ("favourite_drink", "oat flat white")),
    ],
)  # fmt: skip
def test_a_favourite_without_its_kind_or_replacing_another(text, fact):
    assert any(f[2:] == fact for f in _facts(text)), _facts(text)


def test_a_person_who_is_my_favourite_is_no_favourite_thing():
    assert not any(f[2].startswith("favourite") for f in _facts("Tom is my favourite."))


def test_liking_another_better_than_the_favourite_on_record_changes_it():
    first, later = read_turns(
        ("2025-01-23T10:00:00Z", "Python is my favourite language."),
        ("2025-11-13T10:00:00Z", "Honestly I like SQL better than Python now."),
    )
    assert ("supersede", "Maya", "favourite_language", "SQL", "2025-11-13") in later
    assert not any(f[2].startswith("favourite") for f in _facts("I like Rome better than Paris."))


def test_a_partner_named_in_the_next_sentence_is_who_she_is_next():
    facts = _facts(
        "I have girlfriend again. Her name is Mai, we met at a party. She is graphic designer."
    )
    assert ("supersede", "Maya", "partner", "Mai") in facts
    assert ("assert", "Mai", "job_title", "graphic designer") in facts
