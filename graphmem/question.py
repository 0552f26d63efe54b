"""Reading a question: whose fact, which predicate, which time mode, which window.

(Over 500 lines: one reader, the phrase tables of each part of a question next to the
function that reads that part, so a phrasing is added in one place.)

``read_question`` turns any phrasing into a :class:`Reading`:

- "Who do I answer to at work right now?"          -> (me, manager, current)
- "Where did I live in the summer before last?"    -> (me, lives_in, past, that summer)
- "What did you have written down on 27 November about where I live?"
                                                     -> (me, lives_in, known_at 27 Nov)
- "Which phones have I had, oldest first?"          -> (me, phone, timeline)
- "When did I start at the BBC?"                    -> (me, works_at, when, BBC, start)
- "Where did I live just before I relocated to Denver?"
                                                     -> (me, lives_in, past, the instant
                                                        before the Denver fact began)
- "What's my shoe size?"                            -> mode "none": nothing to answer from

Predicates are recognised from cue phrases (:data:`PREDICATE_CUES`, most specific first);
subjects from the words "I/my" (the scope's owner), "my brother" (the owner's unnamed
brother, or the named one the store knows), "my boss" / "my wife" (the current value of
the owner's functional relation), or a name the scope knows. A name the scope has never
heard of makes the subject unknown, never someone else. Times come from
:mod:`graphmem.time.natural`, resolved against the question's own date.

>>> from datetime import datetime, timezone
>>> r = read_question("who was my boss in May 2024?", owner="Maya",
...                   reference=datetime(2026, 3, 1, tzinfo=timezone.utc))
>>> (r.subject, r.predicate, r.mode, r.window.start.date().isoformat())
('Maya', 'manager', 'past', '2024-05-01')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from graphmem.extraction.lexicon import PET_SPECIES, relative_name, relative_word
from graphmem.extraction.truecase import is_common_word, is_dictionary_word
from graphmem.model import normalise_name
from graphmem.time.instant import ONE_MICROSECOND, POS_INF, is_infinite, is_open_start
from graphmem.time.interval import Interval
from graphmem.time.natural import TimeExpression, find_time_expressions
from graphmem.time.window import PRESENT, window_from, window_times

_PREFERENCE = re.compile(
    r"favou?rite|\bfave?\b|\bfavs?\b|preferred|\bprefer|go-to|go to|\btop\b|number one|of choice|"
    r"\binto\b|obsessed|hooked|\blov(?:e|es|ed|ing)\b|\bbest\b|mad about|crazy about|\breckon|"
    r"\bpick\b|\bon repeat|\blistening to|\bwatching|\bcode in|\bprogram in|\bdrinking\b|"
    r"\bmost\b|\bregard\b|\bfond\b|\bkeen(?:ly)?\b|\battached\b|\benjoy|\bfollow\b|\bfavour"
)
# A favourite needs a preference word and one of these categories.
_FAVOURITE = tuple(
    (re.compile(cue), predicate)
    for cue, predicate in (
        (r"(?:programming |coding |dev |scripting )?languages?\b(?! (?:do|does|did) \w+ speak)|"
         r"\blang\b|\bcode in|\bprogram in|\bcoding\b", "favourite_language"),
        (r"\bfoods?\b|\bdish(?:es)?\b|\bmeals?\b|cuisine|\bfeed\b|\bgrub\b|\bsnacks?\b|"
         r"thing to eat|\beat\b", "favourite_food"),
        (r"\bdrinks?\b|\bdrinking\b|beverage|\bbevv?y\b|tipple", "favourite_drink"),
        (r"\bbooks?\b|\bnovels?\b|\bauthors?\b|\bread\b", "favourite_book"),
        (r"\bfilms?\b|\bmovies?\b|\bflicks?\b", "favourite_film"),
        (r"\bmusic\b|\bbands?\b|\bsongs?\b|\bartists?\b|\bsingers?\b|\balbums?\b|\bgenres?\b|"
         r"\blistening to|\bon repeat", "favourite_music"),
        (r"\bsports?\b|\bteams?\b", "favourite_sport"),
        (r"\bcolou?rs?\b", "favourite_colour"),
    )
)  # fmt: skip
# (cue regex over the lower-cased question, predicate), most specific first.
_ANY_SPECIES = "|".join(sorted((re.escape(w) for w in PET_SPECIES), key=len, reverse=True))
PREDICATE_CUES: tuple[tuple[str, str], ...] = (
    (r"deadline|\bdue\b|launch|release date|ship date|go-live|go live|cut-?off|delivery date|"
     r"\bship(?:s|ping)?\b|cut-?over|first power|energi[sz]ation|\bsubmission\b|completion date|"
     r"target date|printers?'?s? date|to the printers?|with the printers?|grand opening|"
     r"opening date|\bwhen is (?!the\b|my\b|a\b|our\b)\w+ opening\b", "deadline"),
    (r"\bphones?\b|mobile|\bcell\b|smartphone|handset|iphone|android|\bdevice|\bpixel\b|"
     r"\bgalaxy\b", "phone"),
    (r"\b(?:become|became|becoming|being|promoted to|made) (?:a |an |the )?(?!manager\b|my\b|his\b|her\b|them\b|vegan|vegetarian|veggie|pescatarian|keto|gluten|plant|meat|dairy)\w+", "job_title"),
    (r"manager|\bboss|\breport(?:s|ed|ing)?\b(?! card)|supervisor|answer(?:s|ed|ing)? to|"
     r"line manager|team lead|\bmanag(?:es?|ing)\b|in charge of (?:me|him|her)|superior|"
     r"work(?:s|ed|ing)? under\b|under whom|head of (?:department|dept)|department head|\bhod\b",
     "manager"),
    (r"partner|\bwife|husband|hubby|missus|spouse|girlfriend|boyfriend|\bbf\b|\bgf\b|"
     r"other half|better half|significant other|married|\bdat(?:ing|ed)\b|\bon a date\b|\bseeing\b|part(?:ed)? ways|"
     r"split up|"
     r"going out with|going steady|\bnovi[oa]\b|got together|together with|with whom|fianc|\bengaged\b(?!\s+(?:on|in)\b)|\bin love|"
     r"\bin a relationship|\bsweetheart|\bsplit\b|break(?:ing)? up|broke up", "partner"),
    (r"job title|\btitles?\b(?! of (?:my|the|his|her|their) (?:thesis|book|paper|song|album|film|movie|talk|article|dissertation|novel|poem))|\brole\b|position|occupation|profession|do for (?:a living|work|money)|"
     r"work(?:ing|ed)? as\b|what (?:kind of|sort of) (?:work|job)|"
     r"what(?:'s| is| was) (?:my|\w+'s|his|her) (?:job|gig)\b(?! at)|"
     r"what (?:do|does|did) \w+ do\b(?! (?:on|at|for fun|in (?:my|his|her) (?:free|spare)))|"
     r"doing for (?:work|a living)|promot", "job_title"),
    (r"\bpets?\b|\bdogs?\b|\bcats?\b|pupp(?:y|ies)|kitten|\banimals?\b|fur ?bab(?:y|ies)|"
     r"critters?|\bhamster|\brabbits?|\bparrot|\bfish\b|goldfish", "owns_pet"),
    # "what are my hens called?", "what's Yolanda's chihuahua called?": any species, asked
    # for its name
    (rf"\b(?:{_ANY_SPECIES})(?:s|es)?\b.*\b(?:called|name[sd]?)\b|"
     rf"\b(?:called|name[sd]?)\b.*\b(?:{_ANY_SPECIES})(?:s|es)?\b", "owns_pet"),
    (r"projects?|working on(?!\s+(?:the\s+)?(?:\d|\w+day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))|assigned to|\bon (?:the )?team for|rolled (?:off|onto)|(?:put|got put) on\b", "works_on"),
    (r"employer|compan(?:y|ies)|\bfirm\b|organi[sz]ation|employ|workplace|"
     r"\bwork(?:s|ed|ing)?\s+(?:at|for)\b|who (?:do|does|did|am|is|was) \w+ (?:work|working) for|"
     r"where (?:do|does|did|am|is|was|have|has) \w+ (?:been )?work|\bjobs?\b|"
     r"(?:which|what) (?:places?|offices?) .*\bwork|pays? (?:me|him|her|the bills)|"
     r"\bpay(?:check|cheque|slip)?\b.*\b(?:from|coming)|slaving|grind(?:ing)? (?:away )?(?:at|for)|"
     r"clock(?:ing|ed)? in|(?:start|started|starting|join|joined|joining|leave|left|leaving|quit)"
     r" (?:at|with)\b|places? (?:i've|i have|have i|has \w+|\w+ has) worked|\bhired\b|\bjoin(?:ed|s|ing)?\b|"
     r"\bwork(?:ed|ing)?\b.*\b(?:since|before|after|in \d{4})|where (?:do|does|did) \w+ work|"
     r"\b(?:first|last|final) (?:day|shift|week) (?:at|with)\b",
     "works_at"),
    (r"\blive[sd]?\b|\bliving\b|resid|\bhome\b|based|located|\bcit(?:y|ies)\b|\btowns?\b|"
     r"countr(?:y|ies)|\bmoved?\b|relocat|address|\bstay(?:ing|s|ed)?\b (?:in|at)|"
     r"where (?:am|is|are|was|were) (?:i|\w+) (?:now|these days|at the moment|currently|then)|"
     r"\bplaces?\b .*\b(?:lived|stayed)|\bsuburb|\bcrib\b|\bpad\b", "lives_in"),
    (r"\bdiet(?:s|ary)?\b|vegetarian|\bvego\b|\bveggie\b|\bvegan|pescatarian|\bketo\b|\beat(?:s|ing)?\b|"
     r"\bmeat\b|plant-based|food (?:rules|restrictions)|\bate\b", "diet"),
    (r"hobb(?:y|ies)|pastimes?|free time|spare time|for fun|downtime|leisure|"
     r"\binto\b|on (?:the )?weekends|\bpick(?:ed)? up\b|\b(?:taken|took|take) up\b|"
     r"\b(?:give|gave|given) up\b",
     "hobby"),
    (r"\bsiblings?\b|\bbrothers\b|\bsisters\b", "sibling"),
    (r"\bparents\b|\bolds\b|\bfolks\b", "parent"),
    (r"\bchildren\b|\bkids\b", "child"),
    (r"\bfriends\b|\bmates\b|\bbuddies\b|\bpals\b", "friend"),
    (r"\bwork(?:s|ed|ing)?\b|\bemployed\b", "works_at"),  # last: "for whom does Ana work?"
)  # fmt: skip
_CUES = tuple((re.compile(cue), predicate) for cue, predicate in PREDICATE_CUES)

_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'd|im|ive)\b")
# "my brother", "my mum's", "my boss" (relation words of lexicon.RELATIVE_WORDS)
_MY_RELATIVE = re.compile(
    r"\b(?:my|our)\s+((?:best|older|younger|big|little|line|step)?\s*[a-z-]+)"
)
_NAME = re.compile(r"\b([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*)")
_VALUE = re.compile(r"\b([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|\d+\w*))*)")  # "Pixel 8"
_KNOWN_AT = re.compile(
    r"on record|on file|in (?:your|the) (?:records?|notes?|memory|files?|system|database|log)|"
    r"\b(?:date|deadline|name|value) (?:you had|had you)\b|"
    r"writ(?:ten|e) down|\bnoted\b|\bhave down\b|\bhad down\b|\bhad (?:me|him|her) (?:down|as)\b|"
    r"did you (?:know|have|think|believe|record|store|log|list|note|say)|had you (?:got|noted|recorded|stored)|"
    r"as far as you knew|according to (?:you|your)|what (?:was|were) (?:recorded|stored|logged|saved|listed)|"
    r"did (?:the|your) (?:memory|records?|notes?) say|you (?:had|were) (?:told|aware)|"
    r"what did you (?:have|hold|keep)|(?:recorded|stored|logged|saved) (?:for|as|about)|"
    r"did (?:you|u) (?:reckon|have|show|list|record)|(?:were|was) (?:you|u) showing|showing as|"
    r"(?:you|u)(?:'d| had| have) (?:me|him|her|it)\b|'d (?:you|u) have|(?:have|had) (?:\w+ )?listed|"
    r"listed (?:for|as|under)|what did (?:you|u) (?:think|believe)|on your (?:books|list|radar)|"
    r"\b(?:your|the) (?:records?|notes?|memory|files?|log|system)\b|you (?:had|have) (?:stored|recorded|noted|saved)|"
    r"\bon file\b|\bhad on record\b|\bmemory (?:say|said|show|showed|have|had|hold|held)\b|\bsnapshot\b"
)
_TIMELINE = re.compile(
    r"in order|chronolog|history|over (?:time|the years)|\bever\b|all (?:the )?(?:places|cities|"
    r"towns|companies|jobs|employers|phones|pets|titles|roles|managers|bosses|partners|"
    r"languages|projects)|every (?:place|city|job|company|phone)|(?:which|what) (?:cities|places|towns|"
    r"companies|employers|jobs|phones|roles|titles|positions|managers|bosses|partners|devices|languages|countries)|"
    r"how many (?:times|places|cities|jobs|companies|phones)|oldest first|newest first|"
    r"most recent first|earliest first|one after (?:the )?other|(?:from )?first to (?:last|latest|now|"
    r"most recent)|(?:earliest|oldest) to (?:latest|newest|most recent)|(?:newest|latest|most recent) to "
    r"(?:oldest|earliest)|start to finish|run me through|walk me through|list (?:all|every|the|my)|so far(?! as)|\ball my\b|"
    r"over the course of|succession|in sequence|\btrace\b|"
    r"through the years|sequence|progression|what were all|(?:been|gone|went) through|"
    r"every (?:place|one|person|job|role|title|phone|pet|hobby|diet|team|project)|"
    r"all the (?:people|places|ones|jobs|roles)|pick(?:ed)? up and (?:drop|dropped|ditch)|"
    r"come and gone|\bhave (?:i|\w+) (?:had|tried|lived|worked|been|owned|dated|used|done)\b"
    r".*\b(?:since|so far|over|in \d{4})"
)
_NOW = PRESENT  # words naming the present: graphmem.time.window, which search reads by too
_WHEN = re.compile(
    r"^\s*(?:(?:so|and|hey|ok|okay|also|btw|please|pls|remind me|tell me|quick one|quick q|"
    r"do you (?:know|remember)|can you (?:tell|remind) me)[,:!]?\s+)*(?:when|(?:the\s+)?date\b|what (?:date|day|month|year|time)|since when|how long ago|on what date|in what year|which (?:year|month|day)|(?:from|since|as of) (?:what|which) (?:date|day|month|year|point)|on which (?:date|day))\b"
    # "what's the date of our move?", "last day at nordwave - when"
    r"|^\s*what(?:'s|’s| is| was) the (?:date|day) of\b|(?:^|\s[-–—:,]\s*)when\s*\?*\s*$"
)
# "what day do we move", "when does Ana start at Globex": said in the present, an event
# still to come ("when did we move" asks about one gone)
_COMING_EVENT = re.compile(
    r"\b(?:do|does)\s+(?:i|we|he|she|they|[a-z]+)\s+(?:move|start|begin|leave|finish|join|"
    r"switch|relocate|get)\b"
)
_HOW_LONG = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:how long\b(?!\s+ago)|how many (?:years|months|weeks|days)\b(?!\s+ago))"
)
_DATE_ASKED = re.compile(r"\b(?:what|which) (?:date|day)\b")
_END_VERBS = re.compile(
    r"\b(?:leave|left|quit|stop(?:ped)?|end(?:ed)?|finish(?:ed)?|move[sd]? (?:out|away)|break up|broke up|"
    r"split|lose|lost|die[sd]?|pass(?:ed)? away|give up|gave up|drop(?:ped)?|rehome[sd]?|sold|"
    r"no longer|retire[sd]?|resign(?:ed)?|fired|laid off|cease[ds]?|part(?:ed)? ways|taken off|"
    r"come off|came off|moved? on from|walk(?:ed)? away|rolled off|last (?:day|shift|week)|"
    r"final (?:day|shift))\b"
)
_ORDER_NEWEST = re.compile(
    r"newest first|most recent first|latest first|reverse chronolog|"
    r"(?:newest|latest|most recent) to (?:oldest|earliest)"
)
_SINCE_WE_MET = re.compile(
    r"(?i)\s*\b(?:ever\s+)?(?:since|from\s+when)\s+(?:we|you\s+and\s+i|i)\s+(?:first\s+)?"
    r"(?:started|began|start)\s+(?:talking|chatting|writing|texting|messaging|this|using\s+you)\b"
)
# Time anchored on another fact: "just before I relocated to Denver", "since I started at X"
_ANCHOR = re.compile(
    r"\b(?P<rel>(?:just |right |shortly |immediately )?before|(?:just |right |shortly )?after|since|"
    r"when|while|during (?:the time|my time)|back when|by the time|until|till|the (?:day|week|month)|"
    r"throughout my time at|during my time at|during the years|the years|during|"
    r"(?:on\s+)?(?:my|the)\s+first\s+day\s+(?=at\b)|the\s+point|"
    r"around the time)\s+"
    r"(?P<clause>(?:i|my|me|we|he|she|they|[a-z]+ing|(?-i:[A-Z])\w+)\b[^?.,;]*)",
    re.I,
)
_WHICH_KIND = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+)?(?P<noun>[a-z]+)\s+(?:do|does|did|am|are|is|was|were)\s+"
    r"\w+\s+(?:(?:currently|now|still)\s+)?(?:live|living|based|staying)\b"
)
_PLACE_NOUNS = frozenset(
    "city cities town towns country countries place places village suburb state area "
    "neighbourhood neighborhood part district borough county province region street address "
    "flat house apartment home island one ones bit corner capital".split()
)
# A question that presumes a change to come: the value now is no answer to it
_CHANGE_AHEAD = re.compile(
    r"\b(?:am|are|is|i'm|we're|she's|he's|they're)\s+(?:\w+\s+){0,3}?(?:moving|relocating|"
    r"switching|changing|starting|joining|transferring)\b|\bwill\s+(?:\w+\s+)?(?:move|relocate|"
    r"switch|change|start|join|transfer)\b|\bnext\s+(?:job|home|place|city|employer|"
    r"company|phone|boss|manager)\b"
    # "what will my title be at the new job?", "title at new job"
    r"|\b(?:at|in|for)\s+(?:the\s+|my\s+)?new\s+(?:job|role|position|company|place|house|flat|team)\b"
)
_FUTURE_TENSE = re.compile(r"\b(?:will|won't|shall|going to|gonna)\b|\w'll\b")
_PAST_TENSE = re.compile(
    r"\b(?:did|was|were|had|used to|back then|previously|before|formerly|at the time|"
    r"lived|worked|moved|had)\b"
)


@dataclass(frozen=True)
class Reading:
    """How a question was understood.

    ``mode``: "current" (at the question's date), "past" (values during ``window``),
    "timeline" (every value overlapping ``window``, in order), "known_at" (what was on
    record at ``at``, about that instant), "when" (when ``object`` started or ended:
    ``edge``; as on record at ``at``, when given) or "none" (no predicate recognised). ``subject`` is None when the question
    names someone the scope does not know.
    """

    subject: str | None
    predicate: str | None
    mode: str
    window: Interval | None = None
    at: datetime | None = None
    object: str | None = None
    edge: str = "start"  # of a "when" answer: "start", "end", or "span" ("how long")
    newest_first: bool = False
    # "who will I report to?" ("next"): the change on record for later, else the value now;
    # "which city are we moving to?" ("change"): only a change on record for later
    ahead: str | None = None
    time_text: str | None = None
    unknown_name: str | None = None


# What the reader may ask the store: (scope-bound) lookups, so that it stays testable.
Lookup = Callable[[str, str], list]  # (subject, predicate) -> facts (current belief, any time)
KnownNames = Callable[[list[str]], dict[str, str]]  # candidate names -> canonical names


_ASIDE = re.compile(r"\s*\([^()]{1,80}\)")


def read_question(
    question: str,
    *,
    owner: str,
    reference: datetime,
    known_names: KnownNames | None = None,
    facts_of: Lookup | None = None,
    tz=None,
) -> Reading:
    """Read ``question`` (asked at ``reference`` by ``owner``) into a :class:`Reading`."""
    question = _plain_times(" ".join(question.replace("’", "'").split()))
    question = _asked_part(question, reference)
    # "who am I working for (besides my cats lol)?": an aside is not what is asked
    without_asides = _ASIDE.sub("", question)
    question = without_asides if re.search(r"\w", without_asides) else question
    question = _SINCE_WE_MET.sub("", question)  # all of what was said: no bound at all
    anchor = _ANCHOR.search(question)
    if anchor and any(t.span[0] == 0 for t in find_time_expressions(anchor.group(), reference)):
        anchor = None  # "since June 2024" is a time, not an event ("since Maya moved")
    # The main question without its anchor clause: "what phone did I have | just before I
    # moved to Melbourne" asks about phones, and Melbourne is not its subject.
    main = question[: anchor.start()] + question[anchor.end() :] if anchor else question
    low = main.lower()
    # "where does my wife work": the relation names the subject, "work" the predicate
    kin = next((m for m in _MY_RELATIVE.finditer(low) if relative_word(m.group(1))), None)
    bare = low[: kin.start()] + "them" + low[kin.end() :] if kin else low
    predicate = predicate_of(bare)
    # "who is my wife?" asks for the partner; "how tall is my wife?" asks nothing we know
    if predicate is None and (kin is None or re.search(r"\bwho\b|\bname|\bcalled\b", low)):
        predicate = predicate_of(low)
    if predicate is None and kin is not None:
        # "since when has Hana been my boss?", "what did you have down as my partner?": the
        # relation itself is what is asked about (one value at a time, so it is answerable)
        relation = _RELATION_PREDICATE.get(relative_word(kin.group(1)) or "")
        predicate = relation if relation in ("manager", "partner") else None
    if _ADVICE.search(low) or (predicate == "manager" and _MANAGED_BY.search(main)):
        predicate = None
    timeless = _without_times(main, reference, tz)
    subject, unknown = _subject(timeless, timeless.lower(), owner, predicate, known_names, facts_of)
    if predicate == "deadline":  # a deadline belongs to a project, named anywhere
        beside = re.search(
            r"\b((?:[A-Z][\w-]+\s+){0,2}[A-Z][\w-]+)(?:'s)?\s+(?:deadline|due|launch|release|go-live|"
            r"ship|cut-?over|first\s+power|energi[sz]ation|submission|opening|completion|printer)|"
            r"(?:deadline|due date|launch|release|go-live|submission|cutover)\s+(?:for|of)\s+(?:the\s+)?"
            r"((?:[A-Z][\w-]+\s+){0,2}[A-Z][\w-]+)",
            timeless,
        )
        if beside and (beside.group(1) or beside.group(2)).lower() not in _NOT_NAMES:
            timeless = (beside.group(1) or beside.group(2)) + ", " + timeless
        # "the Petit Pont manuscript deadline": a name of several words, or any one of them
        runs = [_strip_possessive(n.group()) for n in _CAPITALISED_RUN.finditer(timeless)]
        named = [n for n in _subnames(runs) if n.lower() not in _NOT_NAMES and n != owner]
        known = known_names(named) if known_names is not None and named else {}
        # a common word is a project's name when the store knows it ("Lighthouse")
        projects = [n for n in named if n in known or not is_common_word(n)]
        if not projects and known_names is not None:
            # "when's the hjerte deadline?": a project typed in lower case the store knows
            words = [w.group() for w in _LOWER_WORD.finditer(timeless)]
            words = [w for w in words if w not in _NOT_NAMES and len(w) > 2]
            known = known_names(words) if words else {}
            projects = [w for w in words if w in known and known[w] != owner]
        if projects:
            first = next((n for n in projects if n in known), projects[0])
            subject, unknown = known.get(first, first), None
            if known_names is not None and first not in known:
                unknown = first
    if predicate is not None and unknown is None and known_names is not None:
        unknown = _unheard_of(timeless, subject or owner, owner, known_names, facts_of)
    if predicate is None and _WHEN.search(low) and facts_of is not None:
        # "when'd we get Mango?": the value names the predicate, if the store knows it
        value = _when_object(main, subject, owner)
        known = [f for f in facts_of(subject or owner, "") if value and f.object
                 and normalise_name(f.object) == normalise_name(value)]  # fmt: skip
        predicate = known[0].predicate if known else None
    if (
        predicate == "owns_pet"
        and subject == owner
        and _ONE_PET.search(low)
        and re.search(r"\b(?:called|calling|call|name|named|names)\b", low)
    ):
        # which of the pets is the rabbit is not on record: answering with every pet
        # would answer another question
        return Reading(subject, None, "none", unknown_name=unknown)
    kind = _WHICH_KIND.search(low)
    if predicate == "lives_in" and kind and kind["noun"] not in _PLACE_NOUNS:
        # "which platform do I live on?": a kind of place the store does not keep
        return Reading(subject, None, "none", unknown_name=unknown)
    if predicate is None:
        return Reading(subject, None, "none", unknown_name=unknown)
    # "where will I be living in April?": a month without its year is the coming one
    ahead = "future" if _FUTURE_TENSE.search(low) else "past"
    times = window_times(main, reference, tz=tz, prefer=ahead)
    window, at, text = _window(times, reference)
    anchored = None
    if window is None and anchor is not None:
        anchored = _anchor(anchor, subject or owner, owner, facts_of)
        if anchored is None and facts_of is not None:
            # "when I was in Paris" with no Paris on record: answering without the
            # condition would answer another question
            return Reading(subject, predicate, "none", unknown_name=unknown)
    base = dict(subject=subject, predicate=predicate, unknown_name=unknown)
    if _KNOWN_AT.search(low) and at is not None and _DATE_ASKED.search(low):
        # "in June, what date did you have for my first day at Acme?": a "when", as
        # believed then
        return Reading(**base, mode="when", at=at, object=_when_object(main, subject, owner),
                       edge="end" if _END_VERBS.search(low) else "start", time_text=text)  # fmt: skip
    if _KNOWN_AT.search(low) and at is not None:
        if text and re.search(r"(?i)\b(?:start|beginning)\s+of\b", text) and window is not None:
            at = min(window.start + timedelta(days=1), window.end) - ONE_MICROSECOND
        return Reading(**base, mode="known_at", at=at, window=window, time_text=text)
    if _WHEN.search(low) and predicate != "deadline":
        # "what day do we move?", "when will I start?": an event still to come
        coming = ahead == "future" or _COMING_EVENT.search(low) is not None
        return Reading(**base, mode="when", object=_when_object(main, subject, owner),
                       edge="end" if _END_VERBS.search(low) else "start",
                       ahead="next" if coming else None)  # fmt: skip
    if _HOW_LONG.match(low) and predicate != "deadline":
        # "how long did I live in Lima?": the stretch of that value, or nothing
        return Reading(**base, mode="when", object=_when_object(main, subject, owner),
                       edge="span")  # fmt: skip
    newest = bool(_ORDER_NEWEST.search(low))
    ranged = times and times[0].kind in ("since", "range", "after", "before")
    if _TIMELINE.search(low) or (ranged and _plural(low)):
        span = window if (window is not None and (ranged or _plural(low))) else None
        if anchored is not None:
            span = anchored[0]
        if window is not None and not ranged and not _plural(low):
            span = None
        return Reading(**base, mode="timeline", window=span or window, time_text=text,
                       newest_first=newest)  # fmt: skip
    if window is not None and not _NOW.search(low):
        if times[0].kind == "since":
            return Reading(**base, mode="timeline", window=window, time_text=text)
        return Reading(**base, mode="past", window=window, at=at, time_text=text)
    if anchored is not None:
        span, text = anchored
        mode = "timeline" if span.is_open_ended and not is_open_start(span.start) else "past"
        return Reading(**base, mode=mode, window=span, time_text=text, newest_first=newest)
    if _CHANGE_AHEAD.search(low):
        return Reading(**base, mode="current", ahead="change")
    return Reading(**base, mode="current", ahead="next" if ahead == "future" else None)


# Where one sentence of a message ends: not after "Dr." or "St." (a name goes on).
_SENTENCE_END = re.compile(r"(?<![A-Z])(?<!\b(?:Dr|Mr|Ms|St|Jr|Sr|Mt))(?<!\bMrs)[.!?:;]+\s+")


def _asked_part(question: str, reference: datetime) -> str:
    """The sentence that asks, without the talk around it: "Good morning mijo, quick one
    for you: what town am I living in these days?", "Which phone do I have now? Mateo is
    asking for a charger". A sentence around it that says a time stays ("On 2025/06/01:
    where did you have me living?")."""
    cuts = [0] + [m.end() for m in _SENTENCE_END.finditer(question)] + [len(question)]
    parts = [question[a:b] for a, b in zip(cuts, cuts[1:], strict=False) if question[a:b].strip()]
    asking = next((i for i, p in enumerate(parts) if p.rstrip().endswith("?")), None)
    if asking is None or len(parts) == 1:
        return question
    kept = [p for i, p in enumerate(parts)
            if i == asking or find_time_expressions(p, reference)]  # fmt: skip
    return "".join(kept).strip()


def _without_times(text: str, reference: datetime, tz) -> str:
    """``text`` with its time phrases blanked: "New Year's Day" names nobody."""
    chars = list(text)
    for t in find_time_expressions(text, reference, tz=tz):
        chars[t.span[0] : t.span[1]] = " " * (t.span[1] - t.span[0])
    return "".join(chars)


# Chat shorthand, spelt out before reading ("this time last yr, who was my mgr").
_SHORTHAND = {
    "yr": "year", "yrs": "years", "mos": "months", "wk": "week", "wks": "weeks",
    "mgr": "manager", "mgrs": "managers", "thru": "through", "w/": "with", "langs": "languages",
    "eng": "engineer", "promo": "promotion", "atm": "at the moment", "rn": "right now",
    "b/c": "because", "gf": "girlfriend", "bf": "boyfriend",
}  # fmt: skip
_ORDINALS = {
    w: i + 1
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
        "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth "
        "twenty-first twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth "
        "twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first".split()
    )
}
_ORDINAL_DAY = re.compile(
    r"(?i)\b(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")(?=\s+of\s+[a-z])"
)


