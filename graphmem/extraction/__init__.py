"""Extraction: conversation turns in, candidate facts out.

:mod:`~graphmem.extraction.rules` is the default extractor (start reading there);
:mod:`~graphmem.extraction.llm` asks a language model instead; and
:mod:`~graphmem.extraction.secrets` finds what must never be stored. The rule-based
extractor's other modules follow its pipeline: ``clauses`` and ``guards`` (what to
read), the ``facts_*`` modules (the rules, by family of facts), ``turn``, ``objects``
and ``timing`` (subject, object and interval of each fact), ``corrections``; ``lexicon``
and ``patterns`` are the vocabulary the rules are written in.
"""
