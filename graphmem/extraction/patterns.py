"""The vocabulary the rule regexes are written in.

A rule regex is a template with fragments written as ``<NAME>``: ``<SUBJ>`` (who the
clause is about: "I", "my sister Ana", "Ana, my sister,", "Ana", "he"), ``<AUX>`` (the
auxiliaries and adverbs between subject and verb: "'ve just", "will", "no longer"),
``<PERSON>``, ``<REL>`` (a relation word or pet species, with modifiers such as "older"),
and alternations of the word lists in :mod:`graphmem.extraction.lexicon` (``<JOB>``,
``<LANG>``, ``<DIET>``...). :func:`pattern` compiles a template; the templates themselves
live beside the handlers that read their matches (the ``facts_*`` modules).
"""

from __future__ import annotations

import re

from graphmem.extraction.lexicon import (
    DEMONYMS,
    DIETS,
    HOBBY_GAMES,
    JOB_NOUNS,
    LANGUAGES,
    MONTHS,
    NUMBER_WORDS,
    PET_SPECIES,
    RELATIONS,
)

NAME_TOKEN = r"[A-Z](?:[a-zà-ÿ]+|[’'][A-Z][a-zà-ÿ]+)(?:-[A-Z]?[a-zà-ÿ]+|['’][A-Z][a-zà-ÿ]+)*"
# "Dr. Okafor", "Mrs. Patel": a title's dot does not end the name
PERSON = rf"(?:(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+)?{NAME_TOKEN}(?:\s+{NAME_TOKEN}){{0,2}})"
PERSON_LIST = rf"(?:{PERSON}(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+){PERSON})*)"
_REL_WORDS = "|".join(sorted((re.escape(w) for w in RELATIONS), key=len, reverse=True))
_PET_WORDS = "|".join(sorted((re.escape(w) for w in PET_SPECIES), key=len, reverse=True))


def alternation_words(words) -> str:
    """Regex alternatives for ``words``, longest first, spaces matching any whitespace."""
    escaped = {re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in words}
    return "|".join(sorted(escaped, key=len, reverse=True))


REL_MODIFIERS = (
    r"(?:(?:older|younger|little|big|baby|twin|new|best|eldest|oldest|youngest|elder|step|dear|"
    r"lovely|current|actual|real|proper|official|"
    # "my district manager is Greg": the kind of manager
    r"district|regional|area|store|branch|general|direct|immediate|department|shift|site|"
    r"practice|office|clinic|unit|ward|duty|floor|night)\s+)*"
)
REL = rf"(?:{REL_MODIFIERS}(?i:{_REL_WORDS}|{_PET_WORDS}))"
KIN = rf"(?:{REL_MODIFIERS}(?i:{_REL_WORDS}))"  # a person's relation word, no pet species
PET = rf"(?i:{_PET_WORDS})"
# "ive taken up pilates", "im on Orbit": chat drops the apostrophe; <AUX> takes the "ve"/"m"
FIRST = r"(?<![\w'’])(?:I|i)(?=(?:m|ve)?(?![\w]))"
# "my brother's in Toronto working at Rogers": a name right after "in" is a place, not
# who the clause is about
_NOT_AFTER_PREPOSITION = "".join(
    rf"(?<!\b(?i:{p})\s)" for p in ("in", "at", "to", "from", "near", "of", "for", "into")
)
POSS = r"(?i:my|our)"
_ROLE_VERB = (
    r"(?:is|was|has|had|lives|lived|moved|works|worked|just|got|left|joined|started|retired|"
    r"still|now|finally)\b"
)
# "Conor's a nurse", "Ana's moved to Leeds": the "'s" is "is"/"has", not a possessive
_IS_CONTRACTED = (
    r"(?=['’]s\s+(?i:a|an|now|been|just|still|also|finally|officially|moved|living|working|"
    r"got|started|left|dating|engaged|married|in|taken|gone|joined|become|retired|quit|"
    r"back|off)\b)"
)
SUBJ = (
    rf"(?P<who>(?<![\w'’])(?i:me)\s+(?i:and)\s+{PERSON}(?![\w'’])|{FIRST}|{POSS}\s+{REL}(?:\s*,?\s+{PERSON}\b,?)?|{PERSON}\s*,\s+{POSS}\s+{REL}\s*,"
    rf"|{_NOT_AFTER_PREPOSITION}(?<![\w'’]){PERSON}(?:(?![\w'’])|{_IS_CONTRACTED})|\b(?i:he|she)(?:\b|(?=s\b))|\b(?i:we)(?=['’]|\s|ve\b)"
    # chat calls a parent by the role, in lower case too: "mum lives in lahti"
    rf"|(?<![\w'’])(?:[Mm]um|[Mm]om|[Mm]am|[Dd]ad|[Nn]an|[Gg]ran|[Gg]randma|[Gg]randpa|[Nn]ana|"
    rf"[Ss]is|[Bb]ro|[Ss]ister|[Bb]rother|[Mm]issus|[Hh]ubby|[Ww]ife|[Hh]usband)(?=\s+{_ROLE_VERB}|"
    r"['’]s\s+(?i:in|at|a|an|now|moved|been|still|just)\b))"
)
AUX_PHRASES = (
    "am",
    "is",
    "are",
    "was",
    "were",
    "have",
    "has",
    "had",
    "will",
    "shall",
    "just",
    "now",
    "currently",
    "also",
    "still",
    "recently",
    "finally",
    "actually",
    "really",
    "already",
    "officially",
    "been",
    "be",
    "going to",
    "gonna",
    "used to",
    "then",
    "even",
    "both",
    "too",
    "basically",
    "literally",
    "honestly",
    "mostly",
    "only",
    "originally",
    "always",
    "never",
    "no longer",
    "not",
    "do",
    "does",
    "did",
    "don't",
    "doesn't",
    "didn't",
    # typed without the apostrophe
    "dont",
    "doesnt",
    "didnt",
    "havent",
    "hasnt",
    "do not",
    "does not",
    "did not",
    "haven't",
    "hasn't",
    "hadn't",
    "won't",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "definitely",
    "happily",
    "temporarily",
    "permanently",
    "soon",
    "eventually",
    "ever",
    "probably",
    "newly",
    "absolutely",
    "totally",
    "truly",
    "seriously",
    "kind of",
    "sort of",
    "all",
    "unfortunately",
    "sadly",
    "luckily",
    "proudly",
)
AUX = (
    r"(?:\s*(?:['’](?:m|s|ve|ll|re|d))\b|(?<=\b[Ii])(?:m|ve)\b|(?<=\b[Hh]e)s\b|(?<=\b[Ss]he)s\b|(?<=\b[Ww]e)ve\b|\s+(?i:"
    + alternation_words(AUX_PHRASES)
    + r")\b)*"
)


