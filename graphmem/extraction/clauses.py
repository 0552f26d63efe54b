"""Clauses: the units the rules read.

Quoted passages ("...", '...', “...”, `...`) and secrets
(:mod:`graphmem.extraction.secrets`) are blanked out (offsets kept), so no fact is ever
read from a quotation or has a secret as its object. Text is data: nothing in it is
obeyed; it is only matched against the rules.

Sentences are split on ``. ! ? ;`` and newlines, then into clauses at commas/conjunctions
that open a new subject ("..., and my sister Ana lives ...") or an elided one ("Ana
lives in Porto and works at Sonae": the second clause borrows "Ana"). A clause's opening
and closing words are read here too: discourse markers ("ok so", "btw,") are skipped,
and correction markers ("sorry,", "I meant", "actually,", "No,", "..., not Berlin") are
noted on the :class:`Clause` for :mod:`graphmem.extraction.corrections`.

>>> text = "I live in Berlin, and my sister Ana lives in Porto."
>>> [text[s:e] for s, e, _, _ in split_clauses(text)]
['I live in Berlin', 'my sister Ana lives in Porto.']
>>> mask_quotes('She said "I live in Oslo" to me') == 'She said ' + ' ' * 16 + ' to me'
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphmem.extraction.guards import negation
from graphmem.extraction.lexicon import PET_SPECIES, RELATIONS, words
from graphmem.extraction.objects import clean
from graphmem.extraction.patterns import PERSON, REL
from graphmem.extraction.secrets import find_secrets
from graphmem.time.natural import TimeExpression

# ---------------------------------------------------------------------------
# Masking, sentences, clauses

_QUOTED = re.compile(
    r"\"[^\"\n]*\"|“[^”\n]*”|«[^»\n]*»|`[^`\n]*`|‘[^’\n]*’"
    r"|(?<![\w])'(?=\S)[^'\n]*?(?<=\S)'(?![\w])"
)


# A quoted title is a name, not speech: "deadline for 'Endgame Steps' is moved to ..."
_QUOTED_NAME = re.compile(
    r"[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|of|the|and|de|en|in|on|la|le|du|for)){0,4}"
)


def mask_quotes(text: str) -> str:
    """``text`` with quoted passages (and their quote marks) blanked out, offsets
    unchanged; a quoted name keeps its words ("we call it 'Opening Compass'")."""

    def blank(m: re.Match) -> str:
        inner = m.group()[1:-1]
        if _QUOTED_NAME.fullmatch(inner) and not inner.split()[-1].islower():
            return " " + inner + " "
        return " " * len(m.group())

    return _QUOTED.sub(blank, text)


def _blank(text: str, spans) -> str:
    """``text`` with each ``(start, end)`` span blanked out."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


# "lives up in Flagstaff", "moved down to Naples", "works out at the mill": the particle
# says nothing the rules need, so it is blanked ("lives    in Flagstaff").
_PARTICLE = re.compile(
    r"(?i)(?<=[a-z] )(?:up|down|over|out|across|away|back)(?= (?:in|to|at|near)\b)"
)


# "me sister aoife", "mi phone": the possessive of Irish, northern English and Caribbean
# chat, read as "my" (same length, so offsets hold)
_DIALECT_MY = re.compile(
    rf"(?i)\b(?:me|mi)(?=\s+(?:(?:{'|'.join(sorted(RELATIONS, key=len, reverse=True))}|"
    rf"{'|'.join(sorted(PET_SPECIES, key=len, reverse=True))}|phone|job|house|flat|place|"
    r"boss|manager|missus|fella|da|mam|ma|nan|gran)\b))"
)


# "updates:\n- moved to Daly City\n- new phone": a list's bullets, so each item reads as
# a clause of its own that starts with its verb
_BULLET = re.compile(r"(?m)^[ \t]{0,8}(?:[-*•·–—]|\d{1,2}[.)])[ \t]{1,4}")


def mask(text: str) -> str:
    """``text`` with quoted passages and secrets blanked out, offsets unchanged; direction
    particles before a preposition are blanked too, and a dialect "me"/"mi" before a
    relation ("me sister") reads as "my"."""
    masked = _blank(mask_quotes(text), [m.span for m in find_secrets(text)])
    masked = _DIALECT_MY.sub(lambda m: "my" if m.group().islower() else "My", masked)
    masked = _BULLET.sub(lambda m: " " * len(m.group()), masked)
    return _PARTICLE.sub(lambda m: " " * len(m.group()), masked)


