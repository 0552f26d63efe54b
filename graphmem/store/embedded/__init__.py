"""The embedded default backend, with the search indexes it owns.

- ``backend``: ``EmbeddedBackend``, SQLite for the truth and a networkx graph in memory;
- ``search_table``: the searchable entries (fact rows, turns) with their time columns,
  masked by ``TemporalBounds`` before ranking;
- ``vector_index``, ``keyword_index``: the vector and BM25 indexes the table drives.
"""

from graphmem.store.embedded.backend import EmbeddedBackend

__all__ = ["EmbeddedBackend"]
