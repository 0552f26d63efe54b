"""The vector files beside an embedded store: who may use them, and whether they say
the truth.

SQLite holds the truth; the ``<db>.vectors.*`` files beside it are a cache of it (each search table's
vectors at their rows' rowids, and the saved ANN index) that spares a reopened store
re-reading every vector and rebuilding that index. Its ``stamp.json`` names the change
counter up to which the files are complete, the erase epoch they reflect, a token
shared with the database's ``meta`` table (so another database at the same path is not
mistaken for this one) and, per table, how many vectors the files hold. A stamp that
disagrees with the database (missing, from another file, from before an erase, ahead
of the database, or counting other vectors than the files hold) means the files are
scrubbed and rebuilt from SQLite; one that is merely behind (a crash between SQLite's
commit and the stamp) means catching up from its change counter.

One process at a time uses the files (an exclusive ``flock``); another process on the
same file keeps its vectors in memory, as without the files.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> side = Sidecar(os.path.join(folder, "m.db"))
>>> side.owned, side.read_stamp()
(True, None)
>>> side.write_stamp({"change": 3}); side.read_stamp()["change"]
3
>>> side.close()
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os

STAMP_VERSION = 1


class Sidecar:
    def __init__(self, location: str):
        self.prefix = location + ".vectors."
        self.owned = False
        self._lock = None
        if location in ("", ":memory:") or location.startswith("file:"):
            return  # a database in memory (or a URI): its vectors stay in memory too
        try:
            lock = open(self.prefix + "lock", "a+b")  # noqa: SIM115 (held while open)
        except OSError:
            return  # a read-only place: vectors stay in memory
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return
        self._lock, self.owned = lock, True

    def base(self, target: str) -> str:
        """Where a search table's files live (``<base>.f32``, ``<base>.ann.faiss`` ...)."""
        return self.prefix + target

    def read_stamp(self) -> dict | None:
        try:
            with open(self.prefix + "stamp.json") as fh:
                stamp = json.load(fh)
        except (OSError, ValueError):
            return None
        if not isinstance(stamp, dict) or stamp.get("version") != STAMP_VERSION:
            return None
        return stamp

    def write_stamp(self, stamp: dict, *, sync: bool = False) -> None:
        """Replace the stamp atomically (written to a new file, renamed over the old)."""
        name = self.prefix + "stamp.json"
        with open(name + ".tmp", "w") as fh:
            json.dump({**stamp, "version": STAMP_VERSION}, fh)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(name + ".tmp", name)

    def drop_stamp(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.prefix + "stamp.json")

    def files(self) -> list[str]:
        """Every file of the cache but the lock."""
        folder, stem = os.path.split(self.prefix)
        return sorted(
            os.path.join(folder, name)
            for name in os.listdir(folder or ".")
            if name.startswith(stem) and name != stem + "lock"
        )

    def close(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_UN)
            self._lock.close()
            self._lock, self.owned = None, False
