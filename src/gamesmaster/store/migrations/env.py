"""Alembic environment: run with a connection handed over by gamesmaster.store.Store.migrate."""

from alembic import context
from sqlalchemy import create_engine

from gamesmaster.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # run by the alembic command itself: -x url=...
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database as: alembic -x url=sqlite:///games.db upgrade head")
    with create_engine(url).begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    context.run_migrations()
