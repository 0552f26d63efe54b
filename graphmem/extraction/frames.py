"""The frame classifier: which predicate a clause states, and whether it stopped.

(Over 500 lines: the classifier and the span finder of each kind of value it gates are
read together; split, each half would import the other's thresholds.)

Rules read the phrasings they were written for. For a clause they read nothing from,
:class:`FrameReader` asks a classifier over the clause's sentence embedding (MiniLM, the
model retrieval already loads) which predicate it states (or none) and whether it is a
state or a stop (``state`` / ``retract`` / ``none``), then finds the value with a span
finder for the predicate's kind of object (a place after "in/to", an employer after
"at/for/joined", a person's name, a job noun phrase, a diet word, a device, a project
name...). Guards still run first (questions, hypotheticals, negation, reported speech
yield nothing) and corrections stay with the rules.

The classifier is two multinomial logistic regressions trained by
``scripts/train_frames.py`` on the dev authors' labelled clauses only and shipped as
``graphmem/data/frames.npz`` (plain arrays; inference is one matrix product). Without an
embedder the extractor runs on its rules alone.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import numpy as np

from graphmem.extraction.clauses import Clause, mask, split_clauses
from graphmem.extraction.facts_things import DEVICE, device_name
from graphmem.extraction.guards import addresses_memory
from graphmem.extraction.lexicon import (
    DIETS,
    HOBBY_GAMES,
    JOB_NOUNS,
    PET_SPECIES,
    PROGRAMMING_LANGUAGES,
)
from graphmem.extraction.objects import take_entity
from graphmem.extraction.patterns import PERSON, REL, SUBJ, alternation
from graphmem.extraction.spans import SpanFinder
from graphmem.extraction.truecase import is_common_word, truecase
from graphmem.extraction.turn import Draft, Turn, emit

OPS = ("none", "retract", "state")  # the op classifier's classes, in its order
# How sure the classifier must be before a clause's value is looked for (set on the dev
# authors: below it, traps start to leak through).
PREDICATE_THRESHOLD = 0.55
SECOND_THRESHOLD = 0.3
SPAN_THRESHOLD = 0.5  # how sure the span finder must be of a value
# A value needs the clause classifier to see its predicate too (at least this likely),
# unless the span finder alone is this sure.
AGREE_FLOOR = 0.2
SPAN_ALONE = 0.9
_LEAD = re.compile(rf"\s*{SUBJ}")
# A state that is over ("I lived in Oslo for a while") or a stay, not a home.
_PAST_STATE = re.compile(
    r"(?i)\b(?:used\s+to|lived|worked|was|were|had\s+been|back\s+then|years\s+ago|for\s+a\s+while)\b"
)
_STAY = re.compile(
    r"(?i)\b(?:for\s+(?:a|the|an)\s+\w+|this\s+week|conference|trip|holiday|vacation|visiting|"
    r"staying|airport|hotel|hostel|layover|passing\s+through|weekend)\b"
)
# A wish, a plan or a condition states nothing ("I'd live in Monaco if I won the lottery").
_MODAL = re.compile(
    r"(?i)\b(?:would|could|might|may|should|wish|hope|hoping|dream|dreaming|imagine|someday|"
    r"one\s+day|lottery|if|unless|maybe|perhaps|thinking\s+(?:of|about)|considering|"
    r"planning|plan\s+to|want\s+to|wanna|gonna|going\s+to|will|ought|convinced|reckons?|"
    r"campaign|character|my\s+dream|dreamt|novel|story)\b|['’]d\b|['’]ll\b"
)
_PREFERENCE = re.compile(
    r"(?i)\b(?:favou?rite|fave|fav|go-to|go\s+to|prefer|preferred|love|loving|best|beats|topped|"
    r"obsessed|choice|always|every\s+time|number\s+one|top|can'?t\s+beat|my\s+thing)\b"
)
_CHANGE = re.compile(
    r"(?i)\b(?:moved|moving|relocat\w*|started|starting|joined|joining|new|now|switched|"
    r"swapped|got|getting|adopted|became|promoted|took\s+up|taken\s+up|picked\s+up|"
    r"landed|hired|signed|upgraded|traded|just|officially|transferred)\b"
)


def frame_text(clause: str) -> str:
    """What is embedded for a clause: its words, whitespace collapsed."""
    return " ".join(clause.split())


def clause_texts(text: str) -> list[str]:
    """A turn's clauses as the extractor splits them (truecased, quotes masked)."""
    masked = mask(truecase(text))
    return [masked[s:e] for s, e, _, _ in split_clauses(masked) if masked[s:e].strip()]


