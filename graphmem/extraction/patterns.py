"""Lexicons, regular expressions and text utilities for the rule-based extractor.

Everything here is pure and stateless: word lists, the regexes of the rules and of the
clause guards (question, hypothetical, reported, imperative...), and helpers that mask
quoted text, split an utterance into clauses, and cut an object out of a clause.
``graphmem.extraction.rules`` pairs each rule regex (``RULE_REGEX[name]``) with its
handler and runs them.

>>> text = "I live in Berlin, and my sister Ana lives in Porto."
>>> [text[s:e] for s, e, _, _ in split_clauses(text)]
['I live in Berlin', 'my sister Ana lives in Porto.']
>>> mask_quotes('She said "I live in Oslo" to me') == 'She said ' + ' ' * 16 + ' to me'
True
"""

from __future__ import annotations

import re


def words(text: str) -> list[str]:
    """The whitespace-separated words of ``text`` (lexicons are written as prose)."""
    return text.split()


# ---------------------------------------------------------------------------
# Lexicons
# ---------------------------------------------------------------------------

# relation word -> predicate from the speaker to the named person (None: no predicate)
RELATIONS: dict[str, str | None] = {
    **dict.fromkeys(words("sister brother sibling twin"), "sibling"),
    **dict.fromkeys(
        words("wife husband partner spouse girlfriend boyfriend fiancé fiancée fiance fiancee"),
        "partner",
    ),
    **dict.fromkeys(words("son daughter kid child baby stepson stepdaughter"), "child"),
    **dict.fromkeys(words("mom mum mother dad father parent stepmom stepmother stepdad"), "parent"),
    **dict.fromkeys(words("manager boss supervisor"), "manager"),
    **dict.fromkeys(["friend", "best friend"], "friend"),
    **dict.fromkeys(
        words(
            "colleague coworker co-worker roommate flatmate neighbour neighbor cousin aunt uncle "
            "grandma grandmother grandpa grandfather niece nephew mentor teammate"
        ),
        None,
    ),
}
PET_SPECIES = frozenset(
    words(
        "cat dog kitten puppy rabbit bunny hamster parrot budgie bird goldfish fish turtle "
        "tortoise snake lizard gecko horse pony ferret rat mouse chinchilla hedgehog iguana "
        "cockatiel canary axolotl tarantula retriever labrador poodle beagle terrier husky corgi "
        "dachshund bulldog spaniel collie pug chihuahua greyhound dalmatian kitty pup"
    )
    + ["guinea pig", "bearded dragon"]
)
PLURAL_SPECIES = {"puppies": "puppy", "kitties": "kitty", "bunnies": "bunny", "mice": "mouse"}
DIETS: dict[str, str] = {
    "vegetarian": "vegetarian", "veggie": "vegetarian", "vegan": "vegan",
    "pescatarian": "pescatarian", "pescetarian": "pescatarian", "keto": "keto",
    "ketogenic": "keto", "paleo": "paleo", "gluten-free": "gluten-free",
    "gluten free": "gluten-free", "dairy-free": "dairy-free", "dairy free": "dairy-free",
    "lactose-free": "lactose-free", "halal": "halal", "kosher": "kosher",
    "low-carb": "low-carb", "low carb": "low-carb", "carnivore": "carnivore",
    "flexitarian": "flexitarian", "plant-based": "plant-based", "plant based": "plant-based",
    "raw vegan": "raw vegan", "fruitarian": "fruitarian",
}  # fmt: skip
LANGUAGES = frozenset(
    words(
        "English German French Spanish Italian Portuguese Dutch Swedish Norwegian Danish "
        "Finnish Polish Czech Slovak Hungarian Romanian Bulgarian Greek Turkish Russian "
        "Ukrainian Arabic Hebrew Persian Farsi Hindi Urdu Bengali Punjabi Tamil Telugu Marathi "
        "Gujarati Mandarin Cantonese Chinese Japanese Korean Vietnamese Thai Indonesian Malay "
        "Tagalog Filipino Swahili Amharic Yoruba Zulu Afrikaans Catalan Basque Galician Welsh "
        "Irish Gaelic Icelandic Estonian Latvian Lithuanian Serbian Croatian Bosnian Slovenian "
        "Albanian Armenian Georgian Latin Esperanto ASL Yiddish Hausa Igbo Somali Nepali Sinhala "
        "Khmer Lao Burmese Mongolian Kazakh Uzbek Pashto Kurdish Luxembourgish Maltese"
    )
)
COUNTRY_DEMONYMS: dict[str, str] = {
    "Germany": "German",
    "France": "French",
    "Spain": "Spanish",
    "Italy": "Italian",
    "Portugal": "Portuguese",
    "Netherlands": "Dutch",
    "Holland": "Dutch",
    "Belgium": "Belgian",
    "Sweden": "Swedish",
    "Norway": "Norwegian",
    "Denmark": "Danish",
    "Finland": "Finnish",
    "Poland": "Polish",
    "Czechia": "Czech",
    "Czech Republic": "Czech",
    "Austria": "Austrian",
    "Switzerland": "Swiss",
    "Ireland": "Irish",
    "Scotland": "Scottish",
    "Wales": "Welsh",
    "England": "English",
    "UK": "British",
    "United Kingdom": "British",
    "Britain": "British",
    "Great Britain": "British",
    "USA": "American",
    "US": "American",
    "United States": "American",
    "America": "American",
    "Canada": "Canadian",
    "Mexico": "Mexican",
    "Brazil": "Brazilian",
    "Argentina": "Argentinian",
    "Chile": "Chilean",
    "Colombia": "Colombian",
    "Peru": "Peruvian",
    "Venezuela": "Venezuelan",
    "Cuba": "Cuban",
    "Japan": "Japanese",
    "China": "Chinese",
    "Korea": "Korean",
    "South Korea": "Korean",
    "India": "Indian",
    "Pakistan": "Pakistani",
    "Bangladesh": "Bangladeshi",
    "Vietnam": "Vietnamese",
    "Thailand": "Thai",
    "Philippines": "Filipino",
    "Indonesia": "Indonesian",
    "Malaysia": "Malaysian",
    "Australia": "Australian",
    "New Zealand": "New Zealander",
    "Russia": "Russian",
    "Ukraine": "Ukrainian",
    "Greece": "Greek",
    "Turkey": "Turkish",
    "Israel": "Israeli",
    "Iran": "Iranian",
    "Iraq": "Iraqi",
    "Egypt": "Egyptian",
    "Morocco": "Moroccan",
    "Nigeria": "Nigerian",
    "Kenya": "Kenyan",
    "Ethiopia": "Ethiopian",
    "Ghana": "Ghanaian",
    "South Africa": "South African",
    "Romania": "Romanian",
    "Hungary": "Hungarian",
    "Bulgaria": "Bulgarian",
    "Croatia": "Croatian",
    "Serbia": "Serbian",
    "Slovakia": "Slovak",
    "Slovenia": "Slovenian",
    "Iceland": "Icelandic",
    "Estonia": "Estonian",
    "Latvia": "Latvian",
    "Lithuania": "Lithuanian",
    "Lebanon": "Lebanese",
    "Syria": "Syrian",
    "Singapore": "Singaporean",
    "Taiwan": "Taiwanese",
    "Nepal": "Nepali",
    "Sri Lanka": "Sri Lankan",
    "Jamaica": "Jamaican",
}
DEMONYMS = frozenset(COUNTRY_DEMONYMS.values()) | {"Brit", "Québécois", "Quebecois"}
CITIES = frozenset(
    words(
        "Berlin Munich Hamburg Frankfurt Cologne Stuttgart Leipzig Dresden Vienna Zurich Geneva "
        "Basel Paris Lyon Marseille Nice Toulouse Bordeaux Lille Nantes Madrid Barcelona Valencia "
        "Seville Bilbao Lisbon Porto Rome Milan Naples Turin Florence Venice Bologna Amsterdam "
        "Rotterdam Utrecht Brussels Antwerp Ghent London Manchester Birmingham Liverpool Leeds "
        "Bristol Edinburgh Glasgow Cardiff Belfast Dublin Cork Oslo Bergen Stockholm Gothenburg "
        "Malmo Copenhagen Aarhus Helsinki Tallinn Riga Vilnius Warsaw Krakow Prague Brno Budapest "
        "Bucharest Sofia Athens Istanbul Ankara Moscow Kyiv Kiev Lviv Tokyo Osaka Kyoto Seoul "
        "Busan Beijing Shanghai Shenzhen Taipei Singapore Bangkok Hanoi Manila Jakarta Sydney "
        "Melbourne Brisbane Perth Auckland Wellington Toronto Vancouver Montreal Calgary Ottawa "
        "Boston Chicago Seattle Portland Denver Austin Dallas Houston Atlanta Miami Phoenix "
        "Philadelphia Detroit Nashville Brooklyn Manhattan Oakland Mumbai Delhi Bangalore "
        "Bengaluru Chennai Hyderabad Pune Kolkata Dubai Cairo Nairobi Lagos Accra Johannesburg "
        "Marrakesh Casablanca Tunis Bogota Lima Santiago Montevideo Reykjavik Luxembourg "
        "Washington Jerusalem Beirut Doha Zagreb Belgrade Ljubljana Bratislava Salzburg Graz Bern "
        "Lausanne Nuremberg Hanover Bonn Heidelberg Freiburg Cambridge Oxford Brighton Boulder "
        "Minneapolis Pittsburgh Baltimore Toulon Grenoble Malaga Granada Faro Coimbra Tbilisi "
        "Yerevan Baku Almaty Tashkent Valletta Braga Pune Austin"
    )
    + [
        "Hong Kong",
        "Cape Town",
        "Mexico City",
        "Buenos Aires",
        "Sao Paulo",
        "New York",
        "Los Angeles",
        "San Francisco",
        "San Diego",
        "Tel Aviv",
        "Abu Dhabi",
        "Kuala Lumpur",
        "Ho Chi Minh City",
        "New York City",
        "Rio de Janeiro",
    ]
)
PLACES = (
    CITIES
    | frozenset(COUNTRY_DEMONYMS)
    | frozenset(
        words("Bavaria California Texas Florida Ontario Quebec Tuscany Catalonia Sicily Provence")
    )
)
JOB_NOUNS = frozenset(
    words(
        "engineer developer programmer scientist nurse doctor physician teacher professor "
        "lecturer lawyer attorney designer analyst accountant consultant architect writer "
        "journalist chef cook baker student researcher pharmacist dentist electrician plumber "
        "carpenter pilot mechanic photographer artist musician librarian firefighter officer "
        "paramedic surgeon therapist psychologist psychiatrist economist editor translator "
        "marketer salesperson recruiter cashier barista waiter waitress bartender driver farmer "
        "veterinarian vet ceo cto cfo coo founder co-founder cofounder intern director "
        "administrator technician manager tutor coach trainer paralegal clerk secretary "
        "receptionist banker broker trader actuary statistician mathematician physicist chemist "
        "biologist geologist historian illustrator animator copywriter producer actor actress "
        "dancer singer composer freelancer contractor postdoc undergrad undergraduate lead owner "
        "entrepreneur midwife caregiver counselor counsellor optometrist radiologist sysadmin "
        "devops strategist planner surveyor welder janitor cleaner tailor florist butcher "
        "realtor agent"
    )
    + ["social worker"]
)
HOBBY_GAMES = frozenset(
    words(
        "tennis chess football soccer basketball baseball golf volleyball badminton squash rugby "
        "cricket hockey poker bridge guitar piano violin cello drums bass saxophone flute ukulele "
        "trumpet clarinet harp yoga pilates karate judo taekwondo boxing kickboxing fencing "
        "archery crossfit ballet salsa padel pickleball frisbee handball lacrosse softball darts "
        "billiards bowling sudoku crosswords jiu-jitsu bjj capoeira parkour polo curling"
    )
    + [
        "video games",
        "board games",
        "table tennis",
        "ping pong",
        "ice hockey",
        "d&d",
        "dungeons and dragons",
        "tai chi",
        "martial arts",
    ]
)
POSSESSIONS = frozenset(
    words(
        "car bike bicycle motorbike motorcycle scooter house apartment flat condo cabin cottage "
        "boat sailboat yacht kayak canoe piano guitar violin laptop computer pc tablet ipad "
        "kindle e-reader camera drone telescope tent van truck rv camper caravan treadmill "
        "smartwatch console playstation ps5 xbox tv television macbook iphone printer "
        "synthesizer keyboard e-bike surfboard snowboard skis vespa"
    )
    + ["3d printer", "espresso machine", "drum kit", "vacation home", "summer house"]
)
WORK_NOUNS = frozenset(
    words(
        "thesis dissertation novel book startup app website paper album portfolio podcast blog "
        "game memoir screenplay phd masters"
    )
)
MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
WEEKDAYS = frozenset(words("monday tuesday wednesday thursday friday saturday sunday"))
_UNITS = words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_TENS = words("twenty thirty forty fifty sixty seventy eighty ninety")
NUMBER_WORDS: dict[str, int] = {word: i for i, word in enumerate(_UNITS)}
for _t, _tw in enumerate(_TENS, start=2):
    NUMBER_WORDS[_tw] = _t * 10
    for _u in range(1, 10):
        NUMBER_WORDS[f"{_tw}-{_UNITS[_u]}"] = _t * 10 + _u
        NUMBER_WORDS[f"{_tw} {_UNITS[_u]}"] = _t * 10 + _u

