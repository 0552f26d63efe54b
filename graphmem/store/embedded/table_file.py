"""Named arrays saved together beside the database, read back mapped.

A search table (its time columns and its keyword index) is saved as one ``.npy`` file
per array plus a ``<prefix>.json`` naming them, their metadata and a *generation*
token: the caller keeps the token in the store's stamp, so files from another save
(a crash between two renames, a copy from elsewhere) are never mistaken for these.
Arrays come back memory-mapped (read-only): opening costs nothing, the pages a query
touches are the operating system's to keep or drop.

Saving writes new files and renames them over the old. After an erasure
``scrub_old`` first overwrites the old files with zeros, so erased words and
positions do not outlive them on disk.

>>> import tempfile, os, numpy as np
>>> prefix = os.path.join(tempfile.mkdtemp(), "t")
>>> token = save(prefix, {"size": 2}, {"a": np.arange(2)})
>>> meta, arrays = load(prefix, token)
>>> meta["size"], arrays["a"].tolist()
(2, [0, 1])
>>> load(prefix, "another") is None
True
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid

import numpy as np

from graphmem.store.embedded.vector_file import scrub


def _names(prefix: str) -> list[str]:
    """The files of the save at ``prefix`` (its json last), as that json lists them."""
    try:
        with open(prefix + ".json") as fh:
            listed = json.load(fh).get("arrays", [])
    except (OSError, ValueError, AttributeError):
        listed = []
    return [f"{prefix}.{name}.npy" for name in listed if isinstance(name, str)] + [prefix + ".json"]


def save(prefix: str, meta: dict, arrays: dict[str, np.ndarray], *, scrub_old: bool = False) -> str:
    """Write ``arrays`` and ``meta``; return the new generation token."""
    generation = uuid.uuid4().hex
    written = []
    for name, array in arrays.items():
        target = f"{prefix}.{name}.npy"
        with open(target + ".tmp", "wb") as fh:
            np.save(fh, np.ascontiguousarray(array))
        written.append(target)
    with open(prefix + ".json.tmp", "w") as fh:
        json.dump({**meta, "generation": generation, "arrays": sorted(arrays)}, fh)
    written.append(prefix + ".json")
    if scrub_old:
        for name in _names(prefix):
            scrub(name)
    for target in written:
        os.replace(target + ".tmp", target)
    return generation


def load(prefix: str, generation: str) -> tuple[dict, dict[str, np.ndarray]] | None:
    """The save of that generation, or None (missing, unreadable or another save)."""
    try:
        with open(prefix + ".json") as fh:
            meta = json.load(fh)
        if not isinstance(meta, dict) or meta.get("generation") != generation:
            return None
        arrays = {
            name: np.load(f"{prefix}.{name}.npy", mmap_mode="r").view(np.ndarray)
            for name in meta["arrays"]
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return meta, arrays


def delete(prefix: str) -> None:
    """Overwrite the save's files with zeros and remove them (missing ones are fine)."""
    for name in _names(prefix):
        scrub(name)
    for name in (prefix + ".json.tmp",):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
