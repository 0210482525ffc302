"""gamesmaster: runs games of Diplomacy the way a good neutral gamesmaster does."""

__version__ = "0.1.0"