# Capitalised words that start sentences but never name a person or an organisation.
NAME_STOPWORDS = (
    frozenset(
        w.lower()
        for w in words(
            "I Me My Mine We Our Us You Your He She It They Them His Her Their This That These "
            "Those The A An And But Or So If When While Since After Before Because Though "
            "Although Also Actually Sorry Oh Well Yes No Yeah Yep Nope Ok Okay Hi Hey Hello "
            "Thanks Please Maybe Perhaps Yesterday Today Tomorrow Tonight Last Next Now Then "
            "Recently Finally Currently Honestly Basically Btw Anyway Still Just Everyone "
            "Everybody Someone Somebody Nobody People Mom Mum Dad Mother Father Grandma Grandpa "
            "Update News Fun Guess Wait Oops Correction Apparently Unfortunately Sadly Luckily "
            "Hopefully Anyways Um Uh Hmm Lol Haha Plus Starting Back Earlier Later Soon Around "
            "Every Each Both Nothing Everything Something Here There What Where Who Why How "
            "Which Do Does Did Is Are Was Were Have Has Had Can Could Would Should Will Mr Mrs "
            "Ms Dr Prof Let Not Never Some Any All Once Twice Again Ah User Assistant System "
            "Admin Bot AI Human Memory Instructions Note Fact Vegan Vegetarian"
        )
    )
    | frozenset(MONTHS)
    | WEEKDAYS
    | {w.lower() for w in LANGUAGES | DEMONYMS}
)