@cache
def _weights() -> dict[str, np.ndarray]:
    data = resources.files("graphmem.data").joinpath("frames.npz").read_bytes()
    import io

    with np.load(io.BytesIO(data)) as npz:
        return {k: npz[k] for k in npz.files}


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class FrameReader:
    """Predicate and operation of clauses, from their embeddings."""

    def __init__(self, embedder, threshold: float = PREDICATE_THRESHOLD,
                 spans: SpanFinder | None = None, span_threshold: float = SPAN_THRESHOLD):  # fmt: skip
        self.embedder = embedder
        self.threshold = threshold
        # the span finder reads values off token vectors; without it, the classifier
        # names a predicate and the rule span finders look for its value
        self.spans = spans if spans is not None else SpanFinder.shipped()
        self.span_threshold = span_threshold
        self.agree_floor, self.alone = AGREE_FLOOR, SPAN_ALONE
        w = _weights()
        self.labels = [str(x) for x in w["predicate_labels"]]
        self.pw, self.pb, self.ow, self.ob = (
            w["predicate_w"],
            w["predicate_b"],
            w["op_w"],
            w["op_b"],
        )

    def classify(self, clauses: list[str]) -> list[tuple[list[tuple[str, float]], str]]:
        """For each clause: its likely predicates with their probabilities (at most two,
        "none" excluded, most likely first) and its op."""
        if not clauses:
            return []
        x = np.asarray(self.embedder.embed([frame_text(c) for c in clauses]), dtype=np.float32)
        return self._classified(x)

    def _classified(self, x: np.ndarray) -> list[tuple[list[tuple[str, float]], str]]:
        p = _softmax(x @ self.pw.T + self.pb)
        o = _softmax(x @ self.ow.T + self.ob)
        out = []
        for row_p, row_o in zip(p, o, strict=True):
            ranked = [(self.labels[i], float(row_p[i])) for i in np.argsort(-row_p)[:3]]
            out.append(([r for r in ranked if r[0] != "none"][:2], OPS[int(row_o.argmax())]))
        return out

    def read(self, x: Turn, clauses: list[Clause], read: list[set[str]]) -> list[Draft]:
        """Drafts for what the rules left unread: a clause's predicates not in ``read``
        (the predicates the rules found there)."""
        if self.spans is not None and hasattr(self.embedder, "embed_tokens"):
            return self._read_spans(x, clauses, read)
        drafts: list[Draft] = []
        for c, done, (ranked, op) in zip(clauses, read, self.classify([c.s for c in clauses]),
                                         strict=True):  # fmt: skip
            if not _readable(c):
                continue
            for rank, (predicate, prob) in enumerate(ranked):
                # the best guess needs the threshold; a second one, a clause the rules
                # already read part of and a clear second place
                need = self.threshold if rank == 0 and not done else SECOND_THRESHOLD
                if prob < need or predicate in done or predicate == "deadline":
                    continue
                drafts.extend(self._read_one(x, c, predicate, prob, op))
        return drafts

    def _read_spans(self, x: Turn, clauses: list[Clause], read: list[set[str]]) -> list[Draft]:
        """Values the span finder reads off each clause's token vectors, for the
        predicates the rules did not read there; the clause classifier gives the op."""
        if addresses_memory(x.text):
            return []
        tokens = self.embedder.embed_tokens([frame_text(c.s) for c in clauses])
        classes = self._classified(np.stack([t.pooled() for t in tokens]))
        drafts: list[Draft] = []
        for c, done, t, (ranked, op) in zip(clauses, read, tokens, classes, strict=True):
            if not _readable(c):
                continue
            text = frame_text(c.s)
            topics = {p for p, prob in ranked if prob >= self.agree_floor}
            for span in self.spans.find(text, t, self.span_threshold):
                if span.predicate in done or span.predicate == "deadline":
                    continue
                if span.predicate not in topics and span.probability < self.alone:
                    continue  # the clause classifier does not see that topic here
                value = _span_value(span.predicate, text[span.start : span.end])
                if value is None or _someone_else_before(text, span.start, c):
                    continue
                stops = bool(_STOP_CUE.search(text))
                if (op == "retract") != stops:
                    continue  # the op classifier and the words disagree: not sure what happened
                drafts.extend(self._read_one(x, c, span.predicate, span.probability, op,
                                             value=value))  # fmt: skip
        return drafts

    def _read_one(self, x: Turn, c: Clause, predicate: str, prob: float, op: str,
                  value: str | None = None) -> list[Draft]:  # fmt: skip
        subject, start = _subject(x, c)
        if subject is None:
            return []
        if value is not None and value.lower() == subject.lower():
            return []
        if op != "retract" and _PAST_STATE.search(c.s) and not _CHANGE.search(c.s):
            return []
        if predicate == "lives_in" and _STAY.search(c.s):
            return []
        if predicate.startswith("favourite_") and not _PREFERENCE.search(c.s):
            return []
        if value is None:
            value = find_value(predicate, c.s, start, subject)
        if value is None:
            return []
        changed = "change" if _CHANGE.search(c.s) else "state"
        aspect = "retract" if op == "retract" else changed
        out = emit(x, c, None, predicate, [value], aspect, subject=subject)
        for d in out:
            d.confidence = min(d.confidence, round(prob * 0.8, 2))
        return out


