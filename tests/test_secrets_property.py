"""Property: no generated secret ever reaches a row, an entity, a turn or the embedding
model, whichever way it comes in (a loaded log, stored turns, a fact, an agent tool
call, an import)."""

from __future__ import annotations

import io
import itertools
import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphmemError, Memory
from graphmem.extraction.secrets import luhn_valid
from graphmem.restore import import_jsonl
from graphmem.retrieval.embedder import default_embedder
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds
from graphmem.tools import call_tool

UPPER_DIGITS = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits


def token(alphabet: str, size: int):
    return st.text(alphabet, min_size=size, max_size=size)


@st.composite
def card_numbers(draw) -> str:
    head = draw(st.sampled_from("2345")) + draw(token(string.digits, 14))
    check = next(d for d in string.digits if luhn_valid(head + d))
    digits = head + check
    gap = draw(st.sampled_from(["", " ", "-", "."]))
    return gap.join(digits[i : i + 4] for i in range(0, 16, 4))


passwords = st.builds(
    lambda letters, digit: letters + digit,
    st.text(string.ascii_lowercase, min_size=5, max_size=12),
    st.sampled_from(string.digits),
)
# (the secret, a sentence that states it): token shapes are secrets on their own...
SHAPED = st.one_of(
    token(UPPER_DIGITS, 16).map(lambda t: ("AKIA" + t, "my aws key is AKIA" + t)),
    token(ALNUM, 36).map(lambda t: ("ghp_" + t, f"use ghp_{t} for the repo")),
    token(ALNUM, 20).map(lambda t: (f"sk-proj-{t}7", f"the key sk-proj-{t}7 works")),
    card_numbers().map(lambda c: (c, f"my card is {c}")),
)
# ... a password only by what is said around it.
STATED = st.one_of(
    passwords.map(lambda p: (p, f"my password is {p}")),
    passwords.map(lambda p: (p, f"{p} is my password")),
    passwords.map(lambda p: (p, f"wifi password? {p}")),
    passwords.map(lambda p: (p, f"my pw is {p}")),
)
_numbers = itertools.count()
CARRIERS = st.sampled_from(["{}", "ok so {} and I live in Leeds", "btw {}. thanks!", "{} lol"])


class Recording:
    """The real embedding model, recording every text it is asked to embed."""

    def __init__(self):
        self.model = default_embedder()
        self.name, self.dimensions = self.model.name, self.model.dimensions
        self.seen: list[str] = []

    def embed(self, texts):
        self.seen.extend(texts)
        return self.model.embed(texts)


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    embedder = Recording()
    memory = Memory.open(tmp_path_factory.mktemp("secrets") / "m.db", embedder=embedder)
    yield memory
    memory.close()


def held(memory, scope) -> str:
    """Everything the scope holds and the model was shown, as one text."""
    rows = memory.backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
    return repr(
        [rows, memory.backend.entities(scope), memory.backend.episodes(scope),
         memory.embedder.seen]
    )  # fmt: skip


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    secret=st.one_of(SHAPED.map(lambda s: (*s, True)), STATED.map(lambda s: (*s, False))),
    carrier=CARRIERS,
)
def test_no_way_in_stores_or_embeds_a_secret(memory, tmp_path, secret, carrier):
    value, sentence, shaped = secret
    text = carrier.format(sentence)
    number = next(_numbers)
    scope = f"s{number}"
    log = tmp_path / f"log{number}.jsonl"
    turn = {"timestamp": "2024-01-01T00:00:00Z", "speaker": "user", "text": text}
    log.write_text(json.dumps(turn) + "\n")

    memory.load(log, scope=scope)
    alone = value if shaped else text  # a bare password is just a word
    call_tool(memory, "remember", {"subject": "me", "predicate": "hobby", "object": alone},
              scope=scope)  # fmt: skip
    call_tool(memory, "remember", {"subject": "me", "predicate": "likes", "object": text},
              scope=scope)  # fmt: skip
    for obj in (alone, text):
        with pytest.raises(GraphmemError, match="secret"):
            memory.remember("user", "hobby", obj, scope=scope)
    dump = [
        {"kind": "episode", "id": f"ep_{number}", "scope": scope, "session": "x",
         "speaker": "user", "text": text, "timestamp": "2024-01-02T00:00:00+00:00"},
    ]  # fmt: skip
    import_jsonl(memory, io.StringIO("\n".join(json.dumps(d) for d in dump) + "\n"), scope=scope)

    assert value not in held(memory, scope)
    assert len(memory.backend.episodes(scope)) == 2  # the turns are kept, redacted