# ---------------------------------------------------------------------------
# Regex fragments (substituted into rule patterns by ``pattern``)
# ---------------------------------------------------------------------------

NAME_TOKEN = r"[A-Z](?:[a-zà-ÿ]+|[’'][A-Z][a-zà-ÿ]+)(?:-[A-Z]?[a-zà-ÿ]+|['’][A-Z][a-zà-ÿ]+)*"
PERSON = rf"(?:{NAME_TOKEN}(?:\s+{NAME_TOKEN}){{0,2}})"
PERSON_LIST = rf"(?:{PERSON}(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+){PERSON})*)"
_REL_WORDS = "|".join(sorted((re.escape(w) for w in RELATIONS), key=len, reverse=True))
_PET_WORDS = "|".join(sorted((re.escape(w) for w in PET_SPECIES), key=len, reverse=True))


def alternation_words(words) -> str:
    """Regex alternatives for ``words``, longest first, spaces matching any whitespace."""
    escaped = {re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in words}
    return "|".join(sorted(escaped, key=len, reverse=True))


REL_MODIFIERS = (
    r"(?:(?:older|younger|little|big|baby|twin|new|best|eldest|oldest|youngest|elder|step|dear|"
    r"lovely|current)\s+)*"
)
REL = rf"(?:{REL_MODIFIERS}(?i:{_REL_WORDS}|{_PET_WORDS}))"
PET = rf"(?i:{_PET_WORDS})"
FIRST = r"(?<![\w'’])(?:I|i)(?![\w])"
POSS = r"(?i:my|our)"
SUBJ = (
    rf"(?P<who>{FIRST}|{POSS}\s+{REL}(?:\s*,?\s+{PERSON}\b,?)?|{PERSON}\s*,\s+{POSS}\s+{REL}\s*,"
    rf"|(?<![\w'’]){PERSON}(?![\w'’])|\b(?i:he|she)\b)"
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
    "officially",
    "unfortunately",
    "sadly",
    "luckily",
    "proudly",
)
AUX = r"(?:\s*(?:['’](?:m|s|ve|ll|re|d))\b|\s+(?i:" + alternation_words(AUX_PHRASES) + r")\b)*"


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
    + "|CEO|CTO|CFO|COO|CMO|CIO|VP|SVP|PM)"
)