# Words that say a fact stopped; a retract needs one, a state must have none.
_STOP_CUE = re.compile(
    r"(?i)\b(?:quit|quitting|left|leaving|gave\s+up|given\s+up|give\s+up|dropped|stopped|"
    r"no\s+longer|anymore|any\s+more|passed\s+away|died|put\s+down|broke\s+up|split|"
    r"divorced|packed\s+in|jacked\s+in|ditched|finished|ended|over|rehomed|sold|lost|"
    r"off\s+(?:the|that|this)|retired|laid\s+off|fired|let\s+go|resigned|walked\s+out|"
    r"moved\s+out|went\s+to\s+live|handed|no\s+more|former|ex-|used\s+to)\b"
)
_PERSON_MENTION = re.compile(rf"\b(?i:my|our|his|her)\s+{REL}\b|(?<![.!?]\s)(?<!^)\b{PERSON}\b")


def _someone_else_before(text: str, start: int, c: Clause) -> bool:
    """A clause without a subject of its own that names another person before the value
    ("Big week for my sister Lauren, who lives down in Atlanta"): whose value it is is
    unclear, so the learned reader leaves it."""
    if _LEAD.match(c.s):
        return False
    for m in _PERSON_MENTION.finditer(text, 0, start):
        words = m.group().split()
        if len(words) > 1 and words[0].lower() in ("my", "our", "his", "her"):
            return True
        if not is_common_word(words[0]) and words[0] not in ("I", "I'm", "I've"):
            return True
    return False


def _span_value(predicate: str, words: str) -> str | None:
    """A span's words as the predicate's value: lower case for titles, hobbies and
    diets, a device's usual spelling, a programming language's own."""
    if predicate == "diet":
        return DIETS.get(words.lower(), words.lower())
    if predicate in ("job_title", "hobby"):
        return words.lower()
    if predicate == "phone":
        m = _DEVICE.fullmatch(words)
        return _device_name(m.group("dev")) if m else words
    if predicate == "favourite_language":
        return next((w for w in PROGRAMMING_LANGUAGES if w.lower() == words.lower()), words)
    if _NOT_VALUE.match(words):
        return None
    return words


def _readable(c: Clause) -> bool:
    """Not a wish, plan or condition ("I'd live in Monaco if I won the lottery")."""
    return not _MODAL.search(c.s)


def _subject(x: Turn, c: Clause) -> tuple[str | None, int]:
    """Whose fact the clause states, and where its own words start."""
    lead = _LEAD.match(c.s)
    if lead and lead.group("who"):
        who = lead.group("who")
        found = x.subject(who, c.span)
        if found is not None and found.name and not found.plural:
            return found.name, lead.end()
        if found is not None and found.plural:
            return found.name, lead.end()
        return None, 0
    return x.me, 0


