"""The default extractor: deterministic, offline, rule-based.

``RuleExtractor().extract(episode)`` turns one conversation turn into
:class:`~graphmem.model.CandidateFact` objects for the built-in predicates.

Pipeline, per episode (each step's decisions are written down in its module):

1. **Who may speak for whom.** Only user turns (role ``user``/``human``, or no role and a
   speaker that is not obviously a bot) yield facts; assistant/system/tool turns are
   skipped. With ``include_assistant=True`` they yield third-party facts only: an
   assistant's "I" is never the user.
2. **Masking** and 3. **Clauses** (:mod:`~graphmem.extraction.clauses`): quotations and
   secrets are blanked out; the text is split into sentences and clauses, and an elided
   clause borrows the previous subject.
4. **Guards** (:mod:`~graphmem.extraction.guards`): questions, hypotheticals, reported
   speech, requests to the assistant and negated clauses yield nothing.
5. **Rules.** A table of ``(regex, handler)`` rules (:data:`RULES`), tried in order; a
   rule whose match overlaps one already taken in the clause is skipped. Regexes and
   handlers live together by family of facts: :mod:`~graphmem.extraction.facts_place`,
   :mod:`~graphmem.extraction.facts_work`, :mod:`~graphmem.extraction.facts_people`,
   :mod:`~graphmem.extraction.facts_identity`, :mod:`~graphmem.extraction.facts_things`,
   :mod:`~graphmem.extraction.facts_tastes`, :mod:`~graphmem.extraction.facts_plans`.
   Who a clause is about ("I", "my sister Ana", "he", "we") is resolved by
   :mod:`~graphmem.extraction.turn`; objects are cut out and normalised by
   :mod:`~graphmem.extraction.objects`.
6. **Time** (:mod:`~graphmem.extraction.timing`): the clause's time phrase and the verb's
   aspect give ``valid_from``/``valid_to`` and the op (assert, supersede, retract).
7. **Corrections** (:mod:`~graphmem.extraction.corrections`): "sorry, I meant Lisbon"
   corrects the speaker's last fact, remembered per ``(scope, speaker)``.

Every fact carries provenance: episode id, session, the clause's character span in
``episode.text``, extractor ``rules`` and version, the raw time phrase and the
episode timestamp it was resolved against.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol, runtime_checkable

from graphmem.extraction import (
    facts_identity,
    facts_people,
    facts_place,
    facts_plans,
    facts_tastes,
    facts_things,
    facts_work,
)
from graphmem.extraction.clauses import (
    Clause,
    mark_for_next,
    marker_only,
    mask,
    read_clause,
    split_clauses,
)
from graphmem.extraction.corrections import (
    add,
    calls_it_wrong,
    corrected,
    recalled_statement,
    recalls_a_slip,
    same_value,
    swapped_values,
)
from graphmem.extraction.frames import FrameReader
from graphmem.extraction.guards import blocked, mutes_sentence, only_reported, speaks_as_system
from graphmem.extraction.lexicon import NAME_STOPWORDS
from graphmem.extraction.patterns import PERSON, SUBJ
from graphmem.extraction.secrets import contains_secret
from graphmem.extraction.truecase import is_common_word, truecase
from graphmem.extraction.turn import Draft, SpeakerMemory, Turn
from graphmem.model import CandidateFact, Episode, Provenance, normalise_name
from graphmem.predicates import PredicateRegistry
from graphmem.time.natural import find_time_expressions

__all__ = ["Extractor", "RuleExtractor"]


@runtime_checkable
class Extractor(Protocol):
    """What every extractor offers: a name, a version, and ``extract``."""

    name: str
    version: str

    def extract(self, episode: Episode) -> list[CandidateFact]: ...


# ---------------------------------------------------------------------------
# The rule table (order matters: earlier rules take their text first)

Handler = Callable[[Turn, Clause, re.Match], "list[Draft] | None"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A named regex and the handler that reads its match.

    A handler returns drafts (possibly none: the clause was understood and states
    nothing storable) or None (not applicable: later rules may take the text).
    """

    name: str
    regex: re.Pattern[str]
    handler: Handler
    negatable: bool = False  # the rule reads negation itself
    exclusive: bool = True  # takes its matched text from later rules


