"""``graphmem view``: a page for looking at a scope's graph through time.

The page (``static/``: hand-written HTML, CSS and vanilla JavaScript drawing SVG;
nothing is fetched from the network) is served by the same FastAPI service as
``graphmem serve`` at ``/view/``, and reads three JSON endpoints of it (``routes.py``),
each a thin reading of the ``Memory`` facade (``data.py``):

- ``GET /graph/overview?scope=``: the scope's time range, its change points on both axes
  and every pair of nodes a fact ever joined (for a layout that stays put);
- ``GET /graph?scope=&as_of=&known_at=``: the graph at one valid instant as believed
  at one transaction instant, with the facts no longer believed by then marked;
- ``GET /graph/entity?scope=&name=&known_at=``: one entity's timeline and every row
  ever recorded about it (the bitemporal rectangles).
"""
