"""Playing together online: table chat, turn clocks and ratings.

Revision ID: 0004
Revises: 0003
A room keeps its chat (both channels, in order), its clock (``clock``: none, relaxed,
normal or fast; ``clock_state``: each asked seat's deadline, reserve and timeouts, so a
restart keeps the clocks), and whether it is rated. A rating per game and player key
(stored as its SHA-256, never the key itself).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the chat and ratings tables and the rooms' clock and rated columns."""
    op.create_table(
        "chat",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.add_column("rooms", sa.Column("clock", sa.String(16), nullable=True))
    op.add_column("rooms", sa.Column("clock_state", sa.JSON, nullable=True))
    op.add_column("rooms", sa.Column("rated", sa.Boolean, nullable=True))


def downgrade() -> None:
    """Drop them."""
    op.drop_column("rooms", "rated")
    op.drop_column("rooms", "clock_state")
    op.drop_column("rooms", "clock")
    op.drop_table("ratings")
    op.drop_table("chat")