RULES: tuple[Rule, ...] = (
    Rule("deadline_of", facts_plans.DEADLINE_OF, facts_plans.deadline),
    Rule("deadline_bare", facts_plans.DEADLINE_BARE, facts_plans.deadline),
    Rule("deadline_poss", facts_plans.DEADLINE_POSS, facts_plans.deadline),
    Rule("deadline_due", facts_plans.DEADLINE_DUE, facts_plans.deadline),
    Rule("deadline_moved", facts_plans.DEADLINE_MOVED, facts_plans.deadline),
    Rule("deadline_by", facts_plans.DEADLINE_BY, facts_plans.deadline),
    Rule("deadline_milestone", facts_plans.DEADLINE_MILESTONE, facts_plans.dated_deadline),
    Rule("deadline_slid", facts_plans.DEADLINE_SLID, facts_plans.dated_deadline),
    Rule("deadline_verb_first", facts_plans.DEADLINE_VERB_FIRST, facts_plans.deadline),
    Rule("deadline_moved_the", facts_plans.DEADLINE_MOVED_THE, facts_plans.dated_deadline),
    Rule("deadline_wanted", facts_plans.DEADLINE_WANTED, facts_plans.dated_deadline),
    Rule("deadline_has", facts_plans.DEADLINE_HAS, facts_plans.dated_deadline),
    Rule("deadline_now", facts_plans.DEADLINE_NOW, facts_plans.deadline_now),
    Rule("birthday", facts_identity.BIRTHDAY, facts_identity.birthday),
    Rule("born_on", facts_identity.BORN_ON, facts_identity.birthday),
    Rule("name_is", facts_identity.NAME_IS, facts_identity.name),
    Rule("name_changed", facts_identity.NAME_CHANGED, facts_identity.name),
    Rule("call_me", facts_identity.CALL_ME, facts_identity.name),
    Rule("im_name", facts_identity.IM_NAME, facts_identity.name),
    Rule("pet_gone", facts_things.PET_GONE, facts_things.pet_gone),
    Rule("pet_put_down", facts_things.PET_PUT_DOWN, facts_things.pet_gone),
    Rule("job_loss", facts_work.JOB_LOSS, facts_work.job_loss),
    Rule("leave", facts_work.LEAVE, facts_work.leave),
    Rule("day_at", facts_work.DAY_AT, facts_work.still_at),
    Rule(
        "friends_no_more",
        facts_people.FRIENDS_NO_MORE,
        facts_people.friends_no_more,
        negatable=True,
    ),
    Rule("partner_pair", facts_people.PARTNER_PAIR, facts_people.partner_pair),
    Rule("breakup", facts_people.BREAKUP, facts_people.breakup),
    Rule("breakup_pair", facts_people.BREAKUP_PAIR, facts_people.breakup_pair),
    Rule("breakup_bare", facts_people.BREAKUP_BARE, facts_people.breakup),
    Rule("owns_gone", facts_things.OWNS_GONE, facts_things.owns_gone),
    Rule("project_done", facts_work.PROJECT_DONE, facts_work.project_done),
    Rule("off_project", facts_work.OFF_PROJECT, facts_work.off_project),
    Rule("seeing_someone", facts_people.SEEING_SOMEONE, facts_people.seeing_someone),
    Rule("partner", facts_people.PARTNER, facts_people.partner),
    Rule("has_partner", facts_people.HAS_PARTNER, facts_people.has_partner),
    Rule("poss_rel", facts_people.POSS_REL, facts_people.poss_relation),
    Rule("rel_is", facts_people.REL_IS, facts_people.relation),
    Rule("is_rel", facts_people.IS_REL, facts_people.relation),
    Rule("have_rel", facts_people.HAVE_REL, facts_people.relation),
    Rule("reports_to_me", facts_work.REPORTS_TO_ME, facts_work.reports_to_me),
    Rule("report_to", facts_work.REPORT_TO, facts_work.reports_to),
    Rule("no_manager", facts_work.NO_MANAGER, facts_work.no_manager, negatable=True),
    Rule("move", facts_place.MOVE, facts_place.moves),
    Rule("move_bare", facts_place.MOVE_BARE, facts_place.move_bare),
    Rule("move_date", facts_place.MOVE_DATE, facts_place.move_date),
    Rule("live", facts_place.LIVE, facts_place.lives),
    Rule("home", facts_place.HOME, facts_place.home),
    Rule("be_in", facts_place.BE_IN, facts_place.be_in),
    Rule("still_in", facts_place.STILL_IN, facts_place.still_in),
    Rule("here_in", facts_place.HERE_IN, facts_place.here_in),
    Rule("living_bare", facts_place.LIVING_BARE, facts_place.living_bare),
    Rule("still_at", facts_work.STILL_AT, facts_work.still_at),
    Rule("join", facts_work.JOIN, facts_work.join),
    Rule("new_job", facts_work.NEW_JOB, facts_work.new_job),
    Rule("took_job", facts_work.TOOK_JOB, facts_work.took_job),
    Rule("hired_me", facts_work.HIRED_ME, facts_work.hired_me),
    Rule("hired_me_after_call", facts_work.HIRED_ME_AFTER_CALL, facts_work.hired_me_after_call),
    Rule("employer", facts_work.EMPLOYER, facts_work.employer),
    Rule("job_title", facts_work.JOB_TITLE, facts_work.job_title),
    Rule("title_is", facts_work.TITLE_IS, facts_work.title_is),
    Rule("work_as", facts_work.WORK_AS, facts_work.job_title),
    Rule("title_bare_at", facts_work.TITLE_BARE_AT, facts_work.job_title),
    Rule("title_fragment", facts_work.TITLE_FRAGMENT, facts_work.title_fragment),
    Rule("intro_fragment", facts_work.INTRO_FRAGMENT, facts_work.intro_fragment),
    Rule("works", facts_work.WORKS, facts_work.works),
    Rule("studies", facts_work.STUDIES, facts_work.studies),
    Rule("works_on", facts_work.WORKS_ON, facts_work.works_on),
    Rule("on_named", facts_work.ON_NAMED, facts_work.on_named),
    Rule("project_is", facts_work.PROJECT_IS, facts_work.project_is),
    Rule("project_called", facts_work.PROJECT_CALLED, facts_work.project_called),
    Rule("in_charge", facts_work.IN_CHARGE, facts_work.in_charge),
    Rule("made_me", facts_work.MADE_ME, facts_work.made_me),
    Rule("age", facts_identity.AGE, facts_identity.age),
    Rule("diet_over", facts_identity.DIET_OVER, facts_identity.diet_bare),
    Rule("diet", facts_identity.DIET, facts_identity.diet),
    Rule("diet_bare", facts_identity.DIET_BARE, facts_identity.diet_bare),
    Rule("nationality", facts_identity.NATIONALITY, facts_identity.nationality),
    Rule("from", facts_identity.FROM, facts_identity.from_country),
    Rule("speaks", facts_identity.SPEAKS, facts_identity.speaks),
    Rule("native", facts_identity.NATIVE, facts_identity.speaks),
    Rule("allergic", facts_identity.ALLERGIC, facts_identity.allergy),
    Rule("allergy", facts_identity.ALLERGY, facts_identity.allergy),
    Rule("phone_new", facts_things.PHONE_NEW, facts_things.phone),
    Rule("phone_is", facts_things.PHONE_IS, facts_things.phone),
    Rule("phone_have", facts_things.PHONE_HAVE, facts_things.phone),
    Rule("phone_mine", facts_things.PHONE_MINE, facts_things.phone),
    Rule("phone_any", facts_things.PHONE_ANY, facts_things.phone_any),
    Rule("pet_have", facts_things.PET_HAVE, facts_things.pet_have),
    Rule("pet_named", facts_things.PET_NAMED, facts_things.pet_named),
    Rule("pet_the", facts_things.PET_THE, facts_things.pet_the),
    Rule("pet_named_later", facts_things.PET_NAMED_LATER, facts_things.pet_named_later),
    Rule("owns", facts_things.OWNS, facts_things.owns),
    Rule("drives", facts_things.DRIVES, facts_things.drives),
    Rule("hobby_list", facts_tastes.HOBBY_LIST, facts_tastes.hobby_list),
    Rule("hobby_play", facts_tastes.HOBBY_PLAY, facts_tastes.hobby_play),
    Rule("hobby_start", facts_tastes.HOBBY_START, facts_tastes.hobby_start),
    Rule("hobby_stop", facts_tastes.HOBBY_STOP, facts_tastes.hobby_stop),
    Rule("no_more", facts_tastes.NO_MORE, facts_tastes.no_more, negatable=True),
    Rule("hobby_done", facts_tastes.HOBBY_DONE, facts_tastes.hobby_habit),
    Rule("hobby_mine", facts_tastes.HOBBY_MINE, facts_tastes.hobby_habit),
    Rule("hobby_habit", facts_tastes.HOBBY_HABIT, facts_tastes.hobby_habit),
    Rule("hobby_still", facts_tastes.HOBBY_STILL, facts_tastes.hobby_habit),
    Rule("like_better", facts_tastes.LIKE_BETTER, facts_tastes.like_better),
    Rule("likes", facts_tastes.LIKES, facts_tastes.likes),
    Rule("fav_it", facts_tastes.FAV_IT, facts_tastes.favourite_value),
    Rule("fav_mine", facts_tastes.FAV_MINE, facts_tastes.favourite_value),
    Rule("fav_value", facts_tastes.FAV_VALUE, facts_tastes.favourite_value),
    Rule("favourite", facts_tastes.FAVOURITE, facts_tastes.favourite),
    Rule("fav_replaced", facts_tastes.FAV_REPLACED, facts_tastes.favourite_replaced),
    Rule("fav_no_kind", facts_tastes.FAV_NO_KIND, facts_tastes.favourite_no_kind),
    Rule("dislikes", facts_tastes.DISLIKES, facts_tastes.dislikes, negatable=True),
    Rule("plans", facts_plans.PLANS, facts_plans.plans),
    Rule("mention", facts_people.MENTION, facts_people.mention, exclusive=False),
    Rule("mention_bare", facts_people.MENTION_BARE, facts_people.mention, exclusive=False),
    Rule("their_mention", facts_people.THEIR_MENTION, facts_people.their_mention, exclusive=False),
    Rule(
        "pronoun_mention",
        facts_people.PRONOUN_MENTION,
        facts_people.pronoun_mention,
        exclusive=False,
    ),
)
# What a clause says of who someone is ("my boyfriend Rohan") holds even where the
# clause itself states nothing ("my boyfriend Rohan keeps saying I need a new phone")
_DEADLINES = tuple(rule for rule in RULES if rule.name.startswith("deadline"))
_DEADLINE_WORD = re.compile(
    r"(?i)\b(?:deadline|due|moved|pushed|postponed|delayed|opening|cut-?over|launch|go-?live|"
    r"submission|printers?['’]?\s+date)\b"
)
_MENTIONS = tuple(
    rule
    for rule in RULES
    if rule.name in ("mention", "mention_bare", "their_mention", "pronoun_mention", "pet_the")
)