_AFTER = {
    "lives_in": r"(?i:in|to|from|near|outside|at)\s+",
    "works_at": r"(?i:at|for|with|joined|join|joining|left|leaving|quit|from|by)\s+",
    "manager": r"(?i:to|is|boss|manager|under|by|'s|’s)\s+",
    "partner": r"(?i:with|to|is|and|dating|seeing|married|met|'s|’s)\s+",
    "works_on": r"(?i:on|onto|to|of|the|project|with)\s+",
    "friend": r"(?i:mate|friend|pal|buddy|bestie|is|with)\s+",
    "sibling": r"(?i:brother|sister|sis|bro|sibling)\s+",
    "parent": r"(?i:mum|mom|dad|mother|father|ma|pa)\s+",
    "child": r"(?i:son|daughter|kid|child|baby|boy|girl)\s+",
    "owns_pet": r"(?i:named|called|cat|dog|puppy|kitten|rabbit|'s|’s)\s+",
}
_NOT_VALUE = re.compile(
    r"(?i)^(?:I|I'm|I've|Im|My|Me|We|Our|Us|He|She|They|It|The|This|That|His|Her|Their|African|Monday|Tuesday|Wednesday|"
    r"Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|"
    r"September|October|November|December|Christmas|Easter|Today|Tomorrow|Yesterday|Lol|"
    r"Ok|Okay|Yeah|Honestly|Anyway|Mondays|Tuesdays|Wednesdays|Thursdays|Fridays|Saturdays|Sundays|"
    r"It's|That's|There|Here|Home|Work|Office|\w+\s+Day|\w+\s+Eve|Weekend|\d[\w\s]*)$"
)
_DIET = re.compile(
    r"(?i)\b(" + "|".join(sorted(map(re.escape, DIETS), key=len, reverse=True)) + r")\b"
)
_PET = re.compile(rf"(?i)\b({alternation(PET_SPECIES)})s?\b")
_JOB = re.compile(
    r"(?i)\b(?:as\s+an?|as\s+the|i['’]?m\s+an?|now\s+an?|promoted\s+to|role\s+(?:as|of)|"
    r"title\s+is|working\s+as|new\s+role:?|became\s+an?|is\s+an?|['’]s\s+an?|am\s+an?|"
    r"job\s+as\s+an?|gig\s+as\s+an?|,\s+an?)\s+"
    rf"(?P<job>(?:[\w-]+\s+){{0,3}}?{alternation(JOB_NOUNS)}s?)\b"
)
_HOBBY = re.compile(
    r"(?i)\b(?:took\s+up|taken\s+up|take\s+up|picked\s+up|started|starting|gave\s+up|given\s+up|"
    r"quit|dropped|stopped|into|doing|love|enjoy|got\s+into|getting\s+into|signed\s+up\s+for|"
    r"joined\s+a|packed\s+in|jacked\s+in|ditched|still)\s+(?:(?:the|my|a|some|doing)\s+)?"
    rf"(?P<h>(?:(?:[a-z-]+\s+)?[a-z-]+ing\b)|{alternation(HOBBY_GAMES)})\b"
)


_HOBBY_IS = re.compile(
    r"(?i)^\s*(?:(?:and|but|so|plus|also)\s+)*(?P<h>[a-z][\w -]{1,30}?)(?:['’]s|\s+is|\s+has)\s+"
    r"(?:been\s+|always\s+been\s+|become\s+)?(?:my|the)\s+(?:\w+\s+)?(?:hobby|thing|passion|obsession|escape)"
)


def _names(text: str, start: int, subject: str) -> list[tuple[int, str]]:
    """Capitalised names after ``start``: not the subject, not a weekday, and not a common
    word capitalised only because it opens a sentence ("These days...", "And ...")."""
    out = []
    for m in re.finditer(
        rf"(?<![\w'’-])({PERSON}(?:\s+(?:&|of|and)\s+{PERSON})?)(?![\w-])", text[start:]
    ):
        name = re.sub(r"['’]s$", "", m.group(1)).strip()
        at = start + m.start()
        opens = not text[:at].strip() or text[:at].rstrip()[-1] in ".!?:;—–-,("
        first = name.split()[0]
        if opens and is_common_word(first):
            rest = name.split()[1:]
            if not rest:
                continue
            name, at = " ".join(rest), at + len(first) + 1
        if _NOT_VALUE.match(name) or name == subject or name.split()[0] == subject:
            continue
        out.append((at, name))
    return out


