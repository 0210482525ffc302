"""Storage of the gamesmaster's record: SQLAlchemy 2 with Alembic migrations.

SQLite (WAL) in a file under the data directory by default, PostgreSQL by URL
(GAMESMASTER_DATABASE_URL or --db). Nothing here knows the rules of the game.
"""

from .db import Conflict, Connection, Store, StoreError, data_dir, default_url
from .repo import Records

__all__ = ["Conflict", "Connection", "Store", "StoreError", "Records", "data_dir", "default_url"]