# ---------------------------------------------------------------------------
# The extractor

_PREDICATES = PredicateRegistry.with_builtins()
_ASSISTANT_ROLES = frozenset({"assistant", "system", "tool", "bot", "ai", "model", "function"})
_LEAD_SUBJECT = re.compile(rf"\s*{SUBJ}")


def speaks_for_user(episode: Episode) -> bool:
    """A user's turn (role user/human, or no role and a speaker that is not a bot)."""
    role = (episode.role or "").strip().lower()
    if role:
        return role not in _ASSISTANT_ROLES
    return episode.speaker.strip().lower() not in _ASSISTANT_ROLES | {"gpt", "chatgpt", "claude"}


# What the rules read of a turn: its first MAX_READ characters (beyond that it is a
# pasted document, still stored and searchable), with any run of more than MAX_TOKEN
# non-space characters blanked (a hash, a base64 blob): the rule regexes would try every
# start inside it, and cost grows with the square of its length.
MAX_READ = 20_000
MAX_TOKEN = 64
_LONG_TOKEN = re.compile(rf"\S{{{MAX_TOKEN + 1},}}")
_LONG_SPACE = re.compile(r"[ \t]{9,}")  # a run of spaces no sentence needs
BLANK = "\u2063"  # what stands for a blanked run: no word, no space, never a value


