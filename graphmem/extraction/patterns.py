"""Lexicons, regex fragments and text utilities for the rule-based extractor.

Everything here is pure and stateless: word lists, the building blocks of the
rule regexes (``SUBJ``, ``AUX``, ``PERSON``...), and helpers that mask quoted
text, split an utterance into clauses, and cut an object name out of a clause.
``graphmem.extraction.rules`` holds the rules themselves.

>>> text = "I live in Berlin, and my sister Ana lives in Porto."
>>> [text[s:e] for s, e, _ in split_clauses(text)]
['I live in Berlin', 'my sister Ana lives in Porto.']
>>> mask_quotes('She said "I live in Oslo" to me') == 'She said ' + ' ' * 16 + ' to me'
True
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------
# Lexicons
# ---------------------------------------------------------------------------

# relation word -> predicate from the speaker to the named person (None: no predicate)
RELATIONS: dict[str, str | None] = {
    **dict.fromkeys(["sister", "brother", "sibling", "twin"], "sibling"),
    **dict.fromkeys(
        ["wife", "husband", "partner", "spouse", "girlfriend", "boyfriend", "fiancé", "fiancée", "fiance", "fiancee"],
        "partner",
    ),
    **dict.fromkeys(["son", "daughter", "kid", "child", "baby", "stepson", "stepdaughter"], "child"),
    **dict.fromkeys(["mom", "mum", "mother", "dad", "father", "parent", "stepmom", "stepmother", "stepdad"], "parent"),
    **dict.fromkeys(["manager", "boss", "supervisor"], "manager"),
    **dict.fromkeys(["friend", "best friend"], "friend"),
    **dict.fromkeys(
        ["colleague", "coworker", "co-worker", "roommate", "flatmate", "neighbour", "neighbor", "cousin", "aunt", "uncle", "grandma", "grandmother", "grandpa", "grandfather", "niece", "nephew", "mentor", "teammate"],
        None,
    ),
}
PET_SPECIES = frozenset(
    ["cat", "dog", "kitten", "puppy", "rabbit", "bunny", "hamster", "parrot", "budgie", "bird", "goldfish", "fish", "turtle", "tortoise", "snake", "lizard", "gecko", "horse", "pony", "ferret", "rat", "mouse", "chinchilla", "hedgehog", "iguana", "cockatiel", "canary", "axolotl", "tarantula", "retriever", "labrador", "poodle", "beagle", "terrier", "husky", "corgi", "dachshund", "bulldog", "spaniel", "collie", "pug", "chihuahua", "greyhound", "dalmatian", "kitty", "pup"]
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
    "raw vegan": "raw vegan", "mediterranean": "Mediterranean", "fruitarian": "fruitarian",
}
LANGUAGES = frozenset(
    ["English", "German", "French", "Spanish", "Italian", "Portuguese", "Dutch", "Swedish", "Norwegian", "Danish", "Finnish", "Polish", "Czech", "Slovak", "Hungarian", "Romanian", "Bulgarian", "Greek", "Turkish", "Russian", "Ukrainian", "Arabic", "Hebrew", "Persian", "Farsi", "Hindi", "Urdu", "Bengali", "Punjabi", "Tamil", "Telugu", "Marathi", "Gujarati", "Mandarin", "Cantonese", "Chinese", "Japanese", "Korean", "Vietnamese", "Thai", "Indonesian", "Malay", "Tagalog", "Filipino", "Swahili", "Amharic", "Yoruba", "Zulu", "Afrikaans", "Catalan", "Basque", "Galician", "Welsh", "Irish", "Gaelic", "Icelandic", "Estonian", "Latvian", "Lithuanian", "Serbian", "Croatian", "Bosnian", "Slovenian", "Albanian", "Armenian", "Georgian", "Latin", "Esperanto", "ASL", "Yiddish", "Hausa", "Igbo", "Somali", "Nepali", "Sinhala", "Khmer", "Lao", "Burmese", "Mongolian", "Kazakh", "Uzbek", "Pashto", "Kurdish", "Luxembourgish", "Maltese"]
)
COUNTRY_DEMONYMS: dict[str, str] = {
    "Germany": "German", "France": "French", "Spain": "Spanish", "Italy": "Italian",
    "Portugal": "Portuguese", "Netherlands": "Dutch", "Holland": "Dutch", "Belgium": "Belgian",
    "Sweden": "Swedish", "Norway": "Norwegian", "Denmark": "Danish", "Finland": "Finnish",
    "Poland": "Polish", "Czechia": "Czech", "Czech Republic": "Czech", "Austria": "Austrian",
    "Switzerland": "Swiss", "Ireland": "Irish", "Scotland": "Scottish", "Wales": "Welsh",
    "England": "English", "UK": "British", "United Kingdom": "British", "Britain": "British",
    "Great Britain": "British", "USA": "American", "US": "American", "United States": "American",
    "America": "American", "Canada": "Canadian", "Mexico": "Mexican", "Brazil": "Brazilian",
    "Argentina": "Argentinian", "Chile": "Chilean", "Colombia": "Colombian", "Peru": "Peruvian",
    "Venezuela": "Venezuelan", "Cuba": "Cuban", "Japan": "Japanese", "China": "Chinese",
    "Korea": "Korean", "South Korea": "Korean", "India": "Indian", "Pakistan": "Pakistani",
    "Bangladesh": "Bangladeshi", "Vietnam": "Vietnamese", "Thailand": "Thai",
    "Philippines": "Filipino", "Indonesia": "Indonesian", "Malaysia": "Malaysian",
    "Australia": "Australian", "New Zealand": "New Zealander", "Russia": "Russian",
    "Ukraine": "Ukrainian", "Greece": "Greek", "Turkey": "Turkish", "Israel": "Israeli",
    "Iran": "Iranian", "Iraq": "Iraqi", "Egypt": "Egyptian", "Morocco": "Moroccan",
    "Nigeria": "Nigerian", "Kenya": "Kenyan", "Ethiopia": "Ethiopian", "Ghana": "Ghanaian",
    "South Africa": "South African", "Romania": "Romanian", "Hungary": "Hungarian",
    "Bulgaria": "Bulgarian", "Croatia": "Croatian", "Serbia": "Serbian", "Slovakia": "Slovak",
    "Slovenia": "Slovenian", "Iceland": "Icelandic", "Estonia": "Estonian", "Latvia": "Latvian",
    "Lithuania": "Lithuanian", "Lebanon": "Lebanese", "Syria": "Syrian", "Singapore": "Singaporean",
    "Taiwan": "Taiwanese", "Nepal": "Nepali", "Sri Lanka": "Sri Lankan", "Jamaica": "Jamaican",
}
DEMONYMS = frozenset(COUNTRY_DEMONYMS.values()) | {"Brit", "Kiwi", "Québécois", "Quebecois"}
CITIES = frozenset(
    ["Berlin", "Munich", "Hamburg", "Frankfurt", "Cologne", "Stuttgart", "Leipzig", "Dresden", "Vienna", "Zurich", "Geneva", "Basel", "Paris", "Lyon", "Marseille", "Nice", "Toulouse", "Bordeaux", "Lille", "Nantes", "Madrid", "Barcelona", "Valencia", "Seville", "Bilbao", "Lisbon", "Porto", "Rome", "Milan", "Naples", "Turin", "Florence", "Venice", "Bologna", "Amsterdam", "Rotterdam", "Utrecht", "Brussels", "Antwerp", "Ghent", "London", "Manchester", "Birmingham", "Liverpool", "Leeds", "Bristol", "Edinburgh", "Glasgow", "Cardiff", "Belfast", "Dublin", "Cork", "Oslo", "Bergen", "Stockholm", "Gothenburg", "Malmo", "Copenhagen", "Aarhus", "Helsinki", "Tallinn", "Riga", "Vilnius", "Warsaw", "Krakow", "Prague", "Brno", "Budapest", "Bucharest", "Sofia", "Athens", "Istanbul", "Ankara", "Moscow", "Kyiv", "Kiev", "Lviv", "Tokyo", "Osaka", "Kyoto", "Seoul", "Busan", "Beijing", "Shanghai", "Shenzhen", "Hong", "Kong", "Taipei", "Singapore", "Bangkok", "Hanoi", "Manila", "Jakarta", "Sydney", "Melbourne", "Brisbane", "Perth", "Auckland", "Wellington", "Toronto", "Vancouver", "Montreal", "Calgary", "Ottawa", "Boston", "Chicago", "Seattle", "Portland", "Denver", "Austin", "Dallas", "Houston", "Atlanta", "Miami", "Phoenix", "Philadelphia", "Detroit", "Nashville", "Brooklyn", "Manhattan", "Oakland", "Mumbai", "Delhi", "Bangalore", "Bengaluru", "Chennai", "Hyderabad", "Pune", "Kolkata", "Dubai", "Cairo", "Nairobi", "Lagos", "Accra", "Johannesburg", "Cape", "Town", "Marrakesh", "Casablanca", "Tunis", "Mexico", "City", "Bogota", "Lima", "Santiago", "Buenos", "Aires", "Sao", "Paulo", "Rio", "Montevideo", "Reykjavik", "Luxembourg", "New", "York", "Los", "Angeles", "San", "Francisco", "San", "Diego", "Washington", "Tel", "Aviv", "Jerusalem", "Beirut", "Doha", "Abu", "Dhabi", "Kuala", "Lumpur", "Ho", "Chi", "Minh", "City", "Zagreb", "Belgrade", "Ljubljana", "Bratislava", "Salzburg", "Graz", "Bern", "Lausanne", "Nuremberg", "Hanover", "Bonn", "Heidelberg", "Freiburg", "Cambridge", "Oxford", "Brighton", "Boulder", "Minneapolis", "Pittsburgh", "Baltimore", "Toulon", "Grenoble", "Malaga", "Granada", "Faro", "Coimbra", "Tbilisi", "Yerevan", "Baku", "Almaty", "Tashkent"]
)
PLACES = CITIES | frozenset(COUNTRY_DEMONYMS) | {"Bavaria", "California", "Texas", "Florida",
                                                 "Ontario", "Quebec", "Tuscany", "Catalonia"}
JOB_NOUNS = frozenset(
    ["engineer", "developer", "programmer", "scientist", "nurse", "doctor", "physician", "teacher", "professor", "lecturer", "lawyer", "attorney", "designer", "analyst", "accountant", "consultant", "architect", "writer", "journalist", "chef", "cook", "baker", "student", "researcher", "pharmacist", "dentist", "electrician", "plumber", "carpenter", "pilot", "mechanic", "photographer", "artist", "musician", "librarian", "firefighter", "officer", "paramedic", "surgeon", "therapist", "psychologist", "psychiatrist", "economist", "editor", "translator", "marketer", "salesperson", "recruiter", "cashier", "barista", "waiter", "waitress", "bartender", "driver", "farmer", "veterinarian", "vet", "ceo", "cto", "cfo", "coo", "founder", "co-founder", "cofounder", "intern", "director", "administrator", "technician", "manager", "tutor", "coach", "trainer", "paralegal", "clerk", "secretary", "receptionist", "banker", "broker", "trader", "actuary", "statistician", "mathematician", "physicist", "chemist", "biologist", "geologist", "historian", "illustrator", "animator", "copywriter", "producer", "actor", "actress", "dancer", "singer", "composer", "freelancer", "contractor", "postdoc", "undergrad", "undergraduate", "lead", "owner", "entrepreneur", "midwife", "caregiver", "counselor", "counsellor", "social", "worker", "optometrist", "radiologist", "sysadmin", "devops", "strategist", "planner", "surveyor", "welder", "electrician", "janitor", "cleaner", "tailor", "florist", "butcher", "realtor", "agent"]
)
HOBBY_GAMES = frozenset(
    ["tennis", "chess", "football", "soccer", "basketball", "baseball", "golf", "volleyball", "badminton", "squash", "rugby", "cricket", "hockey", "poker", "bridge", "guitar", "piano", "violin", "cello", "drums", "bass", "saxophone", "flute", "ukulele", "trumpet", "clarinet", "harp", "yoga", "pilates", "karate", "judo", "taekwondo", "boxing", "kickboxing", "fencing", "archery", "crossfit", "ballet", "salsa", "padel", "pickleball", "frisbee", "handball", "lacrosse", "softball", "darts", "billiards", "bowling", "sudoku", "crosswords", "jiu-jitsu", "bjj", "capoeira", "parkour", "polo", "curling", "tai", "chi"]
    + ["video games", "board games", "table tennis", "ping pong", "ice hockey", "d&d",
       "dungeons and dragons", "tai chi", "martial arts"]
)
POSSESSIONS = frozenset(
    ["car", "bike", "bicycle", "motorbike", "motorcycle", "scooter", "house", "apartment", "flat", "condo", "cabin", "cottage", "boat", "sailboat", "yacht", "kayak", "canoe", "piano", "guitar", "violin", "laptop", "computer", "pc", "tablet", "ipad", "kindle", "e-reader", "camera", "drone", "telescope", "tent", "van", "truck", "rv", "camper", "caravan", "treadmill", "smartwatch", "console", "playstation", "ps5", "xbox", "tv", "television", "macbook", "iphone", "printer", "sewing-machine", "synthesizer", "keyboard", "e-bike", "surfboard", "snowboard", "skis"]
    + ["3d printer", "espresso machine", "drum kit", "vacation home", "summer house"]
)
WORK_NOUNS = frozenset(
    ["thesis", "dissertation", "novel", "book", "startup", "app", "website", "paper", "album", "portfolio", "podcast", "blog", "game", "memoir", "screenplay", "phd", "masters"]
)
MONTHS = {
    name: index
    for index, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
         ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
         ("october", "oct"), ("november", "nov"), ("december", "dec")],
        start=1,
    )
    for name in names
}
WEEKDAYS = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NUMBER_WORDS: dict[str, int] = {word: i for i, word in enumerate(_UNITS)}
for _t, _tw in enumerate(_TENS, start=2):
    NUMBER_WORDS[_tw] = _t * 10
    for _u in range(1, 10):
        NUMBER_WORDS[f"{_tw}-{_UNITS[_u]}"] = _t * 10 + _u
        NUMBER_WORDS[f"{_tw} {_UNITS[_u]}"] = _t * 10 + _u

# Capitalised words that start sentences but never name a person or an organisation.
NAME_STOPWORDS = frozenset(
    w.lower()
    for w in ["I", "Me", "My", "Mine", "We", "Our", "Us", "You", "Your", "He", "She", "It", "They", "Them", "His", "Her", "Their", "This", "That", "These", "Those", "The", "A", "An", "And", "But", "Or", "So", "If", "When", "While", "Since", "After", "Before", "Because", "Though", "Although", "Also", "Actually", "Sorry", "Oh", "Well", "Yes", "No", "Yeah", "Yep", "Nope", "Ok", "Okay", "Hi", "Hey", "Hello", "Thanks", "Please", "Maybe", "Perhaps", "Yesterday", "Today", "Tomorrow", "Tonight", "Last", "Next", "Now", "Then", "Recently", "Finally", "Currently", "Honestly", "Basically", "Btw", "Anyway", "Still", "Just", "Everyone", "Everybody", "Someone", "Somebody", "Nobody", "People", "Mom", "Mum", "Dad", "Mother", "Father", "Grandma", "Grandpa", "Update", "News", "Fun", "Guess", "Wait", "Oops", "Correction", "Apparently", "Unfortunately", "Sadly", "Luckily", "Hopefully", "Anyways", "Um", "Uh", "Hmm", "Lol", "Haha", "Also", "Plus", "Starting", "Back", "Earlier", "Later", "Soon", "Around", "Every", "Each", "Both", "Nothing", "Everything", "Something", "Here", "There", "What", "Where", "Who", "Why", "How", "Which", "Do", "Does", "Did", "Is", "Are", "Was", "Were", "Have", "Has", "Had", "Can", "Could", "Would", "Should", "Will", "Mr", "Mrs", "Ms", "Dr", "Prof", "Let", "Not", "Never", "Some", "Any", "All", "Once", "Twice", "Again", "Ah"]
) | frozenset(MONTHS) | WEEKDAYS | {w.lower() for w in LANGUAGES | DEMONYMS}

# ---------------------------------------------------------------------------
# Regex fragments (substituted into rule patterns by ``pattern``)
# ---------------------------------------------------------------------------

NAME_TOKEN = r"[A-Z](?:[a-zà-ÿ]+|[’'][A-Z][a-zà-ÿ]+)(?:[-'’][A-Z]?[a-zà-ÿ]+)*"
PERSON = rf"(?:{NAME_TOKEN}(?:\s+{NAME_TOKEN}){{0,2}})"
PERSON_LIST = rf"(?:{PERSON}(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+){PERSON})*)"
_REL_WORDS = "|".join(sorted((re.escape(w) for w in RELATIONS), key=len, reverse=True))
_PET_WORDS = "|".join(sorted((re.escape(w) for w in PET_SPECIES), key=len, reverse=True))
def alternation_words(words) -> str:
    """Regex alternatives for ``words``, longest first, spaces matching any whitespace."""
    escaped = {re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in words}
    return "|".join(sorted(escaped, key=len, reverse=True))


REL_MODIFIERS = r"(?:(?:older|younger|little|big|baby|twin|new|best|eldest|oldest|youngest|elder|step|dear|lovely|current)\s+)*"
REL = rf"(?:{REL_MODIFIERS}(?i:{_REL_WORDS}|{_PET_WORDS}))"
PET = rf"(?i:{_PET_WORDS})"
FIRST = r"(?:I|i)(?![\w])"
POSS = r"(?i:my|our)"
SUBJ = (
    rf"(?P<who>{FIRST}|{POSS}\s+{REL}(?:\s*,?\s+{PERSON}\b,?)?|{PERSON}\s*,\s+{POSS}\s+{REL}\s*,"
    rf"|(?<![\w'’]){PERSON}(?![\w'’])|\b(?i:he|she)\b)"
)
AUX_PHRASES = (
    "am", "is", "are", "was", "were", "have", "has", "had", "will", "shall", "just", "now",
    "currently", "also", "still", "recently", "finally", "actually", "really", "already",
    "officially", "been", "be", "going to", "gonna", "used to", "then", "even", "both", "too",
    "basically", "literally", "honestly", "mostly", "only", "originally", "always", "never",
    "no longer", "not", "do", "does", "did", "don't", "doesn't", "didn't", "do not", "does not",
    "did not", "haven't", "hasn't", "hadn't", "won't", "isn't", "aren't", "wasn't", "weren't",
    "definitely", "happily", "temporarily", "permanently", "soon", "eventually", "ever",
    "probably", "newly", "absolutely", "totally", "truly", "seriously", "kind of", "sort of",
    "all", "officially", "unfortunately", "sadly", "luckily", "proudly",
)
AUX = (
    r"(?:\s*(?:['’](?:m|s|ve|ll|re|d))\b|\s+(?i:" + alternation_words(AUX_PHRASES) + r")\b)*"
)


def pattern(template: str) -> re.Pattern[str]:
    """Compile a rule template, substituting the fragments written as ``<NAME>``."""
    for key, value in (("<SUBJ>", SUBJ), ("<AUX>", rf"(?P<aux>{AUX})"), ("<PERSON>", PERSON),
                       ("<PERSONS>", PERSON_LIST), ("<REL>", REL), ("<PET>", PET),
                       ("<I>", FIRST), ("<POSS>", POSS)):
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
    ["dr", "mr", "mrs", "ms", "st", "prof", "jr", "sr", "vs", "etc", "e.g", "i.e", "inc", "ltd", "co", "corp", "mt", "no", "approx", "u.s", "u.k", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun"]
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
    r"left|quit|started|turned|play|plays|am|is|was|report|reports|drive|drives)\b"
)
_CLAUSE_BREAK = re.compile(
    rf"\s*(?:[,;:]|\s[-–—]+)\s*(?:(?:and|but|so|or|then)\s+)?(?={_OPENER}|{_QUESTION_OPENER})"
    rf"|\s+(?:and|but|so|because|cause|although|though|while|whereas|plus|yet|then)\s+(?={_OPENER})"
    rf"|(?P<elided>\s*,?\s+(?:and|but)\s+)(?={_ELIDED_OPENER})"
    r"|\s*[–—]\s*"
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans (end includes the terminating punctuation)."""
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if match.group().startswith("."):
            word = re.search(r"([\w.]+)$", text[start : match.start()])
            if word and word.group(1).lower() in _ABBREVIATIONS:
                continue
        end = match.end() if not match.group().startswith("\n") else match.start()
        if text[start:end].strip():
            spans.append((start, end))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def split_clauses(text: str) -> list[tuple[int, int, bool]]:
    """Clause spans ``(start, end, elided)`` of every sentence; ``elided``: the clause's
    subject is the previous clause's ("... and works at Acme")."""
    clauses = []
    for s_start, s_end in split_sentences(text):
        start, elided = s_start, False
        sentence = text[s_start:s_end]
        for match in _CLAUSE_BREAK.finditer(sentence):
            end = s_start + match.start()
            if text[start:end].strip():
                clauses.append((start, end, elided))
            start, elided = s_start + match.end(), bool(match.group("elided"))
        if text[start:s_end].strip():
            clauses.append((start, s_end, elided))
    return [_trim(text, s, e, el) for s, e, el in clauses]