def _plain_times(text: str) -> str:
    """Chat ways of giving a time, in words the time parser reads ("at like 3:30pm" ->
    "at 3:30pm", "8 in the morning" -> "8am")."""
    text = re.sub(r"(?i)\b(?:like|around|about|roughly|approx(?:imately)?|ish)\s+(?=\d)", "", text)
    text = _ORDINAL_DAY.sub(
        lambda m: f"{_ORDINALS[m.group(1).lower()]}th", text
    )  # "the first of May"
    text = re.sub(
        r"\s+(?:UTC|GMT|Z|BST|CET|CEST|EST|EDT|PST|PDT|British\s+Summer\s+Time|Central\s+European"
        r"(?:\s+Summer)?\s+Time|local\s+time)\b|~",
        " ",
        text,
    )
    text = re.sub(
        r"(?i)\b(?:across|over|throughout|during)\s+(\d{4})\s+and\s+(\d{4})\b",
        r"between \1 and \2",
        text,
    )
    for short, word in _SHORTHAND.items():
        text = re.sub(rf"(?i)(?<![\w/]){re.escape(short)}(?![\w/])", word, text)
    # "09:30 on 14 January" / "4 p.m. on Tuesday 24 March" -> "on 14 January at 09:30"
    text = re.sub(
        r"(?i)\b(?:at\s+)?(?P<clock>\d{1,2}(?::\d\d)?\s*(?:[ap]\.?\s?m\.?)?|midnight|noon|midday)\s+on\s+"
        r"(?P<date>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+[a-z]+(?:\s+\d{4})?|[a-z]+\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)",
        lambda m: f"on {m.group('date')} at {m.group('clock')}",
        text,
    )
    text = re.sub(r"(?i)\b(\d{1,2})(?::(\d\d))?\s+in\s+the\s+morning\b",
                  lambda m: f"{m.group(1)}{':' + m.group(2) if m.group(2) else ''}am", text)  # fmt: skip
    return re.sub(r"(?i)\b(\d{1,2})(?::(\d\d))?\s+(?:in\s+the\s+(?:afternoon|evening)|at\s+night)\b",
                  lambda m: f"{m.group(1)}{':' + m.group(2) if m.group(2) else ''}pm", text)  # fmt: skip