def _readable_part(text: str) -> str:
    # a symbol, not spaces: the rules allow runs of spaces between words, and thousands of
    # them cost some patterns the square of their length
    text = _LONG_TOKEN.sub(lambda m: BLANK * len(m.group()), text)
    return _LONG_SPACE.sub(lambda m: " " + BLANK * (len(m.group()) - 1), text)


_ASIDE = re.compile(r",\s+(?:[\w'’]+\s*){1,3}$")


def without_aside(predicate: str, value: str | None) -> str | None:
    """A thing's value without the aside the sentence hung on it: "Amélie, obviously"
    -> "Amélie", "knitting, of all things" -> "knitting". Names of places and people
    keep their commas ("Hamilton, Ontario" is read elsewhere)."""
    if value is None or not (predicate in ("hobby", "job_title", "diet")
                             or predicate.startswith("favourite_")):  # fmt: skip
        return value
    cut = _ASIDE.sub("", value).strip()
    return cut or value


# "Ingrid and Jonas moved to Bodø", "she and her boyfriend kees moved to groningen": two
# people who share the clause's move
_PAIR = re.compile(
    rf"^\W*(?:(?i:and|so|oh|also|then)\s+)?(?P<a>{PERSON}|(?i:she|he))\s+(?i:and)\s+"
    rf"(?:(?i:his|her|their)\s+[a-z]+\s+)?(?P<b>{PERSON})\s"
)
_SHARED = frozenset({"lives_in"})


def _the_other_of_a_pair(x: Turn, c: Clause, found: list[Draft]) -> list[Draft]:
    pair = _PAIR.match(c.s)
    if pair is None:
        return []
    a, b = (x.subject(pair.group(g), c.span) for g in ("a", "b"))
    if a is None or b is None or not a.name or a.name == b.name:
        return []
    out = []
    for d in found:
        for one, other in ((b.name, a.name), (a.name, b.name)):
            if d.predicate in _SHARED and d.subject == one and not d.side:
                twin = replace(d, subject=other)
                if not any((f.subject, f.predicate, f.object) == (other, d.predicate, d.object)
                           for f in found):  # fmt: skip
                    out.append(twin)
    return out


