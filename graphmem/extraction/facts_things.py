"""What people have: ``owns_pet``, ``owns``, ``drives``.

A pet is named when named ("Tom"), else by species ("cat"), and "the cat" resolves to
the remembered name. "Tom died" is a pet's death only when Tom is a known pet. Things
owned are the words of :data:`graphmem.extraction.lexicon.POSSESSIONS` or a brand ("I
bought a Vespa"); "I got Whiskers a new scratching post" is a gift, not a possession.
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.lexicon import PET_SPECIES as PET_SPECIES_SET
from graphmem.extraction.lexicon import PLURAL_SPECIES, POSSESSIONS
from graphmem.extraction.objects import names, phrase
from graphmem.extraction.patterns import PERSON_LIST, PET, pattern
from graphmem.extraction.timing import aspect_of
from graphmem.extraction.truecase import is_common_word
from graphmem.extraction.turn import Draft, Turn, emit


def _pet_name(x: Turn, species: str | None, name: str | None) -> str | None:
    if name:
        return name
    species = PLURAL_SPECIES.get((species or "").lower(), (species or "").lower())
    return x.memory.pets.get(species) or species or None


PET_HAVE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:have|has|own|owns|got|adopted|rescued|bought|had))"
    # "adopted dog! named him Kernel": chat drops the article after adopting
    r"\s+(?:(?P<q>(?i:a|an|one|two|three|four|five|\d+|another|the|my|his|her|our|their|some))\s+"
    r"|(?<=(?i:adopted|rescued)\s)(?=\w+\s*[!.,;]))(?:(?i:new|"
    r"little|pet|rescue|old|black|white|grey|gray|ginger|orange|tabby|golden|small|big|"
    r"cute|young|senior|baby|fluffy|lazy)\s+)*(?:(?i:second|third|fourth|first|shelter|"
    r"ex-battery|ex-racing|foster|street|farm|working|stray|retired)\s+)?(?P<sp><PET>|(?i:puppies|kitties|bunnies|"
    r"mice))(?i:s|es)?\b"
    r"(?:(?:\s+(?i:now|too|also|as\s+well))*(?:\s*,\s*|\s+(?i:named|called)\s+|\s+)"
    r"(?P<obj><PERSONS>)(?![\w'’]))?"
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}


def pet_have(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I have a cat named Tom", "we adopted two kittens", "I had a dog"."""
    verb = m.group("v").lower()
    species = m.group("sp").lower()
    species = PLURAL_SPECIES.get(species, species)
    form = (
        "change"
        if verb in ("got", "adopted", "rescued", "bought")
        else ("past" if verb == "had" else "state")
    )
    aspect = aspect_of(m.group("aux") or "", form)
    pets = names(m.group("obj"))
    count = _COUNTS.get((m.group("q") or "").lower(), 0)
    if pets and len(pets) < count:
        # "two working dogs, Bess (huntaway) and Tui (heading dog)": the list goes on
        # past an aside
        rest = re.sub(r"\s*\([^)]*\)", "", c.s[m.start("obj") :])
        more = re.match(rf"\s*({PERSON_LIST})(?![\w'’])", rest)
        pets = names(more.group(1)) if more else pets
    if pets:
        subj = x.subject(m.group("who"), (0, 0))
        if subj and subj.name == x.episode.speaker:
            x.memory.pets[species] = pets[-1]
        return emit(x, c, m, "owns_pet", pets, aspect)
    quantity = (m.group("q") or "a").lower()
    if quantity not in (
        "a",
        "an",
        "one",
        "another",
        "the",
        "my",
        "his",
        "her",
        "our",
        "their",
    ):
        # "two hens - rescued girls - called Edith and Piaf": several animals are their
        # names, given later in the turn or not at all (a count is no one pet)
        after = x.text[c.start + max(0, m.end() - len(c.prefix)) :]  # m reads the clause
        later = re.search(rf"\b(?i:named|called)\s+({PERSON_LIST})(?![\w'’])", after)
        pets = names(later.group(1)) if later and later.start() < 80 else []
        return emit(x, c, m, "owns_pet", pets, aspect) if pets else []
    obj = _pet_name(x, species, None) if quantity in ("the", "my") else species
    return emit(x, c, m, "owns_pet", [obj], aspect)