def predicate_of(low: str) -> str | None:
    """The predicate a lower-cased question (or clause) asks about, if any."""
    if _PREFERENCE.search(low):
        found = next((p for cue, p in _FAVOURITE if cue.search(low)), None)
        if found is not None:
            return found
        if re.search(r"\bfavou?rite|\bfave\b|\bfav\b", low):
            return None  # a favourite of a kind we do not keep ("favourite animal")
    return next((p for cue, p in _CUES if cue.search(low)), None)


def _plural(low: str) -> bool:
    return bool(
        re.search(
            r"\b(?:which|what) (?!was\b|is\b|has\b|does\b)\w+s\b|\bhave i (?:had|lived|worked)|\bbeen\b",
            low,
        )
    )


# Asking for advice or an opinion is not asking for a stored fact.
# Who reports to someone, not to whom they report: the manager key read backwards, which
# the store does not answer by subject ("who reports to me?", "who does Ana manage?").
_MANAGED_BY = re.compile(
    r"(?i:\b(?:reports?|reporting|answers?|answering)\s+(?:directly\s+)?to\s+)(?:(?i:me|him|her|us)\b|"
    r"(?!(?:In|At|On|Now|The|This|That|When|Before|After|Since|During|Back|Last|Until)\b)[A-Z]\w+)|(?i:\bwho\s+(?:do|does|did)\s+\w+\s+(?:manage|supervise|line[- ]manage)\b)|"
    r"(?i:\b(?:work(?:s|ing)?|are|is)\s+under\s+)(?:(?i:me|him|her)\b|[A-Z]\w+)|"
    r"(?i:\b(?:my|his|her|\w+'s)\s+(?:direct\s+)?reports\b|\bwho(?:'s|\s+is|\s+are)\s+on\s+"
    r"(?:my|his|her)\s+team\b)"
)