_ABBREVIATIONS = frozenset(
    words(
        "dr mr mrs ms st prof jr sr vs etc e.g i.e inc ltd co corp mt no approx u.s u.k jan feb "
        "mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun"
    )
)
# chat ends a sentence with an emoji as often as with a full stop ("lead hygienist as of
# march 1 🦷✨ mélanie told me w a slide deck")
_SENTENCE_END = re.compile(
    r"[.!?;]+[\"')\]]*(?=\s|$)|\n+|(?<=\s)[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]+(?=\s|$)"
)
_OPENER_VERBS = (
    "is|was|has|had|lives|lived|moved|works|worked|just|got|left|joined|started|likes|loves|"
    "hates|speaks|turned|died|passed|quit|and\\s+I|now|also|still|recently|became|broke|reports|"
    "adopted|bought|owns|plays|studies|will|'s|’s"
)
_OPENER = (
    r"(?:(?:I|i)(?:['’](?:m|ve|ll|d))?\b|(?i:my|our|his|her|their|he|she|they|we|sorry|actually|"
    r"oops|wait|correction|no|it['’]?s|it\s+is|that['’]?s)\b"
    rf"|{PERSON}\s+(?:{_OPENER_VERBS})\b|(?i:my|our)\s)"
)
# "... living in Canada, and at the moment I live in Brandon": a time phrase before "I"
# opens a clause too
_NOW_THEN_I = (
    r"(?i:at\s+the\s+moment|right\s+now|these\s+days|nowadays|currently|today|since\s+then)"
    r",?[ \t]{1,3}(?:I|i)\b"
)
_QUESTION_OPENER = r"(?i:do|does|did|can|could|would|will|what|where|when|who|why|how|is|are|any)\b"
_ELIDED_OPENER = (
    r"(?:(?:now|also|still|just|recently|currently)\s+)?(?:live|lives|living|work|works|working|"
    r"moved|speak|speaks|like|likes|love|loves|hate|hates|enjoy|enjoys|own|owns|have|has|joined|"
    r"left|quit|started|turned|play|plays|am|is|was|report|reports|drive|drives|bought|got|"
    r"adopted|sold|became)\b"
)
# Whitespace runs are anchored ((?<!\s) and possessive \s*+): a long masked quotation is
# a long run of spaces, and an unanchored \s* would make the search quadratic.
_CLAUSE_BREAK = re.compile(
    rf"(?<!\s)\s*+(?:[,;:]|(?<=\s)[-–—]+)\s*+(?:(?:and|but|so|or|then)\s++)?"
    rf"(?!(?i:my|our)\s+{REL}\s*,)(?={_OPENER}|{_QUESTION_OPENER}|{_NOW_THEN_I})"
    rf"|(?<!\s)\s++(?:and|but|so|because|cause|although|though|while|whereas|plus|yet|then)"
    rf"\s++(?={_OPENER})"
    rf"|(?P<elided>(?<!\s)(?:\s*+,)?\s++(?:and|but)\s++)(?={_ELIDED_OPENER})"
    r"|(?<!\s)\s*+[–—]\s*+"
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans (end includes the terminating punctuation)."""
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().startswith("."):
            before = text[max(start, match.start() - 12) : match.start()].split()
            if before and before[-1].lower() in _ABBREVIATIONS:
                continue
        end = match.end() if not match.group().startswith("\n") else match.start()
        if text[start:end].strip():
            spans.append((start, end))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def split_clauses(text: str) -> list[tuple[int, int, bool, int]]:
    """Clause spans ``(start, end, elided, sentence)`` of every sentence; ``elided``: the
    clause's subject is the previous clause's ("... and works at Acme"); ``sentence``: the
    index of the sentence it belongs to."""
    clauses = []
    for index, (s_start, s_end) in enumerate(split_sentences(text)):
        start, elided = s_start, False
        sentence = text[s_start:s_end]
        for match in _CLAUSE_BREAK.finditer(sentence):
            end = s_start + match.start()
            if text[start:end].strip():
                clauses.append((start, end, elided, index))
            start, elided = s_start + match.end(), bool(match.group("elided"))
        if text[start:s_end].strip():
            clauses.append((start, s_end, elided, index))
    return _merge_pairs(text, [_trim(text, *clause) for clause in clauses])


_PAIR_HEAD = re.compile(rf"(?:{PERSON}|(?i:my|our)\s+{REL}(?:\s+{PERSON})?)")
_PAIR_GAP = re.compile(r"\s+and\s+")
_APPOSITIVE = re.compile(rf"{PERSON}\s*,\s+(?i:my|our)\s+{REL}")
_APPOSITIVE_GAP = re.compile(r"\s*,\s*")


def _merge_pairs(text: str, clauses: list) -> list:
    """Undo a split inside "Maria and I got married" or "Jana, my flatmate, is vegan"."""
    merged: list = []
    for clause in clauses:
        if merged:
            start, end, elided, index = merged[-1]
            head, gap = text[start:end], text[end : clause[0]]
            if index == clause[3] and (
                (_PAIR_HEAD.fullmatch(head) and _PAIR_GAP.fullmatch(gap))
                or (_APPOSITIVE.fullmatch(head) and _APPOSITIVE_GAP.fullmatch(gap))
            ):
                merged[-1] = (start, clause[1], elided, index)
                continue
        merged.append(clause)
    return merged


def _trim(text: str, start: int, end: int, elided: bool, index: int):
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end, elided, index


_DISCOURSE = re.compile(
    r"^(?:(?i:ok(?:ay)?|so|well|oh|also|and|but|btw|by\s+the\s+way|hey|hi|hello|anyway|anyways|"
    r"fyi|just\s+so\s+you\s+know|for\s+the\s+record|quick\s+update|update|news|big\s+news|"
    r"good\s+news|bad\s+news|fun\s+fact|heads\s+up|guess\s+what|yeah|yes|yep|um+|uh+|hmm+|"
    r"lol|haha|alright|right|great|cool|thanks|thank\s+you|honestly|basically|then|plus|"
    r"funny\s+enough|as\s+it\s+turns\s+out|as\s+you\s+know|as\s+i\s+said|"
    r"(?:i\s+)?forgot\s+to\s+mention|just\s+to\s+let\s+you\s+know|a\s+quick\s+note)"
    r"(?![\w'’])[,:!.\-–—]*\s*)+"
)


def discourse_prefix(text: str) -> int:
    """Length of leading discourse markers ("ok so", "btw,", "update:") to skip."""
    match = _DISCOURSE.match(text)
    return match.end() if match else 0


# ---------------------------------------------------------------------------
# Correction markers: how a clause opens ("sorry,", "actually,") or ends (", not Berlin")

_STRONG_CORRECTION = re.compile(
    r"^(?:(?i:(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|scratch\s+that|i\s+misspoke|"
    r"let\s+me\s+correct\s+(?:that|myself)|to\s+correct\s+myself|typo)\b[,:;!.\s\-–—]*"
    r"|(?:no|nope|wait|sorry)[,!.:;\-–—]+\s*))+(?:(?i:i\s+meant(?:\s+to\s+say)?|i\s+mean)\b"
    r"(?:\s+that)?[,:]?\s*)?|^(?i:i\s+meant(?:\s+to\s+say)?|i\s+mean)\b(?:\s+that)?[,:]?\s*"
)
# "Quick fix to something I told you: ...", "One correction from last time - ...": a
# preface naming a fix, ended by a colon or dash, marks what follows it as a correction
_FIX_PREFACE = re.compile(
    r"(?i:(?:a|one|quick|small|little|tiny|minor|slight)\s+)*(?i:fix|correction)\b"
    r"[^:.!?;–—]{0,60}?\s*(?::|\s[-–—])\s*"
)
_SURE_CORRECTION = re.compile(
    r"(?i)\b(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|scratch\s+that|misspoke|"
    r"correct|typo|i\s+meant?)\b"
)
_WEAK_CORRECTION = re.compile(r"^(?i:actually|in\s+fact|rather)\b[,:]?\s*")
_TRAILING_NOT = re.compile(
    r"(?P<comma>,)?(?<!\s)\s*+(?:(?i:and|but)\s+)?(?i:not)\s+(?P<wrong>[^,;]+?)"
    # "not a doctor i always mix it up": the wrong value ends where a new clause starts
    r"(?:\s+(?:i|I|we|lol|haha|lmao)\b[^,;]*)?\s*[.!]?$"
)
_NO_LONGER = re.compile(r"(?i)\b(?:anymore|any\s+more|any\s+longer|now|these\s+days)\s*\W*$")
_CORRECTION_ONLY = re.compile(
    r"(?i)(?:(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|wait|no|nope|scratch\s+that|"
    r"i\s+misspoke)[\s,.!:;\-–—]*)+"
)
_IT_IS = re.compile(r"(?i)it['’]?s|it\s+is|that['’]?s")  # "it's Lisbon, not Berlin"


# ---------------------------------------------------------------------------
# A clause as the rules read it


@dataclass
class Clause:
    """One clause of a turn, masked, with its time phrases and markers.

    ``pending`` marks handed on by a clause that was only a marker ("Sorry," / "Wait,
    no," / "Actually,") are ``"strong"`` (a correction), ``"contra"`` (a correction if
    it contradicts) and ``"weak"`` (an update).
    """

    start: int  # offset of ``text`` in the episode text
    end: int
    text: str  # masked clause text the rules match (after discourse markers)
    prefix: str = ""  # a borrowed subject for an elided clause
    times: list[TimeExpression] = field(default_factory=list)
    correction: bool = False
    contradiction: bool = False  # only "no," / "wait,": a correction if it contradicts
    wrong: str | None = None
    negated: bool = False
    ceased: bool = False
    weak: bool = False  # opened with "actually"
    span_end: int = 0  # where the clause ends in the episode text (before any cut)

    @property
    def s(self) -> str:
        return self.prefix + self.text

    @property
    def span(self) -> tuple[int, int]:
        """Where the clause stands in the episode text (the facts' provenance)."""
        return self.start, self.span_end

    def relative(self, te: TimeExpression) -> tuple[int, int]:
        shift = len(self.prefix) - self.start
        return te.span[0] + shift, te.span[1] + shift


# A user's clause that opens with one of these verbs has dropped its "I".
_DROPPED_SUBJECT = re.compile(
    r"(?i)\s*(?:(?:just|finally|officially|recently|also|now|still|then|and|btw|oh)\s+|[-–—+*•]\s*)*"
    r"(?:moved|started|starting|left|joined|quit|got|adopted|switched|swapped|took|gave|"
    r"finished|bought|sold|been|promoted|landed|signed|broke|split|picked|dropped|ditched|"
    r"went|became|traded|upgraded|rehomed|lost|handed|relocated|retired|resigned|"
    r"working|living|moving|switching|doing|dating|seeing|married|engaged|done|off|back|"
    # "will report to Ingrid from July"
    r"will\s+(?:be\s+)?(?:report|reporting|working|moving|living|joining|starting))\b"
)


def drops_subject(text: str) -> bool:
    """Whether a clause opens on a verb whose "I" chat leaves out ("moved on the 2nd").

    >>> drops_subject("Moved out on the 2nd."), drops_subject("Rain all week.")
    (True, False)
    """
    return bool(_DROPPED_SUBJECT.match(text))


def read_clause(
    text: str,
    start: int,
    end: int,
    *,
    elided: bool,
    times: list[TimeExpression],
    pending: str | None,
    last_who: str | None,
    dropped: str | None = None,
) -> Clause:
    """The clause ``text[start:end]``; ``last_who``: the subject an elided clause borrows."""
    raw = text[start:end]
    skip = discourse_prefix(raw)
    preface = _FIX_PREFACE.match(raw, skip)
    if preface:
        skip = preface.end()
    strong = _STRONG_CORRECTION.match(raw, skip)
    if strong and strong.end() > skip:
        skip = strong.end()
    weak = _WEAK_CORRECTION.match(raw, skip)
    if weak:
        skip = weak.end()
    body = raw[skip:]
    marked = bool(strong and strong.group()) or bool(preface)
    c = Clause(
        start + skip,
        end,
        body,
        span_end=end,
        correction=marked or pending in ("strong", "contra"),
    )
    c.contradiction = (pending == "contra" or marked) and not (
        pending == "strong" or preface or (marked and _SURE_CORRECTION.search(strong.group()))
    )
    c.weak = bool(weak) or pending == "weak"
    trailing = _TRAILING_NOT.search(body)
    if trailing and _NO_LONGER.search(trailing.group("wrong")):
        trailing = None  # "pescatarian, not vegetarian anymore": a change, not a slip
    if trailing and body[: trailing.start()].count("(") > body[: trailing.start()].count(")"):
        trailing = None  # "Columbus (Ohio, not the guy)": an aside, not a slip
    it_is = _IT_IS.match(body)
    if (
        trailing
        and (trailing.group("comma") or c.correction or c.weak or it_is)
        and trailing.start() > 0
    ):
        c.wrong = clean(trailing.group("wrong"))
        c.text = body[: trailing.start()]
        c.end = c.start + len(c.text)
        if c.weak or it_is:
            c.correction = True
    if elided and last_who and not re.match(r"(?i)\s*(?:i|my|he|she)\b", body):
        c.prefix = last_who + " "
    elif dropped and _DROPPED_SUBJECT.match(c.text):
        c.prefix = dropped + " "  # chat drops "I": "moved to Leeds last week"
        # "and - moving to wrocław": the joiner before the verb is not part of the clause
        lead = re.match(r"(?i)\s*(?:(?:and|btw|oh)\s+|[-–—+*•]\s*)*", c.text).end()
        c.start, c.text = c.start + lead, c.text[lead:]
    c.times = [t for t in times if c.start <= t.span[0] and t.span[1] <= c.end]
    c.negated, c.ceased = negation(c.text)
    return c


def marker_only(c: Clause) -> bool:
    """A clause that is only "Sorry," / "Wait, no," / "Actually,": about the next clause."""
    return not c.text.strip() or bool(_CORRECTION_ONLY.fullmatch(c.text))


def mark_for_next(c: Clause, raw: str) -> str | None:
    """The ``pending`` mark a :func:`marker_only` clause (``raw``) hands to the next."""
    if c.correction or c.text.strip():
        return "strong" if _SURE_CORRECTION.search(raw) else "contra"
    return "weak" if c.weak else None
