"""Reading chat turns the way the loader does, for the extraction tests: one extractor over
the turns in order, so each turn is read with the memory of those before it."""

from __future__ import annotations

from graphmem.extraction.rules import RuleExtractor
from graphmem.model import Episode


def read_turns(*turns: tuple[str, str]) -> list[set[tuple]]:
    """Each turn's facts as ``(op, subject, predicate, object, valid_from day)``."""
    extractor, out = RuleExtractor(), []
    for n, (when, text) in enumerate(turns):
        episode = Episode(scope="s", session="a", turn=n, speaker="Maya", role="user",
                          text=text, timestamp=when)  # fmt: skip
        out.append({
            (f.op, f.subject, f.predicate, f.object, f.valid_from.date().isoformat())
            for f in extractor.extract(episode)
        })  # fmt: skip
    return out
