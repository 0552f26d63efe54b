"""graphmem's Neo4j schema (``*.cypher``, applied in name order) and Browser style."""
