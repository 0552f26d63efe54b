"""Text in pictures: how wide a label is in pixels, and how to shorten it to a width.

The timeline pictures place every label in free space before drawing it, so they need
its size as matplotlib will draw it (Agg's font metrics, the same ones the SVG and PDF
backends use for text drawn as paths).

>>> width, height = text_size("Berlin", 9, dpi=100)
>>> 25 < width < 45 and 8 < height < 16
True
>>> fit("Deutsche Bahn Regio", 9, 60, dpi=100)
'Deutsc…'
>>> fit("BBC", 9, 60, dpi=100)
'BBC'
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["Box", "fit", "text_size"]

ELLIPSIS = "…"


@lru_cache(maxsize=4096)
def text_size(text: str, fontsize: float, *, dpi: float) -> tuple[float, float]:
    """Width and height in pixels of ``text`` set in the default font at ``fontsize``
    points (mathtext off: a stored "$5" is text)."""
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    renderer = _renderer(dpi)
    assert isinstance(renderer, RendererAgg)
    width, height, _ = renderer.get_text_width_height_descent(
        text, FontProperties(size=fontsize), ismath=False
    )
    return float(width), float(height)


@lru_cache(maxsize=8)
def _renderer(dpi: float):
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(10, 10, dpi)


def fit(text: str, fontsize: float, width: float, *, dpi: float, shortest: int = 2) -> str | None:
    """``text`` itself if it fits in ``width`` pixels, else its longest prefix that fits
    with an ellipsis (at least ``shortest`` characters kept), else None."""
    if text_size(text, fontsize, dpi=dpi)[0] <= width:
        return text
    for keep in range(len(text) - 1, shortest - 1, -1):
        candidate = text[:keep].rstrip() + ELLIPSIS
        if text_size(candidate, fontsize, dpi=dpi)[0] <= width:
            return candidate
    return None


class Box:
    """An axis-aligned rectangle in pixels, for collision checks.

    >>> Box(0, 0, 10, 10).overlaps(Box(5, 5, 15, 15)), Box(0, 0, 10, 10).overlaps(Box(10, 0, 20, 10))
    (True, False)
    """

    __slots__ = ("x0", "y0", "x1", "y1")

    def __init__(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1

    def overlaps(self, other: Box) -> bool:
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def inside(self, other: Box) -> bool:
        return (self.x0 >= other.x0 and self.x1 <= other.x1 and self.y0 >= other.y0
                and self.y1 <= other.y1)  # fmt: skip

    def __repr__(self) -> str:
        return f"Box({self.x0:.1f}, {self.y0:.1f}, {self.x1:.1f}, {self.y1:.1f})"
