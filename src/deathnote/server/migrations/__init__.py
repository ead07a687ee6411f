"""Alembic migrations of the rooms database, run by ``Storage`` when it opens."""
