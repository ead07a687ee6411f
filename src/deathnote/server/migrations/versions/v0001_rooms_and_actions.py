"""The rooms and actions tables as the first server stored them.

Revision ID: 0001
Revises:
A database created before the migrations existed already has both tables: they are kept.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables where they do not exist yet."""
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "rooms" not in existing:
        op.create_table(
            "rooms",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(32), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("seed", sa.Integer, nullable=False),
            sa.Column("seats", sa.JSON, nullable=False),
            sa.Column("creator_token", sa.String(64), nullable=False),
            sa.Column("spectator_token", sa.String(64), nullable=False),
            sa.Column("created", sa.Float, nullable=False),
            sa.Column("finished", sa.Boolean, nullable=False),
            sa.Column("rematch_of", sa.String(32), nullable=True),
            sa.Column("rematch", sa.String(32), nullable=True),
        )
    if "actions" not in existing:
        op.create_table(
            "actions",
            sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
            sa.Column("step", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action", sa.JSON, nullable=False),
        )


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("actions")
    op.drop_table("rooms")
