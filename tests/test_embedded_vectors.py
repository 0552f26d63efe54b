"""The embedded store's vectors persist beside its database file, and SQLite stays the truth.

A reopened store reads its vectors from ``<db>.vectors.*`` (mapped float32 at rowid
positions) and its ANN index from where it was saved, instead of re-reading every
vector and rebuilding the index; a crash between SQLite's commit and the files, files
from another database, a lost file or an erase the files missed are detected by the
stamp and repaired from SQLite; an erased vector is gone from the files too.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from graphmem import Memory
from graphmem.model import text_owner
from graphmem.store.embedded import vector_index
from graphmem.store.embedded.vector_index import VectorIndex

S = "s"


def vector_files(path) -> list:
    return sorted(p for p in path.parent.iterdir() if p.name.startswith(path.name + ".vectors."))


def blob_of(mem: Memory, text: str) -> bytes:
    found = mem.backend._db.execute(
        "SELECT vector FROM embeddings WHERE owner_id=?", (text_owner(S, text),)
    ).fetchone()
    return found[0]


def position_of(mem: Memory, text: str) -> int:
    return mem.backend._db.execute("SELECT rowid FROM rows WHERE text=?", (text,)).fetchone()[0]


def file_vector(mem: Memory, text: str) -> bytes | None:
    vector = mem.backend._vectors["facts"].vector(position_of(mem, text))
    return None if vector is None else vector.tobytes()


def test_a_reopened_store_takes_its_vectors_from_the_files_and_searches_alike(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Alice", "lives_in", "Berlin", scope=S)
    mem.remember("Bob", "works_at", "Acme", scope=S)
    before = [h.text for h in mem.search("where does Alice live", scope=S).hits]
    mem.close()
    assert vector_files(path), "the vectors are written beside the database"

    mem = Memory.open(path)
    backend = mem.backend
    assert backend._vectors_seen == int(backend._meta("change")), "nothing left to catch up"
    assert file_vector(mem, "Alice lives in Berlin") == blob_of(mem, "Alice lives in Berlin")
    assert [h.text for h in mem.search("where does Alice live", scope=S).hits] == before
    mem.close()


def test_a_crash_between_the_commit_and_the_vector_files_is_caught_up_from_sqlite(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Alice", "lives_in", "Berlin", scope=S)
    mem.close()
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in vector_files(path):
        shutil.copy(f, saved / f.name)
    mem = Memory.open(path)
    mem.remember("Carol", "owns_pet", "Rex", scope=S)
    mem.close()
    for f in saved.iterdir():  # the files as they were before Carol's write reached them
        shutil.copy(f, tmp_path / f.name)

    mem = Memory.open(path)
    assert file_vector(mem, "Carol has a pet Rex") == blob_of(mem, "Carol has a pet Rex")
    assert "Carol has a pet Rex" in [h.text for h in mem.search("Carol's pet", scope=S).hits]
    mem.close()


@pytest.mark.parametrize("damage", ["another database's files", "a lost file", "no stamp"])
def test_vector_files_that_disagree_with_the_database_are_rebuilt_from_it(tmp_path, damage):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Alice", "lives_in", "Berlin", scope=S)
    mem.remember("Bob", "works_at", "Acme", scope=S)
    mem.close()
    if damage == "another database's files":
        other = tmp_path / "other.db"
        mem = Memory.open(other)
        mem.remember("Zed", "hobby", "chess", scope=S)
        mem.close()
        for f in vector_files(path):
            f.unlink()
        for f in vector_files(other):
            shutil.copy(f, tmp_path / f.name.replace("other.db", "m.db"))
    elif damage == "a lost file":
        next(f for f in vector_files(path) if f.name.endswith("facts.has")).unlink()
    else:
        next(f for f in vector_files(path) if f.name.endswith("stamp.json")).unlink()

    mem = Memory.open(path)
    for text in ("Alice lives in Berlin", "Bob works at Acme"):
        assert file_vector(mem, text) == blob_of(mem, text)
    assert mem.search("Bob's employer", scope=S).facts[0].text == "Bob works at Acme"
    mem.close()


def test_an_erased_vector_is_gone_from_the_vector_files(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Zorblatt", "lives_in", "Quux", scope=S)
    mem.remember("Bob", "lives_in", "Oslo", scope=S)
    erased = blob_of(mem, "Zorblatt lives in Quux")
    kept = blob_of(mem, "Bob lives in Oslo")
    mem.close()
    mem = Memory.open(path)
    mem.erase("Zorblatt", scope=S)
    mem.close()
    data = b"".join(f.read_bytes() for f in vector_files(path))
    assert erased not in data
    assert kept in data


def test_an_erase_the_vector_files_missed_is_scrubbed_from_them_at_the_next_open(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Zorblatt", "lives_in", "Quux", scope=S)
    mem.remember("Bob", "lives_in", "Oslo", scope=S)
    erased = blob_of(mem, "Zorblatt lives in Quux")
    mem.close()
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in vector_files(path):
        shutil.copy(f, saved / f.name)
    mem = Memory.open(path)
    mem.erase("Zorblatt", scope=S)
    mem.close()
    for f in saved.iterdir():  # a crash after SQLite's commit, before the files were scrubbed
        shutil.copy(f, tmp_path / f.name)
    assert erased in b"".join(f.read_bytes() for f in vector_files(path))

    mem = Memory.open(path)
    assert erased not in b"".join(f.read_bytes() for f in vector_files(path))
    assert file_vector(mem, "Bob lives in Oslo") == blob_of(mem, "Bob lives in Oslo")
    mem.close()


def test_a_second_process_on_the_file_keeps_its_vectors_in_memory_and_sees_the_writes(tmp_path):
    path = tmp_path / "m.db"
    first = Memory.open(path)
    second = Memory.open(path)
    assert first.backend._sidecar.owned and not second.backend._sidecar.owned
    first.remember("Alice", "lives_in", "Berlin", scope=S)
    assert second.search("where does Alice live", scope=S).facts[0].text == "Alice lives in Berlin"
    second.close()
    first.close()


def test_a_store_in_memory_writes_no_vector_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mem = Memory.open(":memory:")
    mem.remember("Alice", "lives_in", "Berlin", scope=S)
    assert mem.search("where does Alice live", scope=S).facts
    mem.close()
    assert list(tmp_path.iterdir()) == []


# -- the vector index and its saved ANN index -----------------------------------------------------


def clustered(n: int, dims: int = 32, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((20, dims))
    v = centres[rng.integers(0, 20, n)] + 0.3 * rng.standard_normal((n, dims))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def exact_top(vectors: np.ndarray, q: np.ndarray, allowed: np.ndarray, k: int) -> set[int]:
    positions = np.flatnonzero(allowed)
    scores = vectors[positions] @ q
    return set(positions[np.argsort(-scores)[:k]].tolist())


def test_the_ann_index_is_saved_and_reopened_and_grows_by_what_is_new(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "EXACT_LIMIT", 10)  # the ANN index answers from 10 allowed
    base = str(tmp_path / "t")
    vectors = clustered(2_000)
    index = VectorIndex(32, ann_min_size=100, path=base)
    index.add(list(range(1_900)), vectors[:1_900])
    index.build()
    index.persist(with_ann=True)

    again = VectorIndex(32, ann_min_size=100, path=base)
    again.add(list(range(1_900, 2_000)), vectors[1_900:])
    allowed = np.random.default_rng(2).random(2_000) < 0.5
    recall = []
    for q in clustered(50, seed=3):
        found = {p for p, _ in again.search(q, 10, allowed)}
        assert all(allowed[p] for p in found)
        recall.append(len(found & exact_top(vectors, q, allowed, 10)) / 10)
    assert len(again._ann) == 2_000, "loaded (1,900 entries) and grown by the 100 new"
    assert np.mean(recall) >= 0.95


def test_an_erased_position_leaves_no_code_in_the_saved_index(tmp_path, monkeypatch):
    import faiss

    monkeypatch.setattr(vector_index, "EXACT_LIMIT", 10)
    base = str(tmp_path / "t")
    vectors = clustered(500)
    index = VectorIndex(32, ann_min_size=100, path=base)
    index.add(list(range(500)), vectors)
    index.build()
    index.persist(with_ann=True)
    ivf = index._ann.index
    cell = int(ivf.quantizer.search(vectors[7:8], 1)[1][0][0])
    lists = ivf.invlists
    ids = faiss.rev_swig_ptr(lists.get_ids(cell), lists.list_size(cell))
    codes = faiss.rev_swig_ptr(lists.get_codes(cell), lists.list_size(cell) * lists.code_size)
    at = int(np.flatnonzero(ids == 7)[0])
    erased = codes[at * lists.code_size : (at + 1) * lists.code_size].tobytes()
    assert erased in (tmp_path / "t.ann.faiss").read_bytes()

    index.remove([7])
    index.persist()
    assert erased not in (tmp_path / "t.ann.faiss").read_bytes()
    assert vectors[7].tobytes() not in (tmp_path / "t.f32").read_bytes()
    reopened = VectorIndex(32, ann_min_size=100, path=base)
    assert 7 not in {p for p, _ in reopened.search(vectors[7], 10)}


def test_an_index_grown_fourfold_is_rebuilt_with_cells_for_its_size(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "EXACT_LIMIT", 10)
    vectors = clustered(8_000)
    index = VectorIndex(32, ann_min_size=100, path=str(tmp_path / "t"))
    index.add(list(range(1_000)), vectors[:1_000])
    index.build()
    first = index._ann.cells
    index.add(list(range(1_000, 2_000)), vectors[1_000:2_000])
    index.build()
    assert index._ann.cells == first, "twice the size: new vectors are filed in the old cells"
    index.add(list(range(2_000, 8_000)), vectors[2_000:])
    index.build()
    assert index._ann.cells > first and len(index._ann) == 8_000
    q = clustered(1, seed=9)[0]
    found = {
        p for p, _ in index.search(q, 10, np.ones(8_000, dtype=bool) & (np.arange(8_000) % 2 == 0))
    }
    assert found and all(p % 2 == 0 for p in found)


def test_an_hnsw_graph_saved_by_an_older_version_is_replaced_by_an_index(tmp_path, monkeypatch):
    import faiss

    monkeypatch.setattr(vector_index, "EXACT_LIMIT", 10)
    base = str(tmp_path / "t")
    vectors = clustered(500)
    old = faiss.IndexHNSWFlat(32, 16, faiss.METRIC_INNER_PRODUCT)
    old.add(vectors)
    faiss.write_index(old, base + ".ann.faiss")
    (tmp_path / "t.ann.labels").write_bytes(np.arange(500, dtype=np.int64).tobytes())
    index = VectorIndex(32, ann_min_size=100, path=base)
    index.add(list(range(500)), vectors)
    assert 3 in {p for p, _ in index.search(vectors[3], 5, np.ones(500, dtype=bool))}
    index.persist(with_ann=True)
    assert isinstance(faiss.read_index(base + ".ann.faiss"), faiss.IndexIVFScalarQuantizer)


def test_an_erase_by_another_process_is_scrubbed_from_the_owners_vector_files(tmp_path):
    path = tmp_path / "m.db"
    owner = Memory.open(path)
    other = Memory.open(path)
    owner.remember("Zorblatt", "lives_in", "Quux", scope=S)
    owner.remember("Bob", "lives_in", "Oslo", scope=S)
    erased = blob_of(owner, "Zorblatt lives in Quux")
    assert erased in b"".join(f.read_bytes() for f in vector_files(path))

    other.erase("Zorblatt", scope=S)  # the other process does not own the files
    assert owner.search("where does Bob live", scope=S).facts[0].text == "Bob lives in Oslo"
    assert erased not in b"".join(f.read_bytes() for f in vector_files(path))
    assert file_vector(owner, "Bob lives in Oslo") == blob_of(owner, "Bob lives in Oslo")
    other.close()
    owner.close()


def test_a_large_index_build_is_saved_at_once_without_waiting_for_close(tmp_path):
    base = str(tmp_path / "t")
    index = VectorIndex(32, ann_min_size=100, path=base)
    index.add(list(range(1_500)), clustered(1_500))
    index.build()  # never persisted, as if the process ended here
    again = VectorIndex(32, ann_min_size=100, path=base)
    assert again._load_index() is not None and len(again._ann) == 1_500