_ADVICE = re.compile(
    r"\b(?:should i|reckon i should|do you think i|would you (?:recommend|suggest|pick|choose)|"
    r"what do you think|can you recommend|"
    r"any (?:tips|ideas|suggestions)|recommend|which (?:one )?is better|worth it|good name|"
    r"name for (?:a|my|the) new|ideas for|suggestions for)\b"
    # "what dating app was it I signed up to?": an app or site, no person
    r"|\b(?:what|which)\s+(?:\w+\s+)?(?:app|apps|website|site|platform|service)\b"
    # "where did I do my pharmacy residency?": where an activity happened, no home
    r"|\bwhere\s+(?:did|do|will|would|should)\s+(?:i|you|he|she|we|they)\s+(?:do|study|train|"
    r"go|eat|meet|buy|learn|spend|celebrate)\b"
)


def _window(times: list[TimeExpression], reference: datetime):
    """The question's time window, the instant a belief is read at, and the phrase."""
    found = window_from(times, reference)
    return (None, None, None) if found is None else (found.interval, found.at, found.text)


_SUBJECT_BEFORE = re.compile(
    r"(?:\b(?:does|did|is|was|has|have|do|are|were|about|for|can|will|would)|'s|'re)\s*$", re.I
)
_SUBJECT_AFTER = re.compile(
    r"^(?:'s\b|\s*[-–—:]\s|\s+(?:live[sd]?|work(?:s|ed|ing)?|do(?:es|ing)?|got|ha[sd]|have|is|was|been|"
    r"go(?:es|ing)|dat(?:es|ed|ing)|see(?:s|ing)|drink(?:s|ing)?|eat(?:s|ing)?|into|report(?:s|ed)?|"
    r"use[sd]?|using|move[sd]?|prefer(?:s|red)?|like[sd]?|love[sd]?|keep|keeps|kept)\b)",
    re.I,
)
_CAPITALISED = re.compile(r"\b[A-Z][\w'’.-]*")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*")
# "what's my rabbit called?": one pet by its species, which the store does not keep
_SPECIES = "|".join(sorted((re.escape(w) for w in PET_SPECIES), key=len, reverse=True))
_ONE_PET = re.compile(
    rf"\b(?:my|our|the)\s+(?:new\s+|little\s+|two\s+|three\s+)?(?:{_SPECIES})(?:s|es)?\b"
)
_BARE_RELATIVE = re.compile(
    r"\b(mum|mom|dad|nan|nana|gran|grandma|grandpa|granny)(?:'s)?\b"
    # "where does brother work": a relative whose "my" was dropped, as the verb's subject
    r"|\b(?:does|did|is|was|has|had|will|do)\s+(brother|sister|son|daughter|cousin|wife|"
    r"husband|girlfriend|boyfriend|aunt|uncle|niece|nephew|mother|father)\b"
)


