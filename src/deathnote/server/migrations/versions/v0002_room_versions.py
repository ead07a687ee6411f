"""Each room keeps its rules version, content digest and record format; seed and expiry facts.

Revision ID: 0002
Revises: 0001
Rooms stored before this revision get no version (NULL): the server refuses to restore
them rather than guess they were played under today's rules. They count as opened, so
they never expire as unopened rooms.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the five columns."""
    op.add_column("rooms", sa.Column("rules_version", sa.String(32), nullable=True))
    op.add_column("rooms", sa.Column("content_digest", sa.String(64), nullable=True))
    op.add_column("rooms", sa.Column("record_format", sa.Integer, nullable=True))
    op.add_column(
        "rooms",
        sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "rooms", sa.Column("opened", sa.Boolean, nullable=False, server_default=sa.true())
    )


def downgrade() -> None:
    """Drop the five columns."""
    for name in ("opened", "seed_chosen", "record_format", "content_digest", "rules_version"):
        op.drop_column("rooms", name)