def _vaguer_values(drafts: list) -> set[int]:
    """The drafts whose value a more specific one of the same turn and one-valued key
    spells out: "an iPhone 16 for christmas, so I'm back to iphone" says one phone, the
    iPhone 16, not two changes ending on "iPhone"."""
    values: dict[tuple[str, str], list[str]] = {}
    for d in drafts:
        pred = _PREDICATES.get(d.predicate) if d.predicate in _PREDICATES else None
        if d.op != "retract" and d.object and pred is not None and pred.functional:
            values.setdefault((d.subject, d.predicate), []).append(d.object.casefold().split())
    return {
        i
        for i, d in enumerate(drafts)
        if d.op != "retract" and d.object
        and any(len(other) > len(words) and other[: len(words)] == words
                for words in [d.object.casefold().split()]
                for other in values.get((d.subject, d.predicate), []))
    }  # fmt: skip


# "Honestly now Kotlin is my favourite": a word about the time or the speaker's mood that
# stood before the value is not part of it
_LEADING_ADVERB = re.compile(
    r"(?i)^(?:(?:now|currently|honestly|actually|definitely|probably|still|also|"
    r"officially|finally|these\s+days|at\s+the\s+moment)\s+)+(?=\S)"
)


_TITLED = frozenset({"favourite_film", "favourite_book", "favourite_music"})


def plain_value(predicate: str, value: str | None, at: datetime) -> str | None:
    """The value without a leading "now"/"honestly", or None where what was read is only
    a time ("my new manager since monday is sanne" read "Since Monday" as the manager)."""
    if value is None or _PREDICATES.get(predicate).object_type in ("Date", "Age"):
        return value
    value = _LEADING_ADVERB.sub("", value)
    if predicate in _TITLED:  # "Stalker by Tarkovsky": the title, not who made it
        value = re.sub(r"\s+by\s+[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*)*$", "", value) or value
    times = find_time_expressions(value, at)
    if times and times[0].span == (0, len(value)):
        return None
    return value


# a turn or sentence that announces whom it is about: "Rafa news!!", "Update on Rafa:"
_TOPIC_PERSON = re.compile(
    rf"(?:^|(?<=[.!?\n])\s*)(?:(?i:update\s+on|news\s+about|news\s+on)\s+(?P<a>{PERSON})"
    rf"|(?P<b>{PERSON})\s+(?i:news|update|updates))\b"
)
# "Mariana got promoted, she's head nurse now": news that opens on a person makes them
# who a "she" or "he" after it is
_NEWS_OF = re.compile(
    rf"(?:^|(?<=[.!?\n,;])\s*)(?P<a>{PERSON})\s+(?:(?i:just|finally|has|had)\s+)?(?i:got|called|rang|"
    r"phoned|texted|messaged|visited|came\s+(?:over|round|by)|dropped\s+by)\b"
    # "I met Ernesto at the fish fry ... He has a dog": who "he" is next
    rf"|\b(?i:met|meeting|dating|seeing)\s+(?P<b>{PERSON})(?![\w'’])"
)
_NAME_GIVEN = re.compile(
    rf"\b(?P<pro>[Hh]is|[Hh]er)\s+name(?:['’]s|\s+is)\s+(?P<n>{PERSON})(?![\w'’])"
)
_NEW_JOB = ("works_at", "job_title")
# "I start on 3 February", "she starts March 2", "start July 14" (the "I" dropped)
_START_DAY = re.compile(
    r"(?:\b(?:I|i|she|he|they)\s+|(?:^|(?<=[.!?,;:]))\s*)(?i:start|starts|started|begin|begins|began)"
    r"(?:\s+(?:there|work|the\s+job))?\s+"
)


def _date_the_new_job(x: Turn) -> None:
    """ "I accepted an offer from Bolha! I'll be lead designer, I start on 3 February":
    the employer and the title of one new job start on the day the turn gives for it."""
    hired = {d.subject for d in x.drafts if d.predicate in _NEW_JOB and d.op != "retract"}
    if len(hired) != 1:
        return
    who = hired.pop()
    ahead = [t for t in find_time_expressions(x.text, x.ts, prefer="future")
             if t.interval.start > x.ts]  # fmt: skip
    dated = [(d.predicate, d.valid_from, d.time_text) for d in x.drafts
             if d.predicate in _NEW_JOB and d.op != "retract" and d.subject == who
             and d.time_text in {t.text for t in ahead}]  # fmt: skip
    said = _START_DAY.search(x.text)
    if not dated and said:  # "I got the job at Nuvemar! I start on 4 September."
        on = [t for t in ahead if t.span[0] == said.end()]
        dated = [("", on[0].interval.start, on[0].text)] if on else []
    if len(dated) != 1:
        return
    predicate, start, text = dated[0]
    for d in x.drafts:  # undated, so starting at the turn
        if (d.predicate in _NEW_JOB and d.predicate != predicate and d.subject == who
                and d.op == "supersede" and d.time_text is None):  # fmt: skip
            d.valid_from, d.time_text = start, text