def _subject(main, low, owner, predicate, known_names, facts_of):
    """(subject, unknown name): whose fact the question asks about."""
    if re.search(r"\b\w+ and (?:i|me)\b|\b(?:me|i) and \w+", low):
        return owner, None  # "when did Sam and I split?": the owner's fact
    relative = _MY_RELATIVE.search(low) or _BARE_RELATIVE.search(low)
    word = relative_word(relative.group(1) or relative.group(2)) if relative else None
    named_relative = (
        re.search(r"\b(?:my|our)\s+(?:[a-z-]+\s+)?[a-z-]+\s+(?P<n>[A-Z][\w'’-]+)", main)
        if word is not None
        else None
    )
    if named_relative is not None and not is_common_word(_strip_possessive(named_relative["n"])):
        name = _strip_possessive(named_relative["n"])  # "my sister Leila": Leila
        known = known_names([name]) if known_names is not None else {}
        return known.get(name, name), (None if known_names is None or name in known else name)
    if word is not None:
        # "my boss" asking for the manager is the owner's manager; "my wife" likewise.
        relation = _RELATION_PREDICATE.get(word)
        if relation in ("manager", "partner") and predicate == relation:
            return owner, None
        if relation is not None and predicate == relation and re.search(r"\bwho\b|\bname", low):
            return owner, None
        return _resolve_relative(owner, word, facts_of), None
    named = [
        _strip_possessive(m.group())
        for m in _CAPITALISED.finditer(main)
        if _SUBJECT_BEFORE.search(main[: m.start()])
        or _SUBJECT_AFTER.match(main[m.end() :])
        or m.group().endswith(("'s", "’s"))
    ]
    named = [n for n in _subnames(named) if n.lower() not in _NOT_NAMES and n != owner]
    known = known_names(named) if known_names is not None and named else {}
    if named:
        name = next((n for n in named if n in known), named[0])
        if known.get(name, name) != owner:
            return known.get(name, name), (None if name in known else name)
    if known_names is not None:
        typed_lower = _lowercase_subject(main, owner, known_names, facts_of)
        if typed_lower is not None:
            return typed_lower
    return owner, None