PET_GONE = pattern(
    r"(?:(?i:my|our)\s+(?i:old\s+|beloved\s+|sweet\s+|little\s+)?(?P<sp1><PET>)"
    r"\s+(?P<n1><PERSON>)|(?P<n2><PERSON>|[a-z][\w\-]+)(?:\s*,?\s+(?i:the|my|our)\s+(?P<sp2><PET>),?)?|"
    r"(?i:my|our|the)\s+(?i:old\s+|beloved\s+)?(?P<sp3><PET>))\s+(?i:just\s+|sadly\s+|"
    r"recently\s+|finally\s+|unexpectedly\s+)?(?i:died|passed\s+away|passed|ran\s+away|"
    r"went\s+missing|was\s+put\s+down|had\s+to\s+be\s+put\s+down|got\s+run\s+over|"
    r"was\s+rehomed|is\s+gone|is\s+no\s+longer\s+with\s+us|"
    r"crossed\s+the\s+rainbow\s+bridge|(?:['’]s|has|is)\s+gone\s+to\s+live\s+(?:with|at)|"
    r"went\s+to\s+live\s+(?:with|at)|went\s+with|moved\s+in\s+with|found\s+a\s+new\s+home|"
    r"(?:['’]s|has|is)\s+gone\s+to\s+stay\s+(?:with|at)|went\s+to\s+stay\s+(?:with|at)|"
    # "Paçoca is going to stay with my mum in Curitiba": staying behind with someone else
    r"(?:['’]s|is|will)\s+(?:going\s+to\s+|gonna\s+)?(?:stay|staying|live|living)\s+"
    r"(?:with|w/?)\s+(?i:my|our|his|her|their)\b|"
    r"(?:['’]s|has)\s+(?:been\s+)?rehomed|(?:basically\s+)?lives\s+(?:with|w/?|at)\s+(?:\S+\s+){1,3}now)\b"
)
PET_PUT_DOWN = pattern(
    r"(?:<I>|\b(?i:we))\s+(?:(?i:had|have)\s+to\s+)?(?i:put|gave|give|rehomed|rehome|lost)"
    r"\s+(?:(?i:down|away)"
    r"\s+)?(?:(?i:my|our|the)\s+(?P<sp4><PET>)(?:\s+(?P<n1><PERSON>))?|(?P<n3><PERSON>))"
    r"(?:\s+(?i:down|to\s+sleep|away|up\s+for\s+adoption))?\b"
)


