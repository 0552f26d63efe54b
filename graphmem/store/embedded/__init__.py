"""The embedded default backend, with the search indexes it owns.

- ``backend``: ``EmbeddedBackend``, SQLite for the truth, reads served through its indexes;
- ``search_table``: the searchable entries (fact rows, turns) with their time columns,
  masked by ``TemporalBounds`` before ranking, saved beside the database (``table_file``);
- ``vector_index``, ``keyword_index``: the vector and BM25 indexes the table drives;
- ``sidecar``, ``vector_file``, ``ann``: the files beside the database and their stamp.
"""

from graphmem.store.embedded.backend import EmbeddedBackend

__all__ = ["EmbeddedBackend"]
