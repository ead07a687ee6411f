"""Each room keeps the version of the random generator its match draws with.

Revision ID: 0003
Revises: 0002
Record format 2 names the generator's version (``rng_version``), so a room can be
restored only under the draws it was played with. Rooms stored before this revision get
none (NULL) and are refused rather than replayed under draws that may differ.
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
