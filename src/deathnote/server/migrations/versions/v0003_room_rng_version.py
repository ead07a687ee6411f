"""Each room keeps the version of the random generator its deal was drawn with.

Revision ID: 0003
Revises: 0002
Record format 2 names the generator (``rng_version``): the same seed under another
generator deals other cards. Rooms stored before this revision get NULL and are stored in
format 1, which replays with generator version 1.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column."""
    op.add_column("rooms", sa.Column("rng_version", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop the column."""
    op.drop_column("rooms", "rng_version")
