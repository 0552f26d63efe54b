"""The predicate registry: what each predicate means for keys and for the graph.

A **functional** predicate holds one value at a time (``lives_in``); its key is
(scope, subject, predicate). A **set-valued** one holds many (``owns_pet``); its key
is (scope, subject, predicate, object). ``object_kind`` says whether the object is
an entity (a node in the graph) or a literal (a property-like value).

>>> registry = PredicateRegistry.with_builtins()
>>> registry.get("lives_in").functional, registry.get("hobby").functional
(True, False)
>>> registry.declare("favourite_tea", functional=True, object_kind="literal",
...                  phrase="{subject}'s favourite tea is {object}").render("Bo", "oolong")
"Bo's favourite tea is oolong"
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Literal

from graphmem.errors import InvalidFactError

ObjectKind = Literal["entity", "literal"]
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


@dataclass(frozen=True, slots=True)
class Predicate:
    name: str
    functional: bool
    object_kind: ObjectKind = "entity"
    subject_type: str = "Person"
    object_type: str = "Thing"
    phrase: str = ""  # e.g. "{subject} lives in {object}"
    description: str = ""

    def render(self, subject: str, obj: str) -> str:
        """The fact as a sentence: the text that is embedded and shown."""
        template = self.phrase or "{subject} " + self.name.replace("_", " ") + " {object}"
        return template.format(subject=subject, object=obj)

    @property
    def cardinality(self) -> str:
        return "functional" if self.functional else "set"


_F, _S = True, False
BUILTINS: tuple[Predicate, ...] = (
    # who someone is
    Predicate("name", _F, "literal", "Person", "Name", "{subject}'s name is {object}"),
    Predicate("age", _F, "literal", "Person", "Age", "{subject} is {object} years old"),
    Predicate("birthday", _F, "literal", "Person", "Date", "{subject}'s birthday is {object}"),
    Predicate("nationality", _F, "literal", "Person", "Country", "{subject} is {object}"),
    Predicate("diet", _F, "literal", "Person", "Diet", "{subject}'s diet is {object}"),
    # where and for whom
    Predicate("lives_in", _F, "entity", "Person", "Place", "{subject} lives in {object}"),
    Predicate("works_at", _F, "entity", "Person", "Organization", "{subject} works at {object}"),
    Predicate("job_title", _F, "literal", "Person", "JobTitle", "{subject} works as {object}"),
    Predicate("manager", _F, "entity", "Person", "Person", "{subject}'s manager is {object}"),
    Predicate(
        "studies_at", _F, "entity", "Person", "Organization", "{subject} studies at {object}"
    ),
    Predicate("partner", _F, "entity", "Person", "Person", "{subject}'s partner is {object}"),
    Predicate(
        "deadline", _F, "literal", "Project", "Date", "the deadline of {subject} is {object}"
    ),
    Predicate("drives", _F, "entity", "Person", "Vehicle", "{subject} drives {object}"),
    Predicate("phone", _F, "entity", "Person", "Device", "{subject}'s phone is {object}"),
    # favourites: one at a time, and they change ("Rust has become my go-to language")
    *(
        Predicate(
            f"favourite_{kind}",
            _F,
            "literal",
            "Person",
            "Thing",
            f"{{subject}}'s favourite {label} is {{object}}",
        )  # fmt: skip
        for kind, label in (
            ("language", "programming language"),
            ("food", "food"),
            ("drink", "drink"),
            ("book", "book"),
            ("film", "film"),
            ("music", "music"),
            ("sport", "sport"),
            ("colour", "colour"),
        )  # fmt: skip
    ),
    # many at once
    Predicate("owns_pet", _S, "entity", "Person", "Pet", "{subject} has a pet {object}"),
    Predicate("owns", _S, "entity", "Person", "Thing", "{subject} owns {object}"),
    Predicate("hobby", _S, "literal", "Person", "Hobby", "{subject} enjoys {object}"),
    Predicate("likes", _S, "literal", "Person", "Thing", "{subject} likes {object}"),
    Predicate("dislikes", _S, "literal", "Person", "Thing", "{subject} dislikes {object}"),
    Predicate("allergic_to", _S, "literal", "Person", "Thing", "{subject} is allergic to {object}"),
    Predicate("speaks", _S, "literal", "Person", "Language", "{subject} speaks {object}"),
    Predicate("works_on", _S, "entity", "Person", "Project", "{subject} works on {object}"),
    Predicate("plans", _S, "literal", "Person", "Plan", "{subject} plans to {object}"),
    Predicate("child", _S, "entity", "Person", "Person", "{subject}'s child is {object}"),
    Predicate("parent", _S, "entity", "Person", "Person", "{subject}'s parent is {object}"),
    Predicate("sibling", _S, "entity", "Person", "Person", "{subject}'s sibling is {object}"),
    Predicate("friend", _S, "entity", "Person", "Person", "{subject} is friends with {object}"),
    Predicate("visited", _S, "entity", "Person", "Place", "{subject} visited {object}"),
    Predicate(
        "member_of", _S, "entity", "Person", "Organization", "{subject} is a member of {object}"
    ),
    Predicate("related_to", _S, "entity", "Thing", "Thing", "{subject} is related to {object}"),
)


def _check_phrase(name: str, phrase: str) -> None:
    """A phrase is rendered for every fact: a typo in it ("{subj}") must fail now, at
    declaration, not on the first fact written with the predicate."""
    if not phrase:
        return
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(phrase) if f is not None}
    except ValueError as exc:
        raise InvalidFactError(f"predicate {name!r}: phrase {phrase!r}: {exc}") from None
    if fields != {"subject", "object"}:
        raise InvalidFactError(
            f"predicate {name!r}: phrase {phrase!r} must name {{subject}} and {{object}} "
            "and nothing else"
        )


class PredicateRegistry:
    """Built-in predicates plus the ones a user declares.

    Unknown predicates are an error by default (typos must not silently create a
    new set-valued relation); ``strict=False`` admits them as set-valued entities.
    """

    def __init__(self, predicates: tuple[Predicate, ...] = (), *, strict: bool = True):
        self._by_name: dict[str, Predicate] = {p.name: p for p in predicates}
        self.strict = strict

    @classmethod
    def with_builtins(cls, *, strict: bool = True) -> PredicateRegistry:
        return cls(BUILTINS, strict=strict)

    def declare(
        self,
        name: str,
        *,
        functional: bool,
        object_kind: ObjectKind = "entity",
        subject_type: str = "Thing",
        object_type: str = "Thing",
        phrase: str = "",
        description: str = "",
    ) -> Predicate:
        """Add a predicate. Re-declaring with the same shape is a no-op; changing it is an error."""
        if not _NAME.match(name):
            raise InvalidFactError(
                f"predicate name {name!r} must be lower_snake_case (letters, digits, _)"
            )
        if object_kind not in ("entity", "literal"):
            raise InvalidFactError(f"predicate {name!r}: object_kind must be 'entity' or 'literal'")
        _check_phrase(name, phrase)
        new = Predicate(
            name, functional, object_kind, subject_type, object_type, phrase, description
        )
        old = self._by_name.get(name)
        if old is not None and (old.functional, old.object_kind) != (functional, object_kind):
            raise InvalidFactError(
                f"predicate {name!r} is already declared as {old.cardinality} {old.object_kind}, "
                f"not {new.cardinality} {new.object_kind}"
            )
        self._by_name[name] = old or new
        return self._by_name[name]

    def get(self, name: str) -> Predicate:
        found = self._by_name.get(name)
        if found is not None:
            return found
        if self.strict:
            known = ", ".join(sorted(self._by_name))
            raise InvalidFactError(
                f"unknown predicate {name!r}; declare it first (graphmem declare {name} "
                f"--functional|--set [--literal]; known: {known})"
            )
        if not _NAME.match(name):
            raise InvalidFactError(f"predicate name {name!r} must be lower_snake_case")
        return Predicate(name, functional=False)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def __iter__(self):
        return iter(sorted(self._by_name.values(), key=lambda p: p.name))
