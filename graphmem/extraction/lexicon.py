"""The word lists of the rule-based extractor: what it knows about the world.

Relation words and pet species, diets, languages, countries and their demonyms, places,
job nouns, hobbies, possessions, month and number words, and the capitalised words that
never name anyone. Lists are written as prose (``words("cat dog ...")``) so that they
read, and diff, like text. Regexes built from them live in
:mod:`graphmem.extraction.patterns`.
"""

from __future__ import annotations


def words(text: str) -> list[str]:
    """The whitespace-separated words of ``text`` (lexicons are written as prose)."""
    return text.split()


RELATIONS: dict[str, str | None] = {
    # chat's short forms too ("my sis Efe", "my bf Jon", "my bestie Tara")
    **dict.fromkeys(words("sister brother sibling twin sis bro"), "sibling"),
    **dict.fromkeys(
        words(
            "wife husband partner spouse girlfriend boyfriend fiancé fiancée fiance fiancee "
            "hubby wifey missus bf gf fella"
        ),
        "partner",
    ),
    **dict.fromkeys(words("son daughter kid child baby stepson stepdaughter"), "child"),
    **dict.fromkeys(
        words(
            "mom mum mother dad father parent stepmom stepmother stepdad mam mommy mummy daddy "
            "da mammy mama amma ammi appa"
        ),
        "parent",
    ),
    **dict.fromkeys(
        [*words("manager boss supervisor"), "line manager", "team lead", "team leader"], "manager"
    ),
    **dict.fromkeys(
        ["friend", "best friend", "bestie", "bff", "best mate", "mate", "buddy", "pal"], "friend"
    ),
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
        "dachshund bulldog spaniel collie pug chihuahua greyhound dalmatian kitty pup tabby "
        "moggy mutt lurcher whippet schnauzer sheepdog shepherd hen chicken duck goat "
        "alpaca donkey cockatoo budgerigar betta"
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
    "raw vegan": "raw vegan", "fruitarian": "fruitarian", "veg": "vegetarian",
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
        "Yerevan Baku Almaty Tashkent Valletta Braga"
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
        "engineer developer dev programmer scientist nurse doctor physician teacher professor gp "
        "garda sparky chippy tradie cop apprentice builder roofer "
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
        "adjuster machinist leader principal headteacher teller underwriter dispatcher "
        "entrepreneur midwife caregiver counselor counsellor optometrist radiologist sysadmin "
        "devops strategist planner surveyor welder janitor cleaner tailor florist butcher "
        "realtor agent supervisor adjuster machinist buyer physio physiotherapist "
        "specialist coordinator officer executive associate assistant advisor adviser "
        "inspector auditor controller operator representative rep officer educator "
        "instructor headteacher lecturer hygienist sonographer carer porter "
        "courier labourer laborer foreman superintendent dispatcher estimator underwriter "
        "programmer sre pm"
    )
    + ["social worker", "team lead", "team leader", "head of"]
)
# Programming languages (a favourite language is one of these, not French).
PROGRAMMING_LANGUAGES = frozenset(
    words(
        "Python Rust Go Golang Java Kotlin TypeScript JavaScript Ruby Perl Haskell Elixir "
        "Erlang Scala Swift PHP Julia Lua Clojure OCaml Zig Dart Fortran COBOL Nim Crystal "
        "Elm Racket Lisp Scheme Prolog MATLAB Groovy Bash Shell SQL Solidity Assembly Pascal "
        "Delphi Smalltalk Gleam Mojo"
    )
    + ["C", "C#", "C++", "F#", "R", "Objective-C", "Visual Basic"]
)
HOBBY_GAMES = frozenset(
    words(
        "tennis chess football soccer basketball baseball golf volleyball badminton squash rugby "
        "cricket hockey poker bridge guitar piano violin cello drums bass saxophone flute ukulele "
        "trumpet clarinet harp yoga pilates karate judo taekwondo boxing kickboxing fencing "
        "archery crossfit ballet salsa padel pickleball frisbee handball lacrosse softball darts "
        "billiards bowling sudoku crosswords jiu-jitsu bjj capoeira parkour polo curling "
        # crafts and pastimes named by a noun, not a gerund
        "pottery ceramics crochet knitting embroidery calligraphy origami photography "
        "choir orchestra karaoke improv theatre theater zumba spinning aikido kendo "
        "triathlon bouldering surfing rowing netball mahjong backgammon scrabble lego "
        "woodwork kathak bharatanatyam flamenco tango ballroom breakdance hula bachata "
        "accordion banjo mandolin oboe trombone bagpipes harmonica sitar tabla marathons "
        "wrestling sumo muay-thai sambo krav-maga waterpolo lacrosse canasta"
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


def _number_words() -> dict[str, int]:
    """ "zero" .. "ninety-nine", the compounds written with a hyphen or a space."""
    units = words(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen"
    )
    tens = words("twenty thirty forty fifty sixty seventy eighty ninety")
    numbers = {word: i for i, word in enumerate(units)}
    for t, ten in enumerate(tens, start=2):
        numbers[ten] = t * 10
        for u in range(1, 10):
            numbers[f"{ten}-{units[u]}"] = t * 10 + u
            numbers[f"{ten} {units[u]}"] = t * 10 + u
    return numbers


NUMBER_WORDS = _number_words()

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


# Unnamed people: "my brother" is the entity "<owner>'s brother", one word per relation.
RELATIVE_WORDS: dict[str, str] = {
    **dict.fromkeys(words("mother mum mom ma mommy mummy mam mammy mama amma ammi"), "mother"),
    **dict.fromkeys(words("father dad daddy pa papa da appa"), "father"),
    **dict.fromkeys(words("brother bro"), "brother"),
    **dict.fromkeys(words("sister sis"), "sister"),
    **dict.fromkeys(words("son"), "son"),
    **dict.fromkeys(words("daughter"), "daughter"),
    **dict.fromkeys(words("wife wifey missus"), "wife"),
    **dict.fromkeys(words("husband hubby"), "husband"),
    **dict.fromkeys(words("partner spouse"), "partner"),
    **dict.fromkeys(words("boyfriend bf"), "boyfriend"),
    **dict.fromkeys(words("girlfriend gf"), "girlfriend"),
    **dict.fromkeys(["friend", "best friend", "bestie", "mate", "buddy", "pal", "bff"], "friend"),
    **dict.fromkeys(
        ["manager", "boss", "line manager", "supervisor", "team lead", "lead"], "manager"
    ),
    **dict.fromkeys(words("cousin"), "cousin"),
    **dict.fromkeys(words("aunt auntie aunty"), "aunt"),
    **dict.fromkeys(words("uncle"), "uncle"),
    **dict.fromkeys(words("grandmother grandma gran granny nan nana nanna"), "grandmother"),
    **dict.fromkeys(words("grandfather grandpa grandad granddad gramps"), "grandfather"),
    **dict.fromkeys(words("colleague coworker co-worker workmate"), "colleague"),
    **dict.fromkeys(words("flatmate roommate housemate roomie"), "flatmate"),
    **dict.fromkeys(words("neighbour neighbor"), "neighbour"),
}


# Which pronoun a relation word takes: "he" for a brother, "she" for a sister; a
# partner, friend or manager could be either.
PRONOUN_OF: dict[str, str] = {
    **dict.fromkeys(
        words("brother father son husband boyfriend uncle grandfather nephew fiance fiancé"), "he"
    ),
    **dict.fromkeys(
        words("sister mother daughter wife girlfriend aunt grandmother niece fiancee fiancée"),
        "she",
    ),
}


def relative_word(text: str) -> str | None:
    """The one word for a relation as said ("mum" -> "mother", "line manager" -> "manager")."""
    text = " ".join(text.lower().split())
    for prefix in ("older ", "younger ", "big ", "little ", "baby ", "step", "twin "):
        if text.startswith(prefix) and text[len(prefix) :].strip() in RELATIVE_WORDS:
            text = text[len(prefix) :].strip()
    if text.endswith("s") and text[:-1] in RELATIVE_WORDS and text not in RELATIVE_WORDS:
        return None  # "my brothers": several people, not one entity
    return RELATIVE_WORDS.get(text)


def relative_name(owner: str, word: str) -> str:
    """The entity name of the owner's unnamed relative: ``"Maya's brother"``."""
    return f"{owner}'s {relative_word(word) or word}"


def is_unnamed_relative(name: str) -> bool:
    """Whether ``name`` is an entity :func:`relative_name` made, not a name anyone has.

    >>> is_unnamed_relative("Maya's brother"), is_unnamed_relative("Georges")
    (True, False)
    """
    head, sep, word = name.rpartition("'s ")
    return bool(sep and head) and word in set(RELATIVE_WORDS.values())