# An organisation's full name, as it was said: "Mayo Clinic", "Minster Park School". A
# later short form ("took the Mayo job", "two weeks at Minster Park") is that organisation.
# A legal form ("Medivera GmbH") is not how people name their employer: not taken.
_ORG_NAME = re.compile(
    r"\b(?:[A-Z][\w&'’.\-]*\s+){1,4}(?:School|Clinic|Hospital|Library|University|College|"
    r"Health|Healthcare|Bank|Group|Labs?|Studio|Studios|Agency|Centre|"
    r"Center|Institute|Foundation|Council|Academy|Pharmacy|Apotheke|Systems|Technologies|"
    r"Digital|Tech|Partners|Media|Foods|Motors|Airlines|Vets|Consulting|Logistics|Insurance|"
    r"Software|Solutions|Services|Works|Industries|Energy|Robotics|Analytics|Capital)\b"
)
_ORG_PREDICATES = frozenset({"works_at", "studies_at"})


def full_org_name(value: str | None, said: list[str]) -> str | None:
    """The full name of an organisation ``value`` shortens, among those ``said`` (newest
    last), else ``value``.

    >>> full_org_name("Mayo", ["Mayo Clinic"]), full_org_name("Acme", ["Mayo Clinic"])
    ('Mayo Clinic', 'Acme')
    """
    if not value:
        return value
    part = value.casefold().split()
    for whole in reversed(said):
        words = whole.casefold().split()
        if len(part) < len(words) and words[: len(part)] == part:
            return whole
    return value


def accented_spelling(value: str | None, said: list[str]) -> str | None:
    """The spelling with accents of ``value`` among those ``said``, where the speaker typed
    it both ways ("wrocław" once, "wroclaw" after): one place, written as its name is.

    >>> accented_spelling("Wroclaw", ["Wrocław"]), accented_spelling("Leeds", ["Wrocław"])
    ('Wrocław', 'Leeds')
    """
    if not value or not value.isascii():
        return value
    key = normalise_name(value)
    return next((s for s in reversed(said) if not s.isascii() and _ascii_key(s) == key), value)


# letters no accent strip reaches (NFKD leaves them whole)
_OWN_LETTERS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                              "ß": "ss", "æ": "ae", "Æ": "Ae", "œ": "oe", "ı": "i"})  # fmt: skip


def _ascii_key(name: str) -> str:
    return normalise_name(name.translate(_OWN_LETTERS))


def _as_known(value: str | None, known: str | None) -> str | None:
    """A value stated in passing that is part of the one on record names that one: "my
    Galaxy screen cracked" with a Galaxy S24 on record is the Galaxy S24, not a new phone.

    >>> _as_known("Galaxy", "Galaxy S24"), _as_known("nurse", "head nurse"), _as_known("Leeds", "York")
    ('Galaxy S24', 'head nurse', 'Leeds')
    """
    if not value or not known:
        return value
    part, whole = value.casefold().split(), known.casefold().split()
    if 0 < len(part) < len(whole) and any(
        whole[i : i + len(part)] == part for i in range(len(whole) - len(part) + 1)
    ):
        return known
    return value