def pet_gone(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "my cat Tom died", "we had to put the dog down"."""
    groups = m.groupdict()
    name = groups.get("n1") or groups.get("n2") or groups.get("n3")
    species = groups.get("sp1") or groups.get("sp2") or groups.get("sp3") or groups.get("sp4")
    if name and not species:
        known = {p.lower(): p for p in x.memory.pets.values()}
        known |= {o.lower(): o for s, p, o in x.memory.said if p == "owns_pet"}
        if name.lower() not in known:
            return None  # "Tom died" about a person
        name = known[name.lower()]  # "noodle passed away": the pet as first named
    if not x.first_person:
        return []
    obj = _pet_name(x, species, name)
    return emit(x, c, m, "owns_pet", [obj], "retract", subject=x.episode.speaker)


PET_NAMED = pattern(r"(?P<sp><PET>)\s*,?\s+(?i:named|called)\s+(?P<n><PERSON>)(?![\w'’])")
# "plus Moko the cat who thinks he owns the house", "Tomos the tortoise is still asleep":
# a pet by its name and species (the speaker's where the turn says so, as for PET_NAMED)
PET_THE = pattern(r"(?<![\w'’])(?P<n><PERSON>)\s+(?i:the)\s+(?P<sp><PET>)\b(?!['’])")
_OURS = re.compile(
    r"(?i)\b(?:we|i|we['’]ve|i['’]ve|our|my)\b[^.!?]{0,60}\b(?:got|adopted|rescued|have|has|"
    r"brought\s+home|new|joined|family|welcomed|picked\s+up|took\s+in|bought)\b"
    r"|\b(?:our|my)\s+(?:\w+\s+){0,3}$|\bjoined\s+(?:the|our)\s+family|\bnew\s+(?:family\s+member|addition)"
)
_SOMEONE_ELSES = re.compile(r"(?:['’]s|\b(?i:his|her|their|your))\s+(?:[\w-]+\s+){0,3}$")
_CHANGE_WORDS = re.compile(
    r"(?i)\b(?:got|adopted|rescued|new|joined|welcomed|brought\s+home|took\s+in|bought)\b"
)


def pet_named(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "a little green budgie named Kiwi joined the family", "we adopted a lab mix
    called Maple": the speaker's pet, by name, when the turn says it is theirs."""
    before = c.s[: m.start()]
    if not x.first_person or _SOMEONE_ELSES.search(before):
        return None
    if not (_OURS.search(x.text) or _OURS.search(before)):
        return None
    species = PLURAL_SPECIES.get(m.group("sp").lower(), m.group("sp").lower())
    name = m.group("n")
    x.memory.pets[species] = name
    for d in x.drafts:  # "we adopted a dog ... a lab named Maple": the dog is Maple
        if d.predicate == "owns_pet" and d.object in PET_SPECIES_SET:
            d.object = name
            return []
    aspect = "change" if _CHANGE_WORDS.search(c.s) or _CHANGE_WORDS.search(x.text) else "state"
    return emit(x, c, m, "owns_pet", [name], aspect, subject=x.episode.speaker)


def pet_the(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "Moko the cat": the speaker's pet where the turn already counts pets of theirs
    ("ive got two working dogs ... plus Moko the cat", "Our cat Mali ... and Tomos the
    tortoise"); else a cartoon, or someone else's."""
    before = c.s[: m.start()]
    if not x.first_person or _SOMEONE_ELSES.search(before):
        return None
    theirs = any(d.predicate == "owns_pet" and d.subject == x.episode.speaker for d in x.drafts)
    if not theirs and not _OUR_PETS.search(x.text):
        return None
    species = PLURAL_SPECIES.get(m.group("sp").lower(), m.group("sp").lower())
    x.memory.pets[species] = m.group("n")
    return emit(x, c, m, "owns_pet", [m.group("n")], "state", subject=x.episode.speaker)


_OUR_PETS = re.compile(rf"(?i)\b(?:our|my)\s+(?:\w+\s+)?(?:{PET})\b|\b(?:pets|animals)\b")


PET_NAMED_LATER = pattern(
    r"(?i:named|called|calling|naming)\s+(?i:her|him|it)\s+(?P<n><PERSON>)(?![\w'’])"
    # "Yolanda got a chihuahua! Named Princesa.": a name alone, right after
    r"|^\W*(?i:named|called)\s+(?P<n7><PERSON>)(?=\s*(?:[.!,]|$))"
    # "got a kelpie this arvo, Banjo.", "a beagle puppy, name is Biscuit": a name on its own
    r"|,\s*(?P<n5><PERSON>)(?=\s*(?:[.!]|$|[^\w\s,'’]))"
    r"|(?<![Mm]y\s)(?<![Yy]our\s)\b(?i:name)(?:['’]s|\s+is)\s+(?P<n6><PERSON>)(?![\w'’])"
    r"|\b(?i:she|he)(?:['’]s|\s+is)\s+(?i:called|named\s+)?(?P<n2><PERSON>)(?=\s*[.!]|\s*$)"
    # "I adopted a dog! her name is Bolacha, a little mutt": the name, however it goes on
    r"|\b(?i:her|his|its)\s+name(?:['’]s|\s+is)\s+(?P<n3><PERSON>)(?![\w'’])"
    # "he's called Noodle and he sleeps all day": an explicit "called" needs no full stop
    r"|\b(?i:she|he|it)(?:['’]s|\s+is)\s+(?i:called|named)\s+(?P<n4><PERSON>)(?![\w'’])"
)


def pet_named_later(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "We adopted a dog! Zayd named her Maple": the pet just mentioned gets its name."""
    name = next(m.group(g) for g in ("n", "n2", "n3", "n4", "n5", "n6", "n7") if m.group(g))
    for d in [*x.clause_drafts, *x.drafts]:
        if d.predicate == "owns_pet" and d.object in PET_SPECIES_SET:
            x.memory.pets[d.object] = name
            d.object = name
            return []
    return None


_NO_POSSESSION = frozenset(
    "offer job promotion promoted position role call email message text chance idea news "
    "feeling interview raise".split()
)
OWNS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:own|owns|bought|purchased|got|have|has))\s+(?i:myself\s+|"
    r"herself\s+|himself\s+)?(?=(?i:a|an|the|two|my\s+first|one)\s|[A-Z])"
)


def owns(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I own a cabin", "I bought a Vespa", "I have a 3D printer"."""
    verb = m.group("v").lower()
    found = phrase(c, m.end(), max_words=5)
    if not found:
        return []
    obj = re.split(r"\s+(?:in|on|at|for|from|with|that|which|to)\s+", found[2])[0]
    if re.match(r"[A-Z]\w*\s+(?:a|an|some|the|my)\s", obj):
        return []  # "I got Whiskers a new scratching post": bought for someone else
    head = obj.lower().split()[-1]
    if head in _NO_POSSESSION or (obj.isupper() and is_common_word(obj.lower())):
        return None  # "got the Quarry offer", "I GOT PROMOTED"
    if verb not in ("own", "owns") and head not in POSSESSIONS and not re.search(r"\b[A-Z]", obj):
        return None
    form = "state" if verb in ("own", "owns", "have", "has") else "change"
    if verb in ("have", "has") and head not in POSSESSIONS:
        return None
    return emit(x, c, m, "owns", [obj], aspect_of(m.group("aux") or "", form))


OWNS_GONE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:sold|gave\s+away|got\s+rid\s+of|donated|traded\s+in|totaled|"
    r"totalled|wrecked))\s+(?i:my|our|the|his|her)\s+"
)


def owns_gone(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I sold my car"."""
    found = phrase(c, m.end(), max_words=4)
    if not found or re.match(r"(?i)job|position|role", found[2]):
        return None
    return emit(x, c, m, "owns", [found[2]], "retract")


DRIVES = pattern(r"<SUBJ><AUX>\s+(?P<v>(?i:drive|drives|driving|drove))\s+(?=(?i:a|an)\s|[A-Z])")


def drives(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I drive a Golf"."""
    found = phrase(c, m.end(), max_words=4)
    if not found:
        return []
    obj = re.split(r"\s+(?:to|in|on|at|for|from|with|every)\s+", found[2])[0]
    if obj.lower() in ("lot", "bit", "little", "while") or obj.lower().startswith("lot "):
        return []  # "I've been driving a lot"
    aspect = aspect_of(m.group("aux") or "", "past" if m.group("v") == "drove" else "state")
    return emit(x, c, m, "drives", [obj], aspect)


# Phones: a brand and its model ("Pixel 9", "iPhone 15 Pro", "Galaxy S23").
_BRAND = (
    r"(?:(?i:google\s+)?(?i:pixel)|(?i:apple\s+)?(?i:iphone)|(?i:samsung\s+)?(?i:galaxy)|"
    r"(?i:samsung)|(?i:oneplus|one\s+plus)|(?i:xiaomi|redmi|poco)|(?i:huawei)|(?i:nokia)|"
    r"(?i:motorola|moto)|(?i:fairphone)|(?i:nothing\s+phone)|(?i:sony\s+xperia|xperia)|"
    r"(?i:oppo)|(?i:vivo)|(?i:honor)|(?i:realme)|(?i:blackberry))"
)
_MODEL = r"(?:\s+(?:[A-Za-z]?\d+[A-Za-z]?|(?i:pro|max|plus|ultra|mini|lite|xl|fold\d*|flip\d*|se|edge|note\s*\d*|a\d+|s\d+)))*"
DEVICE = rf"(?P<dev>{_BRAND}{_MODEL})(?![\w])"
# "swapped my old Galaxy for a Pixel 9", "got an iPhone 15", "my phone's a Pixel 8"
PHONE_NEW = pattern(
    rf"(?:<SUBJ><AUX>\s+)?(?P<v>(?i:got|bought|ordered|picked\s+up|switched|swapped|traded|"
    rf"upgraded|moved|changed|went|caved\s+and\s+got|treated\s+myself\s+to|finally\s+got|"
    rf"replaced\s+(?:it|him|her|that|the\s+old\s+one)))\b"
    # "got pixel 9 on wednesday", "replaced it w/ fairphone 5": chat drops the article
    rf"(?:[^.;!?]{{0,60}}?\b(?i:to|for|a|an|the|new|my|with|w/)\s+|\s+(?=[a-z]))"
    rf"(?:(?i:new|shiny|brand[- ]new)\s+)*{DEVICE}"
)
PHONE_IS = pattern(
    rf"(?i:my)\s+(?:(?i:new|current)\s+)?(?i:phone|mobile|handset|cell)(?:['’]s|\s+is"
    rf"|\s+is\s+now|\s+these\s+days\s+is)\s+(?i:a|an|the)?\s*{DEVICE}"
)
# A phone named in passing: "my iPhone 11 screen is cracked", "on my Pixel 8 rn". Not an
# old, previous or someone else's one.
PHONE_MINE = pattern(
    rf"(?<![\w'’])(?i:my)\s+(?!(?i:old|previous|former|last|first|ex|spare|work|backup|new)\b)"
    rf"(?:(?i:trusty|current|beloved|battered|poor|cracked|ancient|little)\s+)?{DEVICE}"
)
_PHONE_GONE = re.compile(
    r"(?i)\b(?:dropped|lost|stolen|nicked|smashed|sold|died|dead|broke|from|replaced|retired|old|"
    r"gone|drawer|traded|swapped|instead\s+of|used\s+to)\b"
)
PHONE_HAVE = pattern(
    rf"<SUBJ><AUX>\s+(?i:have|has|use|uses|using|rocking|on)\s+(?:(?i:a|an|the|my)\s+)?(?:(?i:new)\s+)?{DEVICE}"
)


# A phone named anywhere in a sentence that says the speaker has it now: "gaz got me a
# pixel 9", "Galaxy S24 now", "on an iphone 15 now", "back to an iPhone 13", "I got a new
# phone, iPhone 16". Read from the value out, after the shaped rules above: the brand and
# model say it is a phone whatever the phrasing; the sentence says whose and whether new.
PHONE_ANY = pattern(rf"(?<![\w'’]){DEVICE}")
_TO_ME = re.compile(
    r"(?i)\b(?:got|gave|bought|get|gets|pick(?:ed)?|picked\s+out|set\s+up|sent|ordered)\s+me\b"
    r"|\bfor\s+me\b|\bgift\s+from\b|\b(?:I|i)(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+)?"
    r"(?:got|bought|ordered|switched|upgraded|moved|went)\b|\b(?:I|i)['’]?m\s+(?:now\s+)?on\b"
)
_NOW_ON = re.compile(
    r"(?i)\bnew\s+(?:phone|mobile)\b|\b(?:got|gave|bought|arrived|switched|upgraded|now|"
    r"back\s+to|set\s+up|finally)\b"
)
_SOMEONE_ELSE = re.compile(
    r"(?i)\b(?:his|her|their|she|he|they)\b(?!\s+(?:got|gave|bought|picked|set)\s+me)"
    r"|[A-Za-z]+['’]s\s+(?:got|phone|new)\b|\bmy\s+\w+['’]?s\s+phone\b"
)


_GONE_AFTER = re.compile(
    r"\W*(?:\w+\s+){0,2}?(?:goes|went|died|broke|is\s+dead|is\s+gone|got\s+(?:nicked|stolen)|"
    r"gave\s+up|give\s+up|gave\s+out|packed\s+(?:in|up)|"
    r"retired|into\s+the\s+drawer)\b",
    re.I,
)


def _sentence(text: str, pos: int) -> tuple[int, int]:
    start = max(text.rfind(". ", 0, pos), text.rfind("! ", 0, pos), text.rfind("? ", 0, pos))
    ends = [e for e in (text.find(". ", pos), text.find("! ", pos), text.find("? ", pos)) if e >= 0]
    return (start + 2 if start >= 0 else 0), (min(ends) if ends else len(text))


def phone_any(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The speaker's phone by its name, where the sentence says they have it now: the
    first of the clause's phones that it says so of ("dropped the pixel ... on an iphone
    15 now")."""
    if not x.me:
        return None
    for found in PHONE_ANY.finditer(c.s, m.start()):
        if (drafts := _phone_now(x, c, found)) is not None:
            return drafts
    return None


def _phone_now(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    at = c.start + m.start() - len(c.prefix)
    lo, hi = _sentence(x.text, max(at, 0))
    before, after = x.text[lo : max(at, lo)], x.text[at + len(m.group(0)) : hi]
    near = re.split(r"[,;:—–]|\s(?:and|so|but|now)\s|[^\w\s'’.-]", before)[-1]
    if (
        _PHONE_GONE.search(near)
        or re.search(r"\boff\s+(?:that|the|my)\b", near)
        or _GONE_AFTER.match(after)
    ):
        return None  # "off that taped-up S21", "the Pixel 7a goes into the drawer"
    if _SOMEONE_ELSE.search(near):
        return None  # "... and Gareth finally bought his Pixel 9"
    # a verb before an earlier phone of the sentence was said of that phone ("I've got a
    # Galaxy A55 now, and Gareth bought a Pixel 9")
    own = before[max((d.end() for d in PHONE_ANY.finditer(before)), default=0) :]
    to_me = _TO_ME.search(own) or re.match(r"\s*(?i:now|these\s+days)\b", after)
    if not to_me and (_SOMEONE_ELSE.search(before) or not _NOW_ON.search(before + after)):
        return None
    if not to_me and not re.search(r"(?i)\b(?:new\s+phone|on\s+an?|back\s+to|my\s+new)\b", before):
        return None
    # the time is the one said with this phone ("gave me an iPhone 15 on Thursday"), not
    # the clause's first ("Christmas arrived early"): else the turn's own time
    first = c.times[0] if c.times else None
    near_time = first is not None and -40 <= c.relative(first)[0] - m.end() <= 25
    return emit(x, c, m, "phone", [device_name(m.group("dev"))], "change", subject=x.me,
                timed=near_time)  # fmt: skip


def device_name(text: str) -> str:
    """ "google pixel 9" -> "Pixel 9", "Iphone 15 pro" -> "iPhone 15 Pro"."""
    device = " ".join(text.split())
    device = re.sub(r"(?i)^(?:google|apple)\s+(?=\w)", "", device) or device
    words = [w if any(ch.isdigit() for ch in w) else w[:1].upper() + w[1:] for w in device.split()]
    if words[0].lower() == "iphone":
        words[0] = "iPhone"
    return " ".join(words)


def phone(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """The speaker's phone: a new one is a change, "my phone is" a state."""
    device = device_name(m.group("dev"))
    if m.re is PHONE_MINE and _PHONE_GONE.search(c.s):
        return None  # "dropped my Galaxy S23 in the Spree": one they no longer have
    changed = "v" in m.re.groupindex and m.group("v") is not None
    who = m.group("who") if "who" in m.re.groupindex else None
    if changed and re.match(r"\s+me\b", m.string[m.end("v") :]):
        who = None  # "gaz got me a pixel 9": the speaker's
    if changed and re.match(r"(?i)swapped|traded|switched|changed", m.group("v")):
        # "swapped my iPhone 11 for a Pixel 8": the new one is the one after "for"/"to"
        new = re.compile(rf"\b(?i:for|to)\s+(?:(?i:a|an|the)\s+)?(?:(?i:new|shiny)\s+)*{DEVICE}")
        later = new.search(m.string, m.end("v"))
        if later is None:
            return None
        device = device_name(later.group("dev"))
    aspect = "change" if changed else "state"
    return emit(x, c, m, "phone", [device], aspect, **({} if who else {"subject": x.me}))