_LOWER_WORD = re.compile(r"\b[a-z][a-z'’-]+")


def _lowercase_subject(main: str, owner: str, known_names: KnownNames,
                       facts_of: Lookup | None) -> tuple[str, str | None] | None:  # fmt: skip
    """A name typed in lower case where a subject stands ("where does lotte live now?",
    "what are ilse's hobbies?"): the person the store has facts about by that name, else,
    for a word no dictionary knows, a name it never heard of. Never the owner's own
    facts: "where does yara live?" answered with the owner's city is a wrong answer."""
    spots = [
        (m, m.group().endswith(("'s", "’s")))
        for m in _LOWER_WORD.finditer(main)
        if _SUBJECT_BEFORE.search(main[: m.start()])
        or _SUBJECT_AFTER.match(main[m.end() :])
        or m.group().endswith(("'s", "’s"))
    ]
    mine = normalise_name(owner)
    names = [
        (_strip_possessive(m.group()), possessive)
        for m, possessive in spots
        if len(_strip_possessive(m.group())) > 2
        and _strip_possessive(m.group()) not in _NOT_NAMES
        and not _FIRST_PERSON.fullmatch(m.group())
        and normalise_name(_strip_possessive(m.group())) != mine
    ]
    if not names:
        return None
    known = known_names([n for n, _ in names])
    people = [known[n] for n, _ in names if n in known and known[n] != owner]
    if people:
        # one the store has facts about first; one it only knows by name is still whom
        # the question asks about ("I don't know"), never the owner
        with_facts = [p for p in people if facts_of is None or facts_of(p, "")]
        return (with_facts or people)[0], None
    for name, possessive in names:
        at = main.find(name)
        if (
            name not in known
            and not is_dictionary_word(name)
            and name not in _CHAT_NOISE
            and (
                possessive
                or (
                    _SUBJECT_BEFORE.search(main[:at])
                    and _SUBJECT_AFTER.match(main[at + len(name) :])
                )
            )
        ):
            return name.capitalize(), name.capitalize()
    return None


