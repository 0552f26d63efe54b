"""One turn being read: who its clauses are about, and the facts drafted from them.

Subjects: "I/me/my" -> the episode's speaker; "my sister Ana" -> ``Ana`` plus
``sibling(speaker, Ana)`` (and later "my sister" -> Ana); a capitalised name -> that
person; "he/she" -> the last person named by that speaker (this or an earlier turn);
"we" -> the speaker, but only for where they live and what they own (``lives_in``,
``owns_pet``, ``owns``). Unnamed people ("my grandmother lives in Sicily") yield
nothing. On an assistant's turn "I" is never the user: only third parties are subjects.
Confidence is 0.8, 0.7 for subjects found through memory, 0.6 for "he/she".

Every handler ends in :func:`emit`, which gives what it read a subject and a valid
interval (:mod:`graphmem.extraction.timing`) and returns :class:`Draft` facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.extraction.clauses import Clause
from graphmem.extraction.gazetteer import places_named
from graphmem.extraction.lexicon import (
    NAME_STOPWORDS,
    PET_SPECIES,
    PLACES,
    PLURAL_SPECIES,
    PRONOUN_OF,
    RELATIONS,
    relative_name,
    relative_word,
)
from graphmem.extraction.patterns import PERSON, REL, relation_word
from graphmem.extraction.secrets import contains_secret
from graphmem.extraction.timing import TIMELESS, valid_time
from graphmem.extraction.truecase import is_common_word
from graphmem.model import Episode
from graphmem.time.instant import NEG_INF, POS_INF, is_open_end
from graphmem.time.natural import TimeExpression, find_time_expressions

_HOUSEHOLD = frozenset({"lives_in", "owns_pet", "owns"})  # what "we ..." says about the speaker


@dataclass
class Draft:
    """A fact in the making (a :class:`~graphmem.model.CandidateFact` once the turn is read)."""

    op: str
    subject: str
    predicate: str
    object: str | None
    valid_from: datetime
    valid_to: datetime
    span: tuple[int, int]
    time_text: str | None = None
    wrong_object: str | None = None
    confidence: float = 0.8
    side: bool = False  # a relation read off a mention ("my sister Ana"), not the main fact
    change: bool = False  # told as a change into the value (Provenance.change)


@dataclass
class SpeakerMemory:
    """What the extractor remembers of one (scope, speaker) between episodes."""

    last: tuple[str, str] | None = None  # (subject, predicate) of the last main fact
    people: dict[str, str] = field(default_factory=dict)  # "wife" -> "Maria"
    pets: dict[str, str] = field(default_factory=dict)  # "cat" -> "Tom"
    known: dict[tuple[str, str], str] = field(default_factory=dict)  # (subj, pred) -> object
    # every value stated lately, sets too (what a correction's "not X" can name), newest last
    said: list[tuple[str, str, str]] = field(default_factory=list)
    # the people named lately, newest last, with the pronoun each takes (None: either)
    # and the turn that named them
    recent_people: list[tuple[str, str | None, int]] = field(default_factory=list)
    turn: int = 0  # how many turns of this speaker have been read
    session: str | None = None

    # the start of the last future change the speaker dated, and the turn that dated it
    future: tuple[datetime, int] | None = None
    # the places the speaker's last turn named, and that turn: where a move whose place
    # is left out goes ("I got an offer in Fukuoka." then "I move on 1 July.")
    places: tuple[list[str], int] = ([], -1)
    # organisations' full names said lately ("Mayo Clinic"), newest last: what a short
    # form later ("the Mayo job") stands for
    org_names: list[str] = field(default_factory=list)

    def upcoming(self, now: datetime) -> datetime | None:
        """The start of a future change dated in this turn or the one before, if still
        ahead: an undated "I'll be ..." next to it belongs to the same change."""
        if self.future is None or self.future[1] < self.turn - 1 or self.future[0] <= now:
            return None
        return self.future[0]

    def next_turn(self, session: str | None) -> None:
        """A new turn of the speaker; a new session forgets who "he" and "she" were, and
        the places said last."""
        self.turn += 1
        if session != self.session:
            self.recent_people, self.session, self.places = [], session, ([], -1)

    def named(self, name: str, pronoun: str | None) -> None:
        self.recent_people = [p for p in self.recent_people if p[0] != name][-7:]
        self.recent_people.append((name, pronoun, self.turn))

    def referent(self, pronoun: str) -> str | None:
        """Who "he" / "she" is: the last person named who can take that pronoun, in this
        turn or the one before (further back, a pronoun is more often someone the
        extractor never read, and guessing gives a third party's facts to the wrong one).

        >>> m = SpeakerMemory(); m.next_turn("s1"); m.named("Tom", "he")
        >>> m.referent("he"), m.referent("she")
        ('Tom', None)
        >>> m.next_turn("s1"); m.next_turn("s1"); m.referent("he") is None
        True
        """
        for name, takes, turn in reversed(self.recent_people):
            if takes in (None, pronoun) and turn >= self.turn - 1:
                return name
        return None


@dataclass
class Subject:
    name: str
    extra: list[Draft]  # relations the subject's own words state ("my sister Ana")
    confidence: float = 0.8
    plural: bool = False  # "we": the speaker and others


# Relatives a speaker calls by the role alone, as a name ("Mum", "Dad", "Grandma")
# chat calls close family by the role alone, "my" dropped: "sis got engaged", "brother's
# moved to Perth", "missus works at the hospital"
_CALLED_BY_ROLE = frozenset(
    {"mother", "father", "grandmother", "grandfather", "sister", "brother", "wife", "husband"}
)


# "I start on 3 February", "starting March 2", "from the 2nd of June": the day a change begins
_START_BEFORE = re.compile(
    r"(?i)\b(?:start|starts|starting|begin|begins|beginning|from|effective|as\s+of)\b[^.!?]{0,20}$"
)


class Turn:
    """Everything one ``extract`` call works with."""

    def __init__(self, episode: Episode, memory: SpeakerMemory, first_person: bool, text: str):
        self.episode, self.memory, self.first_person = episode, memory, first_person
        memory.next_turn(episode.session)
        self.ts = episode.timestamp
        self.text = text  # masked
        self.drafts: list[Draft] = []
        self.clause_drafts: list[Draft] = []  # the clause being read (not yet in drafts)
        self.last_who: str | None = None  # the subject an elided clause borrows
        self._future: list[TimeExpression] | None = None
        # what an "I told you ..." clause recalls (subject, predicate, value): the fact the
        # turn's correction is about
        self.recalled: tuple[str, str, str | None] | None = None
        self.recalled_unread = False  # one was said, but no rule could read it

    def place_before(self, pos: int) -> str | None:
        """The place named last before ``pos`` in this turn, else last in the speaker's
        turn just before (same session)."""
        here = [name for at, name in self._own_places() if at < pos]
        if here:
            return here[-1]
        if any(at < pos for at, _ in places_named(self.text)):
            return None  # "Mum is in Annecy now, she moved on the 5th": not last turn's place
        names, turn = self.memory.places
        return names[-1] if names and turn == self.memory.turn - 1 else None

    def remember_places(self) -> None:
        """Keep this turn's places for a move the next turn leaves without one."""
        self.memory.places = (
            [
                name
                for at, name in self._own_places()
                if not _TRIP.search(self.text, max(0, at - 40), at)
            ],
            self.memory.turn,
        )

    def _own_places(self) -> list[tuple[int, str]]:
        """The places this turn names, less those read as someone else's ("my sister
        lives in Paris")."""
        others = {d.object for d in (*self.drafts, *self.clause_drafts)
                  if d.subject != self.me and d.object}  # fmt: skip
        return [(at, name) for at, name in places_named(self.text) if name not in others]

    @property
    def me(self) -> str | None:
        """Who "I" is: the speaker on a user's turn, nobody on an assistant's."""
        return self.episode.speaker if self.first_person else None

    def future_times(self, c: Clause) -> list[TimeExpression]:
        """Time phrases of the clause read with ``prefer="future"`` (deadlines)."""
        if self._future is None:
            self._future = find_time_expressions(self.text, self.ts, prefer="future")
        return [t for t in self._future if c.start <= t.span[0] and t.span[1] <= c.end]

    def later_start(self, c: Clause) -> TimeExpression | None:
        """The one time still to come said after ``c`` in the turn, where it opens a start
        ("I'll be lead product designer 🎉 I start on 3 February"), else None."""
        self.future_times(c)
        ahead = [t for t in self._future or () if t.span[0] >= c.end and t.interval.start > self.ts]
        if len(ahead) != 1 or not _START_BEFORE.search(self.text, c.end, ahead[0].span[0]):
            return None
        return ahead[0]

    def relation(self, rel_word: str, name: str, span: tuple[int, int]) -> list[Draft]:
        """The speaker's relation to a named person or pet ("my sister Ana")."""
        rel = relation_word(rel_word)
        rel = PLURAL_SPECIES.get(rel, rel)
        predicate = "owns_pet" if rel in PET_SPECIES else RELATIONS.get(rel)
        if not self.first_person:
            return []
        if rel in PET_SPECIES:
            self.memory.pets[rel] = name
        else:
            self.memory.people[rel] = name
            self.memory.named(name, PRONOUN_OF.get(relative_word(rel) or rel))
        if predicate is None:
            return []
        start, end = (NEG_INF, POS_INF) if predicate in TIMELESS else (self.ts, POS_INF)
        return [Draft("assert", self.episode.speaker, predicate, name, start, end, span, side=True)]

    def _someone_else_first(self, referent: str, before: int) -> bool:
        """Whether the turn, before ``before``, names a person the memory has not met,
        while ``referent`` was named in an earlier turn: "Tomás and I are dating! he's an
        architect" is about Tomás, whom no rule registered, not about last week's boss."""
        if any(n == referent and t == self.memory.turn for n, _, t in self.memory.recent_people):
            return False
        known = {n for n, _, _ in self.memory.recent_people} | {self.episode.speaker}
        for m in re.finditer(rf"(?<![\w'’]){PERSON}(?![\w'’])", self.text[:before]):
            first = m.group().split()[0]
            if (
                m.group() in known
                or first in known
                or first.isupper()
                or first.lower() in NAME_STOPWORDS
                or is_common_word(first)
                or first in PLACES
            ):
                continue
            return True
        return False

    def _unnamed(self, rel: str, span: tuple[int, int]) -> Subject | None:
        """ "my brother" with no name known: the owner's unnamed brother, an entity of
        its own ("Maya's brother"), linked to the owner by a set-valued relation."""
        word = relative_word(rel)
        if word is None or not self.first_person:
            return None
        name = relative_name(self.episode.speaker, word)
        self.memory.named(name, PRONOUN_OF.get(word))
        predicate = RELATIONS.get(relation_word(rel))
        extra = []
        if predicate in ("sibling", "parent", "child", "friend"):
            extra.append(Draft("assert", self.episode.speaker, predicate, name, NEG_INF,
                               POS_INF, span, side=True))  # fmt: skip
        return Subject(name, extra, 0.7)

    def subject(self, who: str | None, span: tuple[int, int]) -> Subject | None:
        """Who ``who`` ("I", "my sister Ana", "Ana, my sister,", "Ana", "he") names."""
        if who is None:
            return None
        who = who.strip().rstrip(",").strip()
        if re.match(r"(?i)me\s+and\s", who):  # "me and Andre went vegan": the speaker's too
            who = "I"
        if who.lower() in ("i", "my", "me", "ive"):
            return Subject(self.episode.speaker, []) if self.first_person else None
        if who.lower() == "we":  # the speaker's household: only for places and things
            return (
                Subject(self.episode.speaker, [], 0.7, plural=True) if self.first_person else None
            )
        appositive = re.fullmatch(rf"({PERSON})\s*,\s+(?i:my|our)\s+({REL})\s*,?", who)
        relation = re.fullmatch(rf"(?i:my|our)\s+({REL})(?:\s*,?\s+({PERSON}))?,?", who)
        if appositive or relation:
            if not self.first_person:
                return None
            rel, name = (
                (appositive.group(2), appositive.group(1))
                if appositive
                else (relation.group(1), relation.group(2))
            )
            if name is None:
                key = relation_word(rel)
                name = self.memory.people.get(key) or self.memory.pets.get(key)
                if name:
                    if key in self.memory.people:
                        self.memory.named(name, PRONOUN_OF.get(relative_word(key) or key))
                    return Subject(name, [], 0.7)
                return self._unnamed(rel, span)
            return Subject(name, self.relation(rel, name, span))
        if who.lower() in ("he", "she"):
            name = self.memory.referent(who.lower())
            if name and self._someone_else_first(name, span[0]):
                return None
            return Subject(name, [], 0.6) if name else None
        if relative_word(who) in _CALLED_BY_ROLE:
            # "Mum is moving to Annecy": a parent called by the role is the speaker's
            return self.subject(f"my {who.lower()}", span)
        words = who.split()
        while words and words[0].lower() in NAME_STOPWORDS:
            words.pop(0)
        if not words or any(w.lower() in NAME_STOPWORDS for w in words):
            return None
        if len(words) == 1 and is_common_word(words[0]):
            return None  # "Doctor put me on keto", "Funny story": a word, not a name
        name = " ".join(words)
        self.memory.named(name, None)
        return Subject(name, [])


# "We spent a few days in Barcelona": a place visited is no home a later move goes to
_TRIP = re.compile(
    r"(?i)\b(?:spent|spending|holiday|holidays|trip|visit|visited|visiting|vacation|weekend|"
    r"days\s+in|week\s+in|flew|flying|fly|stopover|layover|conference|honeymoon)\b"
)


def emit(
    x: Turn,
    c: Clause,
    m: re.Match,
    predicate: str,
    objects,
    aspect: str | None,
    *,
    who: str | None = None,
    subject: str | None = None,
    obj_span: tuple[int, int] | None = None,
    timed: bool = True,
) -> list[Draft]:
    """Drafts for ``subject predicate object`` (one per object) with the clause's timing.

    The subject is ``subject``, else who ``who`` (else the match's ``who`` group) names;
    ``aspect`` None: the clause states nothing storable.
    """
    if aspect is None or not objects:
        return []
    subj = Subject(subject, []) if subject else None
    if subj is None:
        if who is None and "who" in m.re.groupindex and m.group("who") is not None:
            who = m.group("who")
        subj = x.subject(who, c.span)
    if subj is None or not subj.name or (subj.plural and predicate not in _HOUSEHOLD):
        return []
    when = valid_time(x, c, predicate, aspect, obj_span, timed)
    if when is None:
        return list(subj.extra)
    op, start, end, time_text, change = when
    if time_text is not None and start > x.ts and not is_open_end(start):
        x.memory.future = (start, x.memory.turn)
    out = list(subj.extra)
    for obj in objects:
        if obj is not None and (not obj.strip() or contains_secret(obj)):
            continue
        out.append(
            Draft(
                op,
                subj.name,
                predicate,
                obj,
                start,
                end,
                c.span,
                time_text,
                confidence=subj.confidence,
                change=change,
            )
        )
    return out
