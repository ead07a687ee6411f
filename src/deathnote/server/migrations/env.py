"""Alembic's environment: migrate on the connection ``Storage`` hands over.

Run by ``deathnote.server.storage.migrate``; the ``alembic`` command line is not needed.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations through deathnote.server.storage.migrate")
context.configure(connection=connection)
with context.begin_transaction():
    context.run_migrations()