_CHAT_NOISE = frozenset("haha hahaha hehe lol lmao lmfao omg pls plz thx tbh ngl btw idk".split())


def _unheard_of(main: str, subject: str, owner: str, known_names: KnownNames,
                facts_of: Lookup | None) -> str | None:  # fmt: skip
    """A name the question is conditioned on that the store never heard of ("my job title
    at Google?", "what part of Australia did she move to?"): answering without it would
    answer another question (dev e2e: such answers were all wrong)."""
    runs = [_strip_possessive(n.group()) for n in _CAPITALISED_RUN.finditer(main)]
    mine = {normalise_name(w) for name in (subject, owner) for w in (name, *name.split())}
    named = [
        n for n in _subnames(runs)
        if n.lower() not in _NOT_NAMES and normalise_name(n) not in mine
        and not is_common_word(n) and " " not in n
    ]  # fmt: skip
    if not named:
        return None
    known = known_names(named)
    values = " ".join(
        normalise_name(f.object or "") for f in (facts_of(subject, "") if facts_of else [])
    )
    return next((n for n in named if n not in known and normalise_name(n) not in values), None)


def _possessed(low: str, name: str) -> bool:
    """The question is about a named person even though it says "my" ("my sister Ana's job")."""
    return bool(re.search(rf"\b{re.escape(name.lower())}(?:'s)?\b", low))


