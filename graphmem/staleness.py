"""Is an answer stale? A later turn on the same topic that stated nothing the store kept.

``ask`` answers from the facts the extractor kept. When the owner spoke about the same
thing ("started the new job on Monday!") in words the extractor did not read, the kept
value is probably out of date (or a timeline incomplete), and saying it would be a
confident wrong answer. ``unread_turn`` finds such a turn: said in the stretch an unread
change could hide in (after the family's last write, or within a timeline's window)
and no later than the question, by the subject (first person, for the owner) or naming them
(for anyone else), with a clause the frame classifier (``graphmem.extraction.frames``)
reads as stating or ending this predicate. ``ask`` then says it does not know and quotes
the turn. Without an embedding model there is no classifier, and no check.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache

from graphmem.extraction.clauses import drops_subject
from graphmem.model import Episode, normalise_name
from graphmem.store.protocol import Backend, RowQuery
from graphmem.time.bounds import TemporalBounds

# How sure the frame classifier must be that a later clause is about the predicate
# (chosen on the dev authors' conversations, bench/e2e_eval.py).
TOPIC_THRESHOLD = 0.75
# A set's members are stated in passing ("choir on Thursdays is the best bit of my
# week"), so a missed one is looked for at a lower bar (dev e2e: 0.75 -> 0.6 removed 3
# wrong set answers and no right one; 0.45 cost right ones).
SET_TOPIC_THRESHOLD = 0.6
# ... and without an operation read, only at this bar
SURE_TOPIC = 0.8
_DROPPED = re.compile(r"(?i)\s*(?:renting|rented|found|bought|signed|writing\s+from)\b")
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|our|us)\b")


@cache
def _relatives() -> re.Pattern:
    """ "My brother (Long) ...", "our neighbour ...": a clause that opens on a relative
    is about them, its "my" only says whose ("My brother moved to Seattle" is not the
    owner's move; "moved in with my boyfriend" still is)."""
    from graphmem.extraction.lexicon import RELATIVE_WORDS

    words = "|".join(sorted((re.escape(w) for w in RELATIVE_WORDS), key=len, reverse=True))
    return re.compile(
        rf"(?i)^\W*(?:(?:and|so|also|plus|oh|btw|well|but)\W+)*(?:my|our)\s+(?:\w+\s+)?"
        rf"(?:{words})(?:s|es)?(?:['’]s)?\b"
    )


@cache
def _reader(embedder):
    from graphmem.extraction.frames import FrameReader

    return FrameReader(embedder)


def unread_turn(
    backend: Backend,
    embedder,
    *,
    scope: str,
    subject_id: str,
    subject_names: list[str],
    owner: bool,
    predicate: str,
    until: datetime,
    since: datetime | None = None,
    threshold: float = TOPIC_THRESHOLD,
    restated_ok: bool = True,
) -> Episode | None:
    """The first turn after ``since`` (default: the family's last write), up to
    ``until``, that speaks of ``predicate`` for this subject and wrote nothing to it.
    ``restated_ok``: a clause that only names a value on record does not count (a
    history, which claims to be whole, passes False: any unread turn counts)."""
    if embedder is None:
        return None
    family = backend.rows(RowQuery(scope=scope, subject_id=subject_id, predicate=predicate,
                                   bounds=TemporalBounds.history()))  # fmt: skip
    if not family:
        return None
    if since is None:
        since = max(r.recorded_at for r in family)
    said = {r.provenance.episode_id for r in family}
    names = [n for n in (normalise_name(x) for x in subject_names) if n]
    values = {_folded(r.object) for r in family if r.object} if restated_ok else set()
    reader = _reader(embedder)
    from graphmem.extraction.frames import clause_texts

    for episode in backend.episodes(scope):
        if not since < episode.timestamp <= until or episode.id in said:
            continue
        if episode.role not in (None, "user"):
            continue
        texts = clause_texts(episode.text)
        if any(_restates(c, values) for c in texts):
            continue  # "Khoa proposed on Christmas! We're engaged.": the turn is about him
        clauses = [c for c in _clauses_about(texts, owner, names) if not _NEVER.search(c)]
        for ranked, op in reader.classify(clauses):
            # a clause the classifier is sure is about the predicate counts even where it
            # reads no operation ("Renting a room in Hillevåg, so back in Stavanger")
            bar = threshold if op != "none" else max(threshold, SURE_TOPIC)
            if any(p == predicate and prob >= bar for p, prob in ranked[:1]):
                return episode
    return None


# Words that say a value changed or ended, whatever else the clause names
_CHANGE_CUE = re.compile(
    r"(?i)\b(?:no\s+longer|not\s+any\s*more|any\s*more|quit|quitting|left|leaving|leave|"
    r"stopp?(?:ed|ing)?|gave\s+up|giving\s+up|ex|moved\s+out|moving|move|broke\s+up|split|"
    r"sold|selling|died|dead|passed|replac\w*|instead|switch\w*|swap\w*|new|former|old|"
    r"used\s+to|back\s+to|until|till|retir\w*|fired|laid\s+off|resign\w*|dropp\w*|not|from|"
    r"moved|relocat\w*|got|bought|joined|start\w*|promot\w*|became|become|now|notice|"
    r"first|last|hand(?:ed|ing)|finish\w*|end(?:ed|ing|s)?|over|done|off|adopt\w*|rescu\w*|"
    r"welcom\w*|another|second|too|also|plus|added)\b"
)
_OWN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe"})


def _folded(text: str) -> str:
    return normalise_name(text.lower().translate(_OWN_LETTERS))


def _restates(clause: str, values: set[str]) -> bool:
    """ "I'm still pescatarian", "Khoa proposed! We're engaged", "the iPhone 15 is fine":
    a clause naming a value on record, with no word of a change, is about that value, not
    a change the store missed."""
    if _CHANGE_CUE.search(clause):
        return False
    words = f" {_folded(clause)} "
    return any(v and f" {v} " in words for v in values)


# "I have never lived in Austin": what never held changes nothing
_NEVER = re.compile(r"(?i)\bnever\b")
_PRONOUN_LEAD = re.compile(
    r"(?i)^\W*(?:(?:and|so|also|plus|oh|btw|but)\W+)*(?:he|she|they|hes|shes)\b"
)


def _clauses_about(clauses: list[str], owner: bool, names: list[str]) -> list[str]:
    """The clauses about the subject; for someone else, also a clause that opens on
    "he"/"she" after one that named them ("Nikau's coming home! he got a job at the port")."""
    out, named = [], False
    for clause in clauses:
        if _about(clause, owner, names):
            out.append(clause)
            named = True
        elif named and not owner and _PRONOUN_LEAD.match(clause):
            out.append(clause)
    return out


def _about(clause: str, owner: bool, names: list[str]) -> bool:
    if owner:  # "I moved", or "Moved on 15 March as planned" with the "I" left out
        own = _relatives().sub(" ", clause)
        return bool(_FIRST_PERSON.search(own) or drops_subject(clause) or _DROPPED.match(clause))
    words = f" {normalise_name(clause)} "
    return any(f" {n} " in words for n in names)