_LEAD_PHRASE = re.compile(
    r"^\s*(?:(?:and|but|so|oh|well|honestly|also|plus|anyway|ok|okay|yeah|lol)[,!]?\s+)*"
    r"(?:(?:[\w-]+)-wise,?\s+)?(?:(?:it['’]s|its|that['’]s|probably|definitely|always)\s+)?"
    r"(?P<p>(?!(?i:i|my|we|he|she|they|it|this|that|the\s+one)\b)[\w'’&.+#-]+(?:\s+(?!(?i:is|are|was|'s|has|have|"
    r"which|if|and|but|because|since|every|always|for|on|at|in|of|to|as|when|after|before|with|"
    r"from|now|today|again|still|too|also|all|or|then|twice|once|every)\b)[\w'’&.+#-]+){0,4})"
)
_DEVICE = re.compile(DEVICE)
_device_name = device_name
_NAMED = re.compile(rf"(?i:named|called)\s+(?P<n>{PERSON})")
_PROGRAMMING = re.compile(
    r"(?<![\w#+])("
    + "|".join(sorted(map(re.escape, PROGRAMMING_LANGUAGES), key=len, reverse=True))
    + r")(?![\w#+])"
)


_FAVOURITE_VALUE = (
    # "my favourite film is X", "fave colour? X", "new favourite film alert: X"
    re.compile(
        r"(?i)\b(?:favou?rite|fave|fav|go-to)\s+(?:[\w-]+\s+){0,2}?(?:is|are|=|:|\?|alert:|has\s+to\s+be|would\s+be)"
        r"\s*(?:(?:still|now|definitely|probably|easily|a|an|the)\s+)*(?P<v>[^,.;!?()]{1,40})"
    ),
    # "cricket's my favourite sport", "X is the best food on earth", "X has replaced Y as my drink"
    re.compile(
        r"(?i)^\s*(?:(?:a|an|the|proper|good|still|ok|so|and|but|honestly|new)\s+)*(?P<v>[\w'’&.+# -]{1,40}?)"
        r"(?:\s+(?:is|are|was|has\s+become|have\s+become|became|remains|has\s+been|has\s+(?:officially\s+)?replaced)|['’]s(?:\s+(?:been|become|always\s+been))?)\s+"
        r"(?:(?:still|now|officially|easily|definitely|honestly|basically|totally|the|my|a)\s+)*"
        r"(?:favou?rite|fave|fav|go-to|best|greatest|top|number\s+one|only|whole\s+thing|thing|drink|"
        r"sport|colou?r|food|film|movie|band|book|language|\w+\s+of\s+choice)"
    ),
)
_LOWER_NAME = {
    "works_on": re.compile(
        r"(?i)\b(?:on|onto|off|to|joined|leading|running|building)\s+(?:the\s+)?(?P<v>[a-z][\w-]+)"
        r"(?:\s+(?:project|pitch|launch|rebrand|migration|account|bid|build|team))?\b"
    ),
    "works_at": re.compile(
        r"(?i)\b(?:at|for|joined|left|leaving|quit|started\s+at|starting\s+at|with)\s+"
        r"(?P<v>[a-z][\w&'’-]*(?:\s+(?:&\s+)?(?!(?:on|in|at|for|last|this|next|as|today|yesterday|"
        r"and|but|since|from|to|because|so|now)\b)[a-z][\w&'’-]*){0,2})"
    ),
}
_NOT_PROJECT = frozenset(
    "it this that them the a my me board top time track holiday leave call hold site "
    "weekend weekends monday tuesday wednesday thursday friday saturday sunday work home "
    "school uni team".split()
)


def _clean_value(value: str) -> str | None:
    value = re.split(
        r"(?i)\s+(?:and|but|so|or|because|which|though|lol|haha|can|will|is|was|has|had|"
        r"gets|got|does|did|for|on|at|in|every|all|since)\b",
        value,
    )[0]
    value = re.sub(r"['’]s\b.*$", "", value.strip(" '\"“”:-"))
    value = re.sub(r"(?i)^(?:a|an|the|proper|good|real|my|still|now)\s+", "", value).strip()
    if (
        not value
        or len(value.split()) > 5
        or re.search(r"(?i)\b(?:i|you|it|this|that|we)\b", value)
    ):
        return None
    return value


