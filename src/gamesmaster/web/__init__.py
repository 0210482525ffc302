"""The website: the map drawing (mapsvg) and, later, the pages players use."""