_PROJ = r"(?P<proj>(?:(?!\b(?:is|was|has|had|got)\b)[^,;])+?)"
_NOT_MOD = (
    r"(?!(?:of|the|a|an|and|at|for|in|with|to|my|your|his|her|our|their|not|big|huge|fan|bit|"
    r"little|lot|kind|sort|very|really|total|complete|great|good|bad|amazing|terrible|wonderful|"
    r"excellent|awesome|fantastic|decent|natural|born|better|best|worse|worst|fine|real|true|"
    r"terrific|brilliant|horrible|lousy|proud|such|quite|pretty|so|an?)\b|\w+ing\s)"
)
_PARTNER = r"(?i:wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?)"


# Job nouns in lower case or capitalised ("Engineer"), plus upper-case titles ("CTO").
_JOB_RE = (
    "(?:"
    + "|".join(
        sorted(
            (
                re.escape(w).replace(r"\ ", r"\s+").replace(w[0], f"[{w[0]}{w[0].upper()}]", 1)
                for w in JOB_NOUNS
                if w[0].isalpha()
            ),
            key=len,
            reverse=True,
        )
    )
    + "|CEO|CTO|CFO|COO|CMO|CIO|VP|SVP|PM|GP)"
)


def pattern(template: str) -> re.Pattern[str]:
    """Compile a rule template, substituting the fragments written as ``<NAME>``."""
    fragments = {
        "<SUBJ>": SUBJ, "<AUX>": rf"(?P<aux>{AUX})", "<PERSONS>": PERSON_LIST,
        "<PERSON>": PERSON, "<REL>": REL, "<KIN>": KIN, "<PET>": PET, "<I>": FIRST, "<POSS>": POSS,
        "<JOB>": _JOB_RE, "<LANG>": alternation(LANGUAGES),
        "<DIET>": alternation(DIETS), "<DEMONYM>": alternation(DEMONYMS),
        "<MONTH>": alternation(MONTHS), "<NUM>": alternation(NUMBER_WORDS),
        "<HOBBY>": alternation(HOBBY_GAMES), "<PARTNER>": _PARTNER, "<PROJ>": _PROJ,
        "<NOT_MOD>": _NOT_MOD,
    }  # fmt: skip
    for key, value in fragments.items():
        template = template.replace(key, value)
    return re.compile(template)


def alternation(words) -> str:
    """A regex alternation group of ``words``, longest first, spaces matching any whitespace."""
    return "(?:" + alternation_words(words) + ")"


def relation_word(text: str) -> str:
    """The relation word without its modifiers: "my older sister" -> "sister"."""
    return re.sub(r"^(?:" + REL_MODIFIERS + ")", "", text.lower()).strip()