def _trim(text: str, start: int, end: int, elided: bool) -> tuple[int, int, bool]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end, elided


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
_CONNECTORS = frozenset(["of", "de", "del", "della", "da", "do", "dos", "das", "du", "la", "le", "les", "von", "van", "der", "den", "y", "and", "&", "the", "upon", "on", "am", "im", "sur", "for"])
_PHRASE_STOP = re.compile(
    r"[;:!?()\[\]]|\.(?:\s|$)|,\s*(?=(?i:which|who|because|but|so|though|especially|since|"
    r"when|as|and\s+(?:i|my|it)|not)\b)"
    r"|\s+(?i:because|since|when|whenever|while|although|though|but|so\s+that|which|who|whom|"
    r"whose|unless|if|especially|except|than|whereas|cause|cos|as\s+well|as\s+long|anymore|"
    r"any\s+more|any\s+longer|these\s+days|nowadays|lately|at\s+the\s+moment|right\s+now|now|"
    r"too|a\s+lot|so\s+much|very\s+much|more\s+than|most\s+of\s+all|for\s+(?:years|ages|a\s+while|"
    r"\d+|a\s+long\s+time|some\s+time|many\s+years|a\s+few)|instead|either|at\s+all|though|"
    r"i\s+think|i\s+guess|lol|haha)\b"
)
_ENTITY_STOP = re.compile(
    r"\s+(?i:in|at|on|near|for|from|with|since|until|till|as|by|after|before|during|"
    r"last|next|this|yesterday|today|tomorrow|ago|recently|now|and|but|or|because|when|"
    r"with|to|too|again|already|permanently|for\s+good)\b|[,;:!?()]"
)
PRONOUN_OBJECTS = frozenset(
    ["it", "that", "this", "them", "you", "him", "her", "those", "these", "everything", "nothing", "something", "anything", "me", "us", "myself", "yourself", "one", "mine", "yours", "there", "here", "home"]
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
    words = chunk.split()
    if not words or len(words) > 3 or words[0].lower() in PRONOUN_OBJECTS | NAME_STOPWORDS:
        return None
    return start, start + len(chunk), title_if_lower(chunk)


def take_phrase(text: str, pos: int, limit: int, *, max_words: int = 8):
    """A free-text object (a food, an activity, a plan) from ``pos`` to a boundary."""
    stop = _PHRASE_STOP.search(text, pos, limit)
    end = stop.start() if stop else limit
    raw = text[pos:end]
    value = clean(raw)
    value = re.sub(r"(?i)\s+(?:very much|so much|a lot|a bunch|too|as well|more and more|"
                   r"really|though|anymore|again)$", "", value)
    if not value or len(value.split()) > max_words:
        return None
    first = value.split()[0].lower()
    if first in PRONOUN_OBJECTS or first in {"my", "your", "his", "her", "our", "their", "to"}:
        return None
    start = pos + raw.find(value[:1]) if value else pos
    return start, end, value


_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&|as\s+well\s+as|plus)\s+")
COMPOUNDS = frozenset({"mac and cheese", "fish and chips", "rock and roll", "salt and pepper",
                       "peanut butter and jelly", "rhythm and blues", "drum and bass",
                       "dungeons and dragons", "sweet and sour", "bread and butter",
                       "pros and cons", "arts and crafts", "r&b", "d&d"})


def split_list(value: str) -> list[str]:
    """Split "cats, dogs and birds" into items, keeping known compounds whole."""
    if value.lower() in COMPOUNDS:
        return [value]
    protected = value
    for index, compound in enumerate(COMPOUNDS):
        protected = re.sub(re.escape(compound), f"\x00{index}\x00", protected, flags=re.I)
    compounds = list(COMPOUNDS)
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
