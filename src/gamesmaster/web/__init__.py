"""The website: pages, war rooms, the GM console, the JSON API and the live table."""