class RuleExtractor:
    """Deterministic, offline extraction of facts people state about themselves and others.

    ``include_assistant``: also read assistant/system turns, for third-party facts only.
    ``memory_size``: how many (scope, speaker) memories to keep for corrections.
    """

    name = "rules"
    version = "1"

    def __init__(self, *, include_assistant: bool = False, memory_size: int = 4096, embedder=None):
        self.include_assistant = include_assistant
        self.memory_size = memory_size
        self._memory: OrderedDict[tuple[str, str], SpeakerMemory] = OrderedDict()
        # With an embedder, clauses no rule reads go to the frame classifier.
        self.frames = FrameReader(embedder) if embedder is not None else None

    def reset(self) -> None:
        """Forget what was said before (the correction memory)."""
        self._memory.clear()

    def _memory_for(self, scope: str, speaker: str) -> SpeakerMemory:
        key = (scope, speaker)
        memory = self._memory.pop(key, None) or SpeakerMemory()
        self._memory[key] = memory
        while len(self._memory) > self.memory_size:
            self._memory.popitem(last=False)
        return memory

    def extract(self, episode: Episode) -> list[CandidateFact]:
        bot = not speaks_for_user(episode)
        if (bot and not self.include_assistant) or speaks_as_system(episode.text):
            return []
        text = _readable_part(mask(truecase(episode.text[:MAX_READ])))
        x = Turn(episode, self._memory_for(episode.scope, episode.speaker), not bot, text)
        for m in _TOPIC_PERSON.finditer(text):  # "Rafa news!! she left ...": she is Rafa
            x.memory.named(m.group("a") or m.group("b"), None)
        for m in _NAME_GIVEN.finditer(text):  # "Her name is Sakura ... She is a designer"
            if m.group("n").lower() not in NAME_STOPWORDS:
                x.memory.named(m.group("n"), "he" if m.group("pro").lower() == "his" else "she")
        for m in _NEWS_OF.finditer(text):
            name = m.group("a") or m.group("b")
            if name.lower() not in NAME_STOPWORDS and not is_common_word(name.split()[0]):
                x.memory.named(name, None)
        times = find_time_expressions(text, episode.timestamp)
        pending, muted = None, -1
        unread: list[Clause] = []  # clauses for the frame reader, with what the rules found
        found: list[set[str]] = []
        he_she = None  # the last clause opened on "he"/"she": (its pronoun, where it ended)
        for start, end, elided, sentence in split_clauses(text):
            if sentence == muted:
                continue  # the rest of a request to the assistant is its content, not a fact
            dropped = "I" if x.first_person else None
            if he_she and "\n" not in text[he_she[1] : start]:
                # "hes coming home! got a job at Port Taranaki": on the same line, the
                # dropped subject is still him
                dropped = he_she[0]
            c = read_clause(
                text, start, end, elided=elided, times=times, pending=pending, last_who=x.last_who,
                dropped=dropped,
            )  # fmt: skip
            pending = None
            if marker_only(c):
                pending = mark_for_next(c, text[start:end])
                continue
            if recalls_a_slip(c.text, text):
                recalled = self._recalled(x, c, text, times)
                x.recalled = recalled or x.recalled
                x.recalled_unread = recalled is None
                pending = "strong"  # what follows is the right value
                continue
            if calls_it_wrong(c.text):
                pending = "strong"
                continue
            if mutes_sentence(c.text):
                muted = sentence
                continue
            lead = _LEAD_SUBJECT.match(c.s)
            if lead and not c.prefix:
                x.last_who = lead.group("who")
            if lead and not c.prefix:
                pronoun = re.fullmatch(r"(?i)(he|she)s?", lead.group("who").strip())
                he_she = (pronoun.group(1).lower(), end) if pronoun else None
            if blocked(c.text):
                if only_reported(c.text) and _DEADLINE_WORD.search(c.text):
                    for rule in _DEADLINES:  # "Ulrike says opening is moved to 15 May"
                        m = rule.regex.search(c.s)
                        if m is not None and (drafts := rule.handler(x, c, m)):
                            for draft in drafts:
                                add(x, draft)
                            break
                for rule in _MENTIONS:
                    if (m := rule.regex.search(c.s)) is not None:
                        for draft in rule.handler(x, c, m) or ():  # None: not applicable
                            add(x, draft)
                continue
            before = len(x.drafts)
            self._apply(x, c)
            if not c.correction and not c.negated:
                unread.append(c)
                found.append({d.predicate for d in x.drafts[before:]})
        if self.frames is not None and unread:
            for draft in self.frames.read(x, unread, found):
                add(x, draft)
        for draft in swapped_values(x):
            add(x, draft)
        x.remember_places()
        x.memory.org_names = [*x.memory.org_names, *(m.group() for m in _ORG_NAME.finditer(text))][
            -64:
        ]
        return self._finish(x)

    def _recalled(
        self, x: Turn, c: Clause, text: str, times: list
    ) -> tuple[str, str, str | None] | None:
        """The fact an "I told you Nour moved to Evanston" clause repeats, read as if it
        were said now but not kept: what the turn's correction is about."""
        start = c.start + recalled_statement(c.text)
        said = read_clause(text, start, c.end, elided=False, times=times, pending=None,
                           last_who=x.last_who, dropped="I" if x.first_person else None)  # fmt: skip
        drafts, who = list(x.drafts), x.last_who
        self._apply(x, said)
        read = [d for d in x.drafts[len(drafts) :] if not d.side]
        x.drafts, x.last_who = drafts, who
        if read:
            return read[0].subject, read[0].predicate, read[0].object
        # "I keep saying Bryngwyn Garden Centre, but ...": a value alone, one on record
        bare = re.split(r"\s*(?:,|\bbut\b|\bwhen\b)", text[start : c.end])[0].strip(" .!")
        return next(
            ((s, p, o) for s, p, o in reversed(x.memory.said) if bare and same_value(bare, o)), None
        )

    def _apply(self, x: Turn, c: Clause) -> None:
        """Run the rules over one clause and add what they read to the turn's drafts."""
        taken: list[tuple[int, int]] = []
        found: list[Draft] = []
        x.clause_drafts = found  # what this clause has read so far, for later rules
        # the negation is read off the clause's first part: a match after its first comma
        # is outside it ("I ain't pescatarian no more, me and Andre went vegan")
        comma = c.s.find(",")
        plain = replace(c, negated=False, ceased=False) if c.negated and comma > 0 else c
        for rule in RULES:
            # the first match that states something; one that states nothing lets a later
            # one speak
            for m in rule.regex.finditer(c.s):
                here = plain if c.negated and 0 < comma < m.start() else c
                if here.negated and not here.ceased and not rule.negatable and rule.exclusive:
                    continue
                if rule.exclusive and any(m.start() < e and b < m.end() for b, e in taken):
                    continue
                drafts = rule.handler(x, here, m)
                if drafts is None:
                    continue
                if rule.exclusive:
                    taken.append(m.span())
                    if "who" in m.re.groupindex and m.group("who"):
                        x.last_who = m.group("who")
                found.extend(drafts)
                if drafts or not rule.exclusive:
                    break
        # a fact the clause retracts is not also stated by it
        retracted = {
            (d.subject, d.predicate, (d.object or "").lower()) for d in found if d.op == "retract"
        }
        found = [
            d
            for d in found
            if d.op == "retract"
            or (d.subject, d.predicate, (d.object or "").lower()) not in retracted
        ]
        found += _the_other_of_a_pair(x, c, found)
        for draft in corrected(x, c, found):
            add(x, draft)

    def _finish(self, x: Turn) -> list[CandidateFact]:
        """The turn's drafts as candidate facts; remember them for later corrections."""
        episode, out = x.episode, []
        _date_the_new_job(x)
        # A key this turn changes: another value of it stated plainly is the old one, as
        # context ("my Galaxy screen cracked, so I switched to an iPhone 16").
        changed = {(d.subject, d.predicate): d.object for d in x.drafts if d.op == "supersede"}
        # Two values of a one-valued key stated for the same time: the later says more
        # ("living in Canada, and at the moment I live in Brandon")
        last_said = {(d.subject, d.predicate, d.valid_from): i for i, d in enumerate(x.drafts)
                     if d.op == "assert" and d.predicate in _PREDICATES
                     and _PREDICATES.get(d.predicate).functional}  # fmt: skip
        vague = _vaguer_values(x.drafts)
        for i, d in enumerate(x.drafts):
            if last_said.get((d.subject, d.predicate, d.valid_from), i) != i or i in vague:
                continue
            if d.predicate not in _PREDICATES or (
                d.object and (contains_secret(d.object) or BLANK in d.object)
            ):
                continue
            new = changed.get((d.subject, d.predicate))
            if d.op == "assert" and new and new.casefold() != (d.object or "").casefold():
                continue
            value = plain_value(
                d.predicate, without_aside(d.predicate, d.object), episode.timestamp
            )
            if value is None and d.object is not None:
                continue
            d.object = value
            if not d.side:
                x.memory.last = (d.subject, d.predicate)
            pred = _PREDICATES.get(d.predicate)
            if d.predicate in _ORG_PREDICATES:
                d.object = full_org_name(d.object, x.memory.org_names)
            d.object = accented_spelling(d.object, [v for *_, v in x.memory.said])
            if d.op == "assert" and pred.functional:
                d.object = _as_known(d.object, x.memory.known.get((d.subject, d.predicate)))
            elif d.op == "supersede" and d.predicate == "phone" and d.object:
                # "back on the iphone" with an iPhone 12 on record: no new phone, the same
                known = x.memory.known.get((d.subject, d.predicate)) or ""
                if known.casefold().split()[: len(d.object.split())] == d.object.casefold().split():
                    d.object = known
            if d.op != "retract" and d.object and (d.predicate == "works_on" or pred.functional):
                x.memory.known[(d.subject, d.predicate)] = d.object
            if d.op != "retract" and d.object and not d.side:
                x.memory.said = [*x.memory.said[-63:], (d.subject, d.predicate, d.object)]
            out.append(
                CandidateFact(
                    op=d.op,
                    subject=d.subject,
                    predicate=d.predicate,
                    object=d.object,
                    wrong_object=d.wrong_object,
                    valid_from=d.valid_from,
                    valid_to=d.valid_to,
                    scope=episode.scope,
                    confidence=d.confidence,
                    subject_type=pred.subject_type,
                    object_type=pred.object_type,
                    provenance=Provenance(
                        episode_id=episode.id,
                        session=episode.session,
                        span=d.span,
                        extractor=RuleExtractor.name,
                        extractor_version=RuleExtractor.version,
                        time_expression=d.time_text,
                        reference_time=episode.timestamp,
                        source=episode.source,
                        change=d.change,
                    ),
                )
            )
        return out