def _asks_about(low: str, name: str) -> bool:
    n = re.escape(name.lower())
    return bool(
        re.search(
            rf"\b(?:does|did|is|was|has|have|do) {n}\b|\b{n} (?:live|work|do|has|is|was)\b", low
        )
    )


def _strip_possessive(name: str) -> str:
    return re.sub(r"['’]s$", "", name).strip(".")


def _subnames(names: list[str]) -> list[str]:
    """Each capitalised run and its single words ("What's Leila's" -> "Leila")."""
    out: list[str] = []
    for name in names:
        parts = [_strip_possessive(w) for w in name.split()]
        kept = [
            w for w in parts if w.lower() not in _NOT_NAMES and not w.lower().startswith("what")
        ]
        for candidate in (" ".join(kept), *kept):
            if candidate and candidate not in out:
                out.append(candidate)
    return out


def _resolve_relative(owner: str, word: str, facts_of: Lookup | None) -> str:
    """ "my brother": the named brother the store knows if it knows exactly one relative
    by that relation, else the owner's unnamed brother."""
    unnamed = relative_name(owner, word)
    predicate = _RELATION_PREDICATE.get(word)
    if facts_of is None or predicate is None:
        return unnamed
    if facts_of(unnamed, ""):
        return unnamed
    linked = {f.object for f in facts_of(owner, predicate) if f.object}
    named = [name for name in linked if "'s " not in name]
    if len(named) == 1 and predicate in ("manager", "partner"):
        return named[0]
    return unnamed


_RELATION_PREDICATE = {
    "brother": "sibling", "sister": "sibling", "mother": "parent", "father": "parent",
    "son": "child", "daughter": "child", "friend": "friend", "manager": "manager",
    "wife": "partner", "husband": "partner", "partner": "partner", "girlfriend": "partner",
    "boyfriend": "partner",
}  # fmt: skip
_NOT_NAMES = frozenset(
    "i i'm i've i'd what where when who whom whose which how why is are was were do does did can could "
    "would will should have has had my me the a an and or since before after during in on at "
    "by from until till back just so hey ok okay please tell remind any anything quick "
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday christmas easter new year "
    "spring summer autumn fall winter today yesterday tomorrow last next this that "
    "as of about around".split()
)


_WHEN_VERB = re.compile(
    r"\b(?:start(?:ed)?|began|begin|join(?:ed)?|leave|left|quit|move[ds]? (?:in(?:to)?|out of|to|from|away from)|"
    r"get|got|adopt(?:ed)?|go|went|become|became|being|give up|gave up|stop(?:ped)? (?:being|reporting to|seeing|dating)?|"
    r"take up|took up|pick(?:ed)? up|switch(?:ed)? to|swap(?:ped)? to|split (?:with|from)|"
    r"break up with|broke up with|lose|lost|retire[ds]? from|last (?:day|shift) (?:at|with)|"
    r"live[ds]? in|work(?:ed)? (?:at|for)|been (?:at|with|in)|been)\s+(?:at |with |to |from |for )?"
)


def _when_object(question: str, subject: str | None, owner: str) -> str | None:
    """The value a "when" question names ("when did I start at the BBC" -> BBC, "when did
    I go vegan" -> vegan)."""
    names = [_strip_possessive(m.group(1)) for m in _VALUE.finditer(question) if m.start() > 0]
    names = [n for n in names if n.lower() not in _NOT_NAMES and n not in (subject, owner)]
    if names:
        return names[-1]
    verbs = list(_WHEN_VERB.finditer(question.lower()))
    if not verbs:
        return None
    tail = question[verbs[-1].end() :].strip(" ?!.")
    tail = re.sub(r"(?i)^(?:my |the |a |an |our )+", "", tail)
    tail = re.sub(r"(?i)\s+(?:again|exactly|then|first|for the first time|lol)\b.*$", "", tail)
    tail = re.sub(r"(?i)\s*[-–—:,]?\s*\bwhen\s*$", "", tail)  # "at nordwave - when"
    return tail or None


def _anchor(m: re.Match, subject: str, owner: str, facts_of: Lookup | None):
    """A window anchored on another fact ("just before I relocated to Denver"): the fact
    whose value the clause names (else the only change of the predicate it names), of
    the question's subject ("he/she") or of the owner. Returns (window, phrase) or None."""
    if facts_of is None:
        return None
    clause = m.group("clause")
    low = clause.lower()
    lead = re.match(r"([A-Z][\w'’-]+)\s", clause)
    if re.match(r"(?:he|she|they)\b", low):
        who = subject
    elif lead and lead.group(1).lower() not in _NOT_NAMES:
        who = lead.group(1)  # "while Kenji was at Fujitsu": Kenji's fact
    else:
        who = owner
    facts = facts_of(who, "") or facts_of(owner, "")
    named = [f for f in facts if f.object and re.search(rf"\b{re.escape(f.object.lower())}\b", low)]
    if not named:
        predicate = predicate_of(low)
        named = [f for f in facts if f.predicate == predicate]
        if len({f.object for f in named}) != 1:
            return None
    target = min(named, key=lambda f: f.valid_from)
    ends = bool(_END_VERBS.search(low))
    start, end = target.valid_from, target.valid_to
    point = end if ends else start
    if is_infinite(point):
        return None
    day = timedelta(days=1)
    rel = m.group("rel").lower().split()[-1]
    if rel in ("before", "until", "till"):
        window = Interval(point - day, point)
    elif rel == "after":
        window = Interval(point, point + day)
    elif rel == "since":
        window = Interval(point, POS_INF)
    elif (
        rel in ("day", "week", "month", "point")
        or "first" in m.group("rel").lower()
        or ends
        or re.search(
            r"\b(?:start|join|began|begin|got|moved|arrived|took|went|became|switched|adopted)", low
        )
    ):
        window = Interval(point, point + day)
    else:  # "while I was at X", "when I lived in X": the whole stretch
        window = Interval(start, end)
    return window, m.group(0)
