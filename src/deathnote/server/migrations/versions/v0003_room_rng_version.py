"""Each room keeps the version of the random generator its match draws with.

Revision ID: 0003
Revises: 0002
Record format 2 names the generator's version (``rng_version``); rooms stored before this
revision were stored in record format 1 (or earlier) and get NULL, which a format-1 record
reads as version 1, the only one there was.
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