def pattern(template: str) -> re.Pattern[str]:
    """Compile a rule template, substituting the fragments written as ``<NAME>``."""
    fragments = {
        "<SUBJ>": SUBJ, "<AUX>": rf"(?P<aux>{AUX})", "<PERSONS>": PERSON_LIST,
        "<PERSON>": PERSON, "<REL>": REL, "<PET>": PET, "<I>": FIRST, "<POSS>": POSS,
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


# ---------------------------------------------------------------------------
# Masking, sentences, clauses
# ---------------------------------------------------------------------------

_QUOTED = re.compile(
    r"\"[^\"\n]*\"|“[^”\n]*”|«[^»\n]*»|`[^`\n]*`|‘[^’\n]*’"
    r"|(?<![\w])'(?=\S)[^'\n]*?(?<=\S)'(?![\w])"
)


def mask_quotes(text: str) -> str:
    """``text`` with quoted passages (and their quote marks) blanked out, offsets unchanged."""
    return _QUOTED.sub(lambda m: " " * len(m.group()), text)


def mask_spans(text: str, spans) -> str:
    """``text`` with each ``(start, end)`` span blanked out."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


_ABBREVIATIONS = frozenset(
    words(
        "dr mr mrs ms st prof jr sr vs etc e.g i.e inc ltd co corp mt no approx u.s u.k jan feb "
        "mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun"
    )
)
_SENTENCE_END = re.compile(r"[.!?;]+[\"')\]]*(?=\s|$)|\n+")
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
_QUESTION_OPENER = r"(?i:do|does|did|can|could|would|will|what|where|when|who|why|how|is|are|any)\b"
_ELIDED_OPENER = (
    r"(?:(?:now|also|still|just|recently|currently)\s+)?(?:live|lives|living|work|works|working|"
    r"moved|speak|speaks|like|likes|love|loves|hate|hates|enjoy|enjoys|own|owns|have|has|joined|"
    r"left|quit|started|turned|play|plays|am|is|was|report|reports|drive|drives|bought|got|"
    r"adopted|sold|speaks|joined|became)\b"
)
# Whitespace runs are anchored ((?<!\s) and possessive \s*+): a long masked quotation is
# a long run of spaces, and an unanchored \s* would make the search quadratic.
_CLAUSE_BREAK = re.compile(
    rf"(?<!\s)\s*+(?:[,;:]|(?<=\s)[-–—]+)\s*+(?:(?:and|but|so|or|then)\s++)?"
    rf"(?!(?i:my|our)\s+{REL}\s*,)(?={_OPENER}|{_QUESTION_OPENER})"
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
# Objects: names and phrases
# ---------------------------------------------------------------------------

_ARTICLE = re.compile(r"^(?i:the|a|an)\s+")
_ENTITY_TOKEN = re.compile(r"(?:[A-Z0-9][\w&'’.\-]*|[a-z]+[A-Z][\w'’\-]*)")
_CONNECTORS = frozenset(
    words(
        "of de del della da do dos das du la le les von van der den y and & the upon on am im "
        "sur for"
    )
)
_PHRASE_STOP = re.compile(
    r"[;:!?()\[\]]|\.(?:\s|$)|,\s*(?=(?i:which|who|because|but|so|though|especially|since|"
    r"when|as|and\s+(?:i|my|it)|not|thanks|thank\s+you|please|lol|haha|btw|right|ok|okay)\b)"
    r"|(?<!\s)\s++(?i:because|since|when|whenever|while|although|though|but|so\s+that|which|"
    r"who|whom|"
    r"whose|unless|if|especially|except|than|whereas|cause|cos|as\s+well|as\s+long|anymore|"
    r"any\s+more|any\s+longer|these\s+days|nowadays|lately|at\s+the\s+moment|right\s+now|now|"
    r"too|a\s+lot|so\s+much|very\s+much|more\s+than|most\s+of\s+all|for\s+(?:years|ages|a\s+while|"
    r"\d+|a\s+long\s+time|some\s+time|many\s+years|a\s+few)|instead|either|at\s+all|though|"
    r"i\s+think|i\s+guess|lol|haha|after|before|due\s+to|because\s+of|ever\s+since)\b"
)
_ENTITY_STOP = re.compile(
    r"(?<!\s)\s++(?i:in|at|on|near|for|from|with|since|until|till|as|by|after|before|during|"
    r"last|next|this|yesterday|today|tomorrow|ago|recently|now|and|but|or|because|when|"
    r"with|to|too|again|already|permanently|for\s+good)\b|[,;:!?()]"
)
FUNCTION_WORDS = frozenset(
    words(
        "with to in at on for from by of about into out up down over back here there a an the "
        "and or but night nights weekends free work school least most all"
    )
)
PRONOUN_OBJECTS = frozenset(
    words(
        "it that this them you him her those these everything nothing something anything me us "
        "myself yourself one mine yours there here home"
    )
)


def clean(value: str) -> str:
    """Collapse whitespace and strip articles and trailing punctuation."""
    value = " ".join(value.split())
    value = _ARTICLE.sub("", value)
    return value.strip(" ,.;:!?-–—\"'“”").strip()


def title_if_lower(value: str) -> str:
    """Title-case a name written all in lower case ("berlin" -> "Berlin"); else keep it."""
    return value.title() if value == value.lower() else value


def take_entity(text: str, pos: int, limit: int, *, lowercase_ok: bool = True):
    """The name of a place, organisation or person starting at ``pos``.

    Returns ``(start, end, name)`` or None. A run of capitalised tokens (with
    connectors such as "of", "de", "&") is taken as written; a lower-case name
    without an article is title-cased ("i live in berlin"); "a"/"an" or "the"
    followed by a common noun is not a name.
    """
    while pos < limit and text[pos].isspace():
        pos += 1
    article = re.match(r"(?i:the)\s+", text[pos:limit])
    if re.match(r"(?i:an?)\s+", text[pos:limit]):
        return None
    start = pos + (article.end() if article else 0)
    tokens, cursor, end = [], start, start
    while cursor < limit:
        gap = re.match(r"\s+", text[cursor:limit])
        word_at = cursor + (gap.end() if gap and tokens else 0)
        match = _ENTITY_TOKEN.match(text, word_at, limit)
        if match:
            tokens.append(match.group())
            cursor = end = match.end()
            continue
        conn = re.match(r"([\w&]+)\s+(?=[A-Z0-9])", text[word_at:limit])
        if tokens and conn and conn.group(1) in _CONNECTORS:
            cursor = word_at + len(conn.group(1))
            continue
        break
    if tokens:
        name = text[start:end].rstrip(".'’")
        if name.endswith("'s") or name.endswith("’s"):
            name = name if re.search(r"[A-Z]\w*['’]s$", name) and " " not in name else name
        return (start, start + len(name), name) if name else None
    if article or not lowercase_ok:
        return None
    stop = _ENTITY_STOP.search(text, start, limit)
    chunk = text[start : stop.start() if stop else limit].strip(" .")
    parts = chunk.split()
    if (
        not parts
        or len(parts) > 3
        or not all(w.isalpha() for w in parts)
        or parts[0].lower() in PRONOUN_OBJECTS | NAME_STOPWORDS | FUNCTION_WORDS
    ):
        return None
    return start, start + len(chunk), title_if_lower(chunk)


_TRAILING_ADVERBIAL = re.compile(
    r"(?i)(?:\s+(?:very\s+much|so\s+much|a\s+lot|a\s+bunch|too|as\s+well|more\s+and\s+more|"
    r"really|though|anymore|again|daily|weekly|on\s+(?:the\s+)?weekends?|at\s+(?:night|weekends?)|"
    r"regularly|more\s+often|often|lately|recently|consistently|"
    r"every\s+(?:single\s+)?\w+|most\s+(?:days|weekends|evenings|mornings|nights)|"
    r"in\s+my\s+(?:free|spare|down)\s+time|whenever\s+i\s+can))+$"
)


def take_phrase(text: str, pos: int, limit: int, *, max_words: int = 8):
    """A free-text object (a food, an activity, a plan) from ``pos`` to a boundary."""
    stop = _PHRASE_STOP.search(text, pos, limit)
    end = stop.start() if stop else limit
    raw = text[pos:end]
    value = clean(raw)
    value = _TRAILING_ADVERBIAL.sub("", value)
    value = re.sub(r"(?i)\s+(?:for|to|in|on|at|with|by|from|of|about|near)$", "", value)
    if not value or len(value.split()) > max_words:
        return None
    first = value.split()[0].lower().strip(",.;:!?")
    if first in PRONOUN_OBJECTS or first in {"my", "your", "his", "her", "our", "their", "to"}:
        return None
    start = pos + raw.find(value[:1]) if value else pos
    return start, end, value


_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&|as\s+well\s+as|plus)\s+")
COMPOUNDS = (
    "mac and cheese",
    "fish and chips",
    "rock and roll",
    "salt and pepper",
    "peanut butter and jelly",
    "rhythm and blues",
    "drum and bass",
    "dungeons and dragons",
    "sweet and sour",
    "bread and butter",
    "pros and cons",
    "arts and crafts",
    "r&b",
    "d&d",
)


def split_list(value: str) -> list[str]:
    """Split "cats, dogs and birds" into items, keeping known compounds whole."""
    if value.lower() in COMPOUNDS:
        return [value]
    protected = value
    for index, compound in enumerate(COMPOUNDS):
        protected = re.sub(re.escape(compound), f"\x00{index}\x00", protected, flags=re.I)
    compounds = COMPOUNDS
    items = []
    for item in _LIST_SPLIT.split(protected):
        item = re.sub(r"\x00(\d+)\x00", lambda m: compounds[int(m.group(1))], item)
        item = clean(item)
        if item:
            items.append(item)
    return items


def gerund(verb: str) -> str:
    """A rough -ing form: "paint" -> "painting", "run" -> "running", "bake" -> "baking"."""
    verb = verb.lower()
    if verb.endswith("ing"):
        return verb
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def number_value(text: str) -> int | None:
    """An integer written in digits or words ("34", "thirty-four")."""
    text = text.strip().lower()
    if text.isdigit():
        return int(text)
    return NUMBER_WORDS.get(re.sub(r"\s+", " ", text))


def project_name(text: str) -> str | None:
    """ "the Apollo project" / "Project Apollo" / "my thesis" -> "Apollo" / "thesis"."""
    text = " ".join(text.strip(" ,.!?").split())
    for pat in (
        r"(?:the\s+)?(?i:project)\s+(?P<n>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)",
        r"(?:(?i:the|my|our)\s+)?(?P<n>[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+(?i:project)",
        r"(?:(?i:the)\s+)?(?P<n>[A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*)*)",
        r"(?:(?i:the|our|my)\s+)?(?P<n>[A-Z][\w\-]*(?:\s+[a-z][\w\-]*){1,2})",
        rf"(?i:my|our|the)\s+(?P<n>{alternation(WORK_NOUNS)})",
        r"(?i:the)\s+(?P<n>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})",
    ):
        m = re.fullmatch(pat, text)
        first = m.group("n").split()[0].lower() if m else ""
        if m and first not in PRONOUN_OBJECTS | NAME_STOPWORDS:
            return m.group("n")
    return None


def parse_day_month(text: str) -> str | None:
    """A birthday at the start of ``text``: ``1990-05-03``, or ``--05-03`` without a year."""
    month = alternation(MONTHS)
    year_re = r"(?:,?\s+(?P<y>\d{4}))?"
    text = re.sub(r"(?i)^(?:it['’]?s\s+|on\s+)?(?:the\s+)?", "", text)
    for pat in (
        rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>{month})\.?{year_re}",
        rf"(?P<m>{month})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?{year_re}",
        r"(?P<y>\d{4})-(?P<mn>\d{2})-(?P<d>\d{2})",
    ):
        m = re.match(pat, text, re.I)
        if m:
            mon = int(m.group("mn")) if "mn" in m.groupdict() else MONTHS[m.group("m").lower()]
            day, year = int(m.group("d")), m.group("y")
            if not 1 <= day <= 31:
                return None
            return f"{year}-{mon:02d}-{day:02d}" if year else f"--{mon:02d}-{day:02d}"
    return None


# ---------------------------------------------------------------------------
# Clause guards
# ---------------------------------------------------------------------------

QUESTION = re.compile(
    r"^(?i:(?:do|does|did|am|is|are|was|were|have|has|had|can|could|would|will|should|shall|"
    r"may|might|must|isn['’]t|aren['’]t|don['’]t|doesn['’]t|didn['’]t|wasn['’]t|haven['’]t)\s+"
    r"(?:i|you|he|she|we|they|it|my|your|the|there|[a-z]+['’]s)\b|(?:what|where|when|who|whom|"
    r"whose|which|why|how)(?:['’]s|\s+(?:do|does|did|is|are|was|were|am|have|has|had|can|"
    r"could|would|will|should|much|many|long|old|about))\b)"
)
HYPOTHETICAL = re.compile(
    r"\b(?i:if|unless|might|could|would|should|maybe|perhaps|possibly|probably|hopefully|"
    r"wish|wishes|wished|hope|hopes|hoping|want\s+to|wants\s+to|wanna|would\s+like|thinking\s+"
    r"(?:about|of)|considering|consider|contemplating|debating|wondering|wonder|dream(?:ing)?\s+"
    r"(?:of|about)|in\s+case|what\s+if|suppose|supposing|imagine|pretend|someday|some\s+day|"
    r"one\s+day|not\s+sure|unsure|whether|tempted|likely|unlikely|assuming|in\s+theory|"
    r"fantasi[sz]e|fantasi[sz]ing|daydream\w*|plan\s+b|or\s+not)\b"
    r"|\b(?:I|i|you|he|she|we|they)['’]d\b|\bmay\s+(?!\d)(?=[a-z])"
)
REPORTED = re.compile(
    r"(?P<who>\b\w+['’]?\w*)\s+(?:(?:really|still|also|just|kind\s+of|even|always|probably)\s+)*"
    r"(?i:think|thinks|thought|believe|believes|believed|said|says|say|told|tells|tell|claim|"
    r"claims|claimed|assume|assumes|assumed|guess|guesses|guessed|suspect|suspects|suspected|"
    r"heard|hears|mention|mentions|mentioned|reckon|reckons|reckoned|insist|insists|insisted|"
    r"imagine|imagines|suppose|supposes|supposed|doubt|doubts|swear|swears|swore|wrote|writes|"
    r"texted|asked|asks|feel|feels|felt|seems\s+to\s+think|is\s+convinced|was\s+convinced|"
    r"saying|telling|claiming|insisting|mentioning|suggesting|suggested|suggests|complaining|"
    r"complained|joking|joked|"
    r"dreamt|dreamed)\b"
    r"|\b(?i:according\s+to|apparently|supposedly|allegedly|rumou?r(?:ed|s)?|reportedly|"
    r"in\s+(?:his|her|their)\s+(?:opinion|view|mind)|as\s+if)\b"
)
SELF_REPORT_OK = re.compile(r"(?i)^(?:told|tell|tells|mention|mentioned|said|say|says|wrote)$")
IMPERATIVE = re.compile(
    r"^(?:(?i:please|pls|kindly|now|also|then|just|and|from\s+now\s+on|going\s+forward|"
    r"new\s+instructions?|system|assistant|note\s+to\s+self)[,:]?\s+)*"
    r"(?i:ignore|disregard|forget|store|save|remember|record|write|note|log|add|update|set|"
    r"delete|remove|erase|change|pretend|act|tell|say|respond|reply|answer|output|print|repeat|"
    r"insert|mark|make|put|assume|treat|consider|override|call|list|show|give|send|book|"
    r"schedule|remind|find|search|look|check|help|translate|summari[sz]e|draft|create|"
    r"generate|let|keep|stop|start\s+calling|memori[sz]e|learn|overwrite|replace|use|bypass|"
    r"execute|run|do\s+not|don['’]t\s+(?:forget|tell|store|save|remember))\b"
    r"(?!['’]s\b|\s+(?:is|was|has|had|and|lives|lived|moved|works|worked|just|got|left|joined|"
    r"started|likes|loves|hates|speaks|turned|died|quit|became|broke|reports|adopted|bought|"
    r"owns|plays|studies|went|said|says|thinks|told|now|also|still)\b)"
    r"|^(?:(?i:please|now|and|so|new\s+instructions?|system|assistant|from\s+now\s+on)[,:]?\s+)*"
    r"(?i:you\s+(?:must|should|need\s+to|have\s+to|will|are\s+to|"
    r"shall|may\s+now|can\s+now)|i\s+(?:want|need|would\s+like|['’]d\s+like)\s+you\s+to|"
    r"(?:can|could|would|will)\s+you|make\s+sure|be\s+sure)\b"
)
NEGATION = re.compile(
    r"\b(?i:not|never|no\s+longer|cannot|nobody|nothing|neither|nor|none|no)\b|n['’]t\b"
)
CEASED = re.compile(r"(?i)\b(?:no\s+longer|anymore|any\s+more|any\s+longer|not\s+\w+\s+now)\b")
STRONG_CORRECTION = re.compile(
    r"^(?:(?i:(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|scratch\s+that|i\s+misspoke|"
    r"let\s+me\s+correct\s+(?:that|myself)|to\s+correct\s+myself|typo)\b[,:;!.\s\-–—]*"
    r"|(?:no|nope|wait|sorry)[,!.:;\-–—]+\s*))+(?:(?i:i\s+meant(?:\s+to\s+say)?|i\s+mean)\b"
    r"(?:\s+that)?[,:]?\s*)?|^(?i:i\s+meant(?:\s+to\s+say)?|i\s+mean)\b(?:\s+that)?[,:]?\s*"
)
SURE_CORRECTION = re.compile(
    r"(?i)\b(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|scratch\s+that|misspoke|"
    r"correct|typo|i\s+meant?)\b"
)
WEAK_CORRECTION = re.compile(r"^(?i:actually|in\s+fact|rather)\b[,:]?\s*")
TRAILING_NOT = re.compile(
    r"(?P<comma>,)?(?<!\s)\s*+(?:(?i:and|but)\s+)?(?i:not)\s+(?P<wrong>[^,;]+?)\s*[.!]?$"
)
OBJECT_ONLY = re.compile(
    r"^(?:(?i:it['’]?s|it\s+is|it\s+was|that['’]?s|that\s+should\s+be|should\s+be|make\s+that|"
    r"the\s+right\s+one\s+is|it['’]s\s+actually|it\s+should\s+be)\s+)?(?P<obj>[^,;]+?)"
    r"(?:\s*,?\s*(?i:not|instead\s+of|rather\s+than)\s+(?P<wrong>[^,;]+?))?\s*[.!]?$"
)
REPORT_FRAME = re.compile(
    r"^(?i:according\s+to\s+[\w'’]+(?:\s+[\w'’]+)?|apparently|supposedly|allegedly|reportedly|"
    r"rumou?r\s+has\s+it(?:\s+that)?|word\s+is|(?:[\w'’]+\s+){1,3}(?:says?|said|thinks?|thought|"
    r"believes?|claims?|claimed|told\s+me|heard|insists?|mentioned)(?:\s+that)?)\s*[,:]?\s*$"
)
CORRECTION_ONLY = re.compile(
    r"(?i)(?:(?:sorry|oops|whoops|my\s+bad|my\s+mistake|correction|wait|no|nope|scratch\s+that|"
    r"i\s+misspoke)[\s,.!:;\-–—]*)+"
)
RELATIVE = re.compile(
    r",\s*(?i:which|who|where|because|since|although|though|as|even\s+though)\b"
    r"|(?<!\s)\s++(?i:because|although|though|which|even\s+though|so\s+that)\b"
)


# ---------------------------------------------------------------------------
# Rule regexes (paired with their handlers in ``graphmem.extraction.rules.RULES``)
# ---------------------------------------------------------------------------

RULE_TEMPLATES: dict[str, str] = {
    "deadline_of": (
        r"(?i:the\s+|a\s+|our\s+|my\s+)?(?i:new\s+)?(?i:deadline|due\s+date)\s+(?i:for|of|on)"
        r"\s+<PROJ>\s+(?i:is|was|has\s+been|had\s+been|got|will\s+be|'s|’s|moved|slipped|"
        r"changed|shifted)\b"
    ),
    "deadline_bare": (
        r"^(?i:the\s+)?(?i:new\s+)?(?i:deadline|due\s+date)\s+(?i:is|was|has\s+been|got)\b"
    ),
    "deadline_poss": (
        r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)(?:['’]s)"
        r"?\s+(?i:deadline|due\s+date)\s+(?i:is|was|has\s+been|got|will\s+be|moved|slipped)\b"
    ),
    "deadline_due": (
        r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+(?i:is|are|was|"
        r"will\s+be)\s+(?i:now\s+)?(?i:due)\b"
    ),
    "deadline_moved": (
        r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+(?i:was|got|"
        r"has\s+been|is\s+being)\s+(?i:pushed|moved|postponed|delayed|rescheduled)"
        r"\s+(?i:back\s+|out\s+)?(?i:to|until)\b"
    ),
    "birthday": (
        r"(?P<who>(?i:my)|(?i:my|our)\s+<REL>(?:\s+<PERSON>)?|<PERSON>)(?:['’]s)"
        r"?\s+(?i:birthday|bday|b-day|date\s+of\s+birth)\s+(?i:is|'s|’s|falls\s+on)"
        r"\s+(?i:on\s+)?(?i:the\s+)?"
    ),
    "born_on": (r"<SUBJ><AUX>\s+(?i:born)\s+(?i:on\s+)?(?i:the\s+)?(?=\d|(?i:<MONTH>)\b)"),
    "name_is": (
        r"(?i:my)\s+(?i:full\s+|first\s+|real\s+|legal\s+|actual\s+|new\s+)?(?i:name)"
        r"\s+(?i:is|'s|’s)\s+(?P<obj><PERSON>|[a-z]+\b)"
    ),
    "name_changed": (
        r"<I>\s+(?i:legally\s+)?(?i:changed)\s+(?i:my)\s+(?i:name)\s+(?i:to)"
        r"\s+(?P<obj><PERSON>)"
    ),
    "call_me": (
        r"(?i:everyone|people|my\s+friends|friends|most\s+people|everybody)\s+(?i:calls?)"
        r"\s+(?i:me)\s+(?P<obj><PERSON>)|<I>\s+(?i:go)\s+(?i:by)\s+(?P<obj2><PERSON>)"
    ),
    "im_name": (r"^(?i:I['’]m|I\s+am|this\s+is|my\s+name['’]s)\s+(?P<obj><PERSON>)\s*[.!,]?\s*$"),
    "pet_gone": (
        r"(?:(?i:my|our)\s+(?i:old\s+|beloved\s+|sweet\s+|little\s+)?(?P<sp1><PET>)"
        r"\s+(?P<n1><PERSON>)|(?P<n2><PERSON>)(?:\s*,?\s+(?i:the|my|our)\s+(?P<sp2><PET>),?)?|"
        r"(?i:my|our|the)\s+(?i:old\s+|beloved\s+)?(?P<sp3><PET>))\s+(?i:just\s+|sadly\s+|"
        r"recently\s+|finally\s+|unexpectedly\s+)?(?i:died|passed\s+away|passed|ran\s+away|"
        r"went\s+missing|was\s+put\s+down|had\s+to\s+be\s+put\s+down|got\s+run\s+over|"
        r"was\s+rehomed|is\s+gone|is\s+no\s+longer\s+with\s+us|"
        r"crossed\s+the\s+rainbow\s+bridge)\b"
    ),
    "pet_put_down": (
        r"(?:<I>|\b(?i:we))\s+(?:(?i:had|have)\s+to\s+)?(?i:put|gave|give|rehomed|rehome|lost)"
        r"\s+(?:(?i:down|away)"
        r"\s+)?(?:(?i:my|our|the)\s+(?P<sp4><PET>)(?:\s+(?P<n1><PERSON>))?|(?P<n3><PERSON>))"
        r"(?:\s+(?i:down|to\s+sleep|away|up\s+for\s+adoption))?\b"
    ),
    "job_loss": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:(?:quit|left|lost|leaving|quitting)\s+(?:my|his|her)"
        r"\s+(?:job|position|role)|(?:got|been|was|were|getting)\s+(?:fired|laid\s+off|"
        r"let\s+go|sacked|made\s+redundant)|retired|resigned|unemployed|out\s+of\s+work|"
        r"between\s+jobs))(?P<prep>\s+(?i:at|with|from|by)\s+)?"
    ),
    "leave": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:left|leave|leaving|quit|quitting|resigned\s+from|"
        r"retired\s+from|moved\s+out\s+of|moved\s+away\s+from|stepped\s+down\s+from))"
        r"\s+(?!(?i:my|his|her|the)\s+job\b)"
    ),
    "breakup": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:broke\s+up\s+with|split\s+up\s+with|split\s+from|"
        r"separated\s+from|divorced|got\s+divorced\s+from|dumped|divorcing))"
        r"\s+(?P<obj><PERSON>)"
    ),
    "breakup_bare": (
        r"(?:(?P<who><I>)|(?i:my|our)\s+(?P<rel><PARTNER>)(?:\s+(?P<obj><PERSON>))?\s+(?i:and)"
        r"\s+<I>)<AUX>\s+(?i:broke\s+up|split\s+up|separated|got\s+divorced|divorced)\b"
    ),
    "owns_gone": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:sold|gave\s+away|got\s+rid\s+of|donated|traded\s+in|totaled|"
        r"totalled|wrecked))\s+(?i:my|our|the|his|her)\s+"
    ),
    "off_project": (
        r"<SUBJ><AUX>\s+(?i:off|done\s+with|finished|taken\s+off|rolled\s+off|moved\s+off|"
        r"stopped\s+working\s+on)\s+(?=(?:(?i:the|my|our)\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)"
        r"\b|(?i:project)\s|[A-Z])"
    ),
    "partner": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:got\s+married\s+to|got\s+engaged\s+to|married\s+to|married|"
        r"engaged\s+to|started\s+dating|started\s+seeing|dating|in\s+a\s+relationship\s+with|"
        r"tied\s+the\s+knot\s+with))\s+(?:(?i:his|her|their|my)\s+(?i:long-time\s+)?<PARTNER>,?\s+)?"
        r"(?P<obj><PERSON>)(?![\w'’])"
    ),
    "partner_pair": (
        r"(?P<obj><PERSON>)\s+(?i:and)\s+<I>\s+(?P<v>(?i:got\s+married|got\s+engaged|"
        r"tied\s+the\s+knot|started\s+dating|are\s+married|are\s+engaged|are\s+dating|"
        r"have\s+been\s+(?:married|together|dating)|broke\s+up|split\s+up|separated|divorced|"
        r"got\s+divorced))\b"
    ),
    "poss_rel": (
        r"(?P<who><PERSON>)['’]s\s+(?P<rel><REL>)\s+(?i:is|was)\s+(?i:now\s+)?(?P<obj><PERSON>)"
        r"(?![\w'’])"
    ),
    "deadline_by": (
        r"(?i:need|needs|have|has|got)\s+(?i:to)\s+(?i:ship|finish|deliver|submit|launch|hand\s+in|"
        r"complete|release|wrap\s+up)\s+(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)"
        r"(?=\s+(?i:by|before)\b)"
    ),
    "rel_is": (
        r"(?i:my|our)\s+(?P<rel><REL>)(?i:s|es)?(?:['’]s\s+(?i:names?))?\s+(?i:is|are|'s|’s)"
        r"\s+(?i:now\s+|called\s+|named\s+)*(?P<obj><PERSONS>)(?![\w'’])"
    ),
    "is_rel": (
        r"(?P<obj><PERSON>)\s+(?i:is|'s|’s|has\s+been|became)\s+(?i:now\s+)?(?i:my|our)"
        r"\s+(?P<rel><REL>)\b"
    ),
    "have_rel": (
        r"<I><AUX>\s+(?P<v>(?i:have|has|got|adopted|rescued|had))\s+(?:(?i:a|an|one|two|three|"
        r"four|five|six|\d+|another)\s+)?(?:(?i:new|little|baby|rescue|pet|young|older|"
        r"younger|big|twin)\s+)*(?P<rel><REL>)(?i:s|es)?(?:\s*,\s*|\s+(?i:named|called)\s+|"
        r"\s*[:–—-]\s*)(?P<obj><PERSONS>)"
    ),
    "report_to": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:report|reports|reporting|reported|started\s+reporting))"
        r"\s+(?i:directly\s+)?(?i:to)\s+(?P<obj><PERSON>)"
    ),
    "move": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:moved|relocated|move|moves|moving|relocate|relocates|"
        r"relocating|emigrated|immigrated|settled))\s+(?i:back\s+|over\s+|permanently\s+|"
        r"here\s+|down\s+|up\s+|all\s+the\s+way\s+)?(?:(?i:from)\s+[\w'’.\-]+(?:\s+[A-Z][\w'’.\-]*)?"
        r"\s+)?(?i:to|into|in)\s+"
    ),
    "live": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:live|lives|living|lived|reside|resides|residing|resided|"
        r"based))\s+(?i:here\s+)?(?:(?i:with)\s+(?:(?i:my|our)\s+)?(?:\w+\s+){1,3}?)?(?i:in)\s+"
    ),
    "home": (
        r"(?i:my)\s+(?P<new>(?i:new)\s+)?(?i:home|address|place|flat|apartment|house)"
        r"\s+(?i:is)\s+(?i:now\s+)?(?i:in)\s+"
    ),
    "join": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:joined|join|joins|joining|(?:started|start|starts|starting|"
        r"began|begin)\s+(?:a\s+new\s+job\s+|my\s+new\s+job\s+|working\s+|work\s+|"
        r"an\s+internship\s+)?(?:at|with|for)|got\s+(?:a\s+|the\s+)?(?:new\s+)?(?:job|"
        r"position|role|gig|internship)\s+(?:at|with)|(?:accepted|took)\s+(?:a|an|the)"
        r"\s+(?:new\s+)?(?:job|position|role|offer|internship)\s+(?:at|with|from)|(?:got|was|"
        r"been|were|get)\s+hired\s+(?:at|by)|signed\s+with|(?:started|start|starting|began|"
        r"begin|enrolled\s+in|began)\s+(?:a|an|my)\s+(?:phd|doctorate|master['’]?s|mba|degree|"
        r"bachelor['’]?s|course|program(?:me)?|apprenticeship)(?:\s+(?:in|on)\s+[\w\s]+?)?\s+"
        r"(?:at|with)))\s+"
    ),
    "employer": (
        r"(?i:my)\s+(?P<new>(?i:new|current)\s+)?(?i:job\s+is\s+at|job\s+is\s+with|"
        r"employer\s+is|company\s+is|workplace\s+is)\s+(?i:now\s+)?"
    ),
    "job_title": (
        r"<SUBJ><AUX>\s+(?:(?P<v>(?i:(?:got\s+|been\s+|was\s+|were\s+|just\s+got\s+)"
        r"?promoted\s+to|became|become|becoming|started\s+as|started\s+working\s+as|"
        r"working\s+as|work\s+as|works\s+as|worked\s+as|employed\s+as|hired\s+as))\s+"
        r"(?:(?i:an?|the)\s+)?|(?i:an?|the)\s+)(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,3}?<JOB>s?)\b"
    ),
    "title_is": (
        r"(?i:my)\s+(?P<new>(?i:new)\s+)?(?i:job\s+title|title|role|position|job)\s+(?i:is)"
        r"\s+(?i:now\s+)?(?!(?i:at|with|in)\b)(?:(?i:an?|the)\s+)?"
    ),
    "work_as": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:work|works|working|worked))\s+(?i:as)\s+(?:(?i:an?|the)\s+)"
        r"?(?P<title>[\w\-]+(?:\s+[\w\-]+){0,3}?)(?=\s+(?:at|for|in|with|since)\b|\s*[,.;!]|"
        r"\s*$)"
    ),
    "works": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:work|works|working|worked|employed|interning|interned))"
        r"\s+(?:(?i:full[-\s]time|part[-\s]time|remotely|fully\s+remote)\s+)?(?i:at|for|by)\s+"
    ),
    "studies": (r"<SUBJ><AUX>\s+(?P<v>(?i:study|studies|studying|studied|enrolled))\s+(?i:at)\s+"),
    "works_on": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:working|work|works|worked|started\s+working|began\s+working|"
        r"leading|lead|leads|led|managing|manage|manages|managed|been\s+assigned|assigned|"
        r"on(?=\s+(?:the\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)\b)))\s+(?i:on\s+|to\s+)"
        r"?(?=(?:(?i:the|my|our)\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)\b|(?i:project)\s|[A-Z]|"
        r"(?i:my|our)\s)"
    ),
    "age": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:turned|turn|turns|turning))?\s*(?P<n>\d{1,3}|(?i:<NUM>))"
        r"(?:\s+(?i:years?|yrs?)(?:\s+(?i:old))?|\s*(?i:yo|y/o|y\.o\.))?(?=\s*(?:$|[,.;!?]|"
        r"\s+(?i:and|but|now|today|this|next|last|since|in|on|soon|already|myself|tomorrow|"
        r"yesterday|years?)\b))"
    ),
    "diet": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:went|gone|go|going|turned|became|become|becoming|"
        r"switched\s+to|converted\s+to|eat|eats|eating|follow|follows|following|keep|keeps|"
        r"keeping|on))?\s*(?:(?i:a|an|strictly|fully|completely|mostly|mainly|strict|full|"
        r"100%|basically|pretty\s+much)\s+)*(?P<obj>(?i:<DIET>))(?:\s+(?i:diet))?(?![\w-])"
    ),
    "nationality": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:became|become|got|received|obtained|hold|holds|have|has))"
        r"?\s*(?:(?i:an?|dual|proud)\s+)*(?P<obj>(?i:<DEMONYM>))(?:\s+(?i:citizen|national|"
        r"citizenship|nationality|passport))?(?!\s+(?!and\b|but\b|so\b|too\b|by\b|from\b|"
        r"now\b|since\b|though\b|myself\b|originally\b|as\b)[a-z])(?![\w-])"
    ),
    "from": (
        r"<SUBJ><AUX>\s+(?i:originally\s+|born\s+and\s+raised\s+|raised\s+)?(?i:from|"
        r"come\s+from|comes\s+from|hail\s+from|hails\s+from)\s+"
    ),
    "speaks": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:speak|speaks|speaking|spoke|can\s+speak|fluent\s+in|"
        r"bilingual\s+in|conversational\s+in|a\s+native(?=\s+<LANG>\s+speaker)))"
        r"\s+(?:(?i:a\s+little\s+bit\s+of|a\s+little|a\s+bit\s+of|some|basic|fluent|"
        r"conversational|decent|good|perfect|native|broken|passable|okay|ok)\s+)"
        r"?(?P<obj>(?i:<LANG>)(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s+&\s+)(?:(?i:a\s+little|"
        r"some|basic|fluent)\s+)?(?i:<LANG>))*)\b"
    ),
    "native": (
        r"(?P<who>(?i:my))\s+(?i:native\s+language|mother\s+tongue|first\s+language)\s+(?i:is)"
        r"\s+(?P<obj>(?i:<LANG>))\b"
    ),
    "allergic": (
        r"<SUBJ><AUX>\s+(?:(?i:severely|very|deathly|mildly|slightly|highly|seriously|"
        r"extremely|really|super)\s+)?(?P<v>(?i:allergic))\s+(?i:to)\s+"
    ),
    "allergy": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:have|has|got|developed))\s+(?:(?i:a|an|some)\s+)"
        r"?(?:(?i:severe|mild|bad|serious|slight|nasty|deadly|life-threatening)\s+)"
        r"?(?P<obj>[\w\-]+(?:\s+[\w\-]+)?)\s+(?i:allergy|allergies)\b"
    ),
    "pet_have": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:have|has|own|owns|got|adopted|rescued|bought|had))"
        r"\s+(?P<q>(?i:a|an|one|two|three|four|five|\d+|another|the|my|some))\s+(?:(?i:new|"
        r"little|pet|rescue|old|black|white|grey|gray|ginger|orange|tabby|golden|small|big|"
        r"cute|young|senior|baby|fluffy|lazy)\s+)*(?P<sp><PET>|(?i:puppies|kitties|bunnies|"
        r"mice))(?i:s|es)?\b"
        r"(?:(?:\s*,\s*|\s+(?i:named|called)\s+|\s+)(?P<obj><PERSONS>)(?![\w'’]))?"
    ),
    "owns": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:own|owns|bought|purchased|got|have|has))\s+(?i:myself\s+|"
        r"herself\s+|himself\s+)?(?=(?i:a|an|the|two|my\s+first|one)\s|[A-Z])"
    ),
    "drives": (r"<SUBJ><AUX>\s+(?P<v>(?i:drive|drives|driving|drove))\s+(?=(?i:a|an)\s|[A-Z])"),
    "hobby_list": (
        r"(?i:my)\s+(?:(?i:main|favou?rite|new|latest|big)\s+)?(?i:hobby|hobbies|pastime|"
        r"pastimes|passion)\s+(?i:is|are|include|includes|has\s+become|became|"
        r"these\s+days\s+(?:is|are))\s+"
    ),
    "hobby_play": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:play|plays|playing|played|do|does|doing|did|practice|"
        r"practise|practices|practises|practicing|practising|go|goes|went|going))"
        r"\s+(?:(?i:a\s+lot\s+of|some|lots\s+of|the)\s+)?(?P<obj>(?i:<HOBBY>)|(?!to\b)"
        r"[a-z]+ing)\b"
    ),
    "hobby_start": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:took\s+up|taken\s+up|take\s+up|taking\s+up|picked\s+up|"
        r"started|began|got\s+into|gotten\s+into|getting\s+into|got\s+really\s+into))\s+"
    ),
    "hobby_stop": (r"<SUBJ><AUX>\s+(?P<v>(?i:gave\s+up|given\s+up|quit|stopped))\s+"),
    "likes": (
        r"<SUBJ><AUX>\s+(?:(?i:really|absolutely|totally|just|truly|genuinely|especially|"
        r"kinda|kind\s+of|sort\s+of|still|also|both|definitely|do|always|secretly|actually)"
        r"\s+)*(?P<v>(?i:like|likes|love|loves|adore|adores|enjoy|enjoys|prefer|prefers|liked|"
        r"loved|enjoyed|adored|(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan\s+of|into|"
        r"obsessed\s+with|crazy\s+about|passionate\s+about|fond\s+of|keen\s+on|addicted\s+to))"
        r"\s+"
    ),
    "favourite": (r"(?i:my)\s+(?i:favou?rite|fave|favorite)\s+(?:[\w\-]+\s+){1,2}?(?i:is|are)\s+"),
    "dislikes": (
        r"<SUBJ><AUX>\s+(?:(?i:really|absolutely|totally|just|truly|genuinely|kinda|kind\s+of|"
        r"honestly|seriously|still|also|actually)\s+)*(?P<v>(?i:hate|hates|dislike|dislikes|"
        r"detest|detests|loathe|loathes|despise|despises|can['’]?t\s+stand|cannot\s+stand|"
        r"hated|disliked|like|likes|enjoy|enjoys|care\s+for|(?:a\s+)?(?:big\s+|huge\s+)"
        r"?fan\s+of))\s+"
    ),
    "plans": (
        r"<SUBJ><AUX>\s+(?P<v>(?i:planning|plan|plans|planned|intend|intends|intending|"
        r"decided|going|gonna|about))\s+(?:(?i:on)\s+)?(?P<to>(?i:to)\s+)?"
    ),
    "mention": (r"(?i:my|our)\s+(?P<rel><REL>)(?i:s|es)?\s*,?\s+(?P<obj><PERSONS>)(?![\w'’])"),
}
RULE_REGEX: dict[str, re.Pattern[str]] = {k: pattern(v) for k, v in RULE_TEMPLATES.items()}
