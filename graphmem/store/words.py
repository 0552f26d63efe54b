"""The words of keyword search: what a text is indexed as and a query asks for, the same
on both backends' keyword indexes and for the names a question mentions.

Tokens: lower-cased words and numbers; possessive ``'s`` dropped ("Alice's" -> alice);
stop words dropped; a light suffix fold ("moved"/"move"/"moving", "cats"/"cat",
"running"/"run", "studies"/"study", "glasses"/"glass").

>>> tokenize("Alice's cats moved") == tokenize("alice cat moving")
True
"""

from __future__ import annotations

import functools
import re

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "i'm", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "about", "can", "could", "should", "just", "than", "too", "very", "also", "any", "some", "all", "i've", "i'd", "i'll", "you're", "you've", "it's", "that's", "there's", "don't", "didn't", "doesn't", "not", "no", "if", "being", "am", "here", "more", "most", "much", "many", "other", "such", "only", "own", "same", "each", "both", "again", "once", "us", "let's"]
)  # fmt: skip


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without stop words, with a light plural/verb suffix fold."""
    out = []
    for token in _TOKEN.findall(text.lower()):
        if token.endswith("'s"):
            token = token[:-2]
        if token in STOPWORDS:
            continue
        out.append(_fold(token))
    return out


@functools.lru_cache(maxsize=200_000)
def _fold(token: str) -> str:
    # A tiny stemmer: enough to match "moved"/"move"/"moving", "cats"/"cat",
    # "running"/"run", "studies"/"study".
    if len(token) <= 3 or token.isdigit():
        return token
    stem = token
    for suffix, keep in (("ing", 4), ("ies", 3), ("ed", 4), ("es", 4), ("s", 3)):
        if token.endswith(suffix) and len(token) - len(suffix) >= keep - 1:
            if suffix == "s" and token.endswith(("ss", "us", "is")):
                break  # "glass", "status", "tennis" are not plurals
            stem = token[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeioulsz":
        stem = stem[:-1]  # "runn" -> "run", "shopp" -> "shop"
    if len(stem) > 3 and stem.endswith("e"):
        stem = stem[:-1]  # "move" and "moved" both -> "mov"
    return stem