_JOB_MODIFIER_STOP = frozenset(
    "i i'm im i've am is was are were be been being the a an my his her their our your as at "
    "of in for and or but now still officially not no longer just also new old a job role "
    "title position work working worked promoted became become to from with by on "
    "she he they we it that this who which what so".split()
)


def _job_phrase(text: str, start: int) -> str | None:
    """The noun phrase around a job noun ("I'm the assistant manager at...")."""
    words = list(re.finditer(r"[\w'’-]+", text[start:]))
    for i, w in enumerate(words):
        word = w.group().lower()
        if word.rstrip("s") not in JOB_NOUNS and word not in JOB_NOUNS:
            continue
        first = i
        while (
            first > 0
            and i - first < 3
            and words[first - 1].group().lower() not in _JOB_MODIFIER_STOP
        ):
            first -= 1
        return " ".join(x.group() for x in words[first : i + 1])
    return None


def _lead_phrase(text: str, start: int) -> str | None:
    """The noun phrase a fragment opens with ("Fly fishing is the one thing...",
    "Baseball, always", "Movie-wise, Jaws")."""
    m = _LEAD_PHRASE.match(text, start)
    if not m:
        return None
    phrase = m.group("p").strip(" ,.!?'’")
    phrase = re.sub(r"['’]s$", "", phrase)
    return phrase if phrase and len(phrase) <= 40 else None


def find_value(predicate: str, text: str, start: int, subject: str) -> str | None:
    """The value of ``predicate`` in a clause, by the kind of object it takes."""
    if predicate == "diet":
        m = _DIET.search(text, start)
        return DIETS[m.group(1).lower()] if m else None
    if predicate == "job_title":
        m = _JOB.search(text, start)
        job = m.group("job") if m else _job_phrase(text, start)
        if job is None:
            return None
        job = re.sub(r"(?i)^(?:['’]m|the|a|an|new|current|proper|full-time|part-time)\s+", "", job)
        return job.lower()
    if predicate == "phone":
        m = _DEVICE.search(text, start)
        return _device_name(m.group("dev")) if m else None
    if predicate == "hobby":
        m = _HOBBY_IS.search(text, start) or _HOBBY.search(text, start)
        if m:
            return _clean_value(m.group("h")).lower() if _clean_value(m.group("h")) else None
        lead = _lead_phrase(text, start)
        return lead.lower() if lead and len(lead.split()) <= 3 else None
    if predicate == "owns_pet":
        named = _NAMED.search(text, start)
        if named:
            return named.group("n")
        names = _names(text, start, subject)
        if names:
            return names[0][1]
        m = _PET.search(text, start)
        return m.group(1).lower() if m else None
    if predicate == "favourite_language":
        m = _PROGRAMMING.search(text, start)
        if not m:
            return None
        found = m.group(1)
        return next((w for w in PROGRAMMING_LANGUAGES if w.lower() == found.lower()), found)
    if predicate.startswith("favourite_"):
        for pattern in _FAVOURITE_VALUE:
            m = pattern.search(text, start)
            if m:
                value = _clean_value(m.group("v"))
                if value:
                    return value
        names = _names(text, start, subject)
        if names:
            return names[0][1]
        return _lead_phrase(text, start)
    if predicate == "deadline":
        return None  # read by the deadline rules, which know how to read its date
    if predicate in ("works_on", "works_at"):
        m = _LOWER_NAME[predicate].search(text, start)
        if m and not _names(text, m.start("v"), subject):
            value = _clean_value(m.group("v"))
            if value and value.lower() not in _NOT_PROJECT:
                return " ".join(w[:1].upper() + w[1:] for w in value.split())
    after = _AFTER.get(predicate)
    names = _names(text, start, subject)
    if after:
        for m in re.finditer(after, text[start:]):
            pos = start + m.end()
            found = take_entity(text, pos, len(text), lowercase_ok=False)
            if found and not _NOT_VALUE.match(found[2]) and found[2] != subject:
                return re.sub(r"(?:['’]s\b.*|\s+I)$", "", found[2])
    if predicate in ("manager", "partner", "friend", "sibling", "parent", "child") and names:
        return re.sub(r"['’]s\b.*$", "", names[0][1])
    if predicate in ("lives_in", "works_at", "works_on") and names:
        return names[0][1]
    return None


__all__ = ["FrameReader", "clause_texts", "find_value", "frame_text"]
