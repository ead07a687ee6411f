"""The error types every front end catches."""

from __future__ import annotations


class DeathNoteError(ValueError):
    """Base of every error this package raises on purpose; the message is for a person."""


class IllegalAction(DeathNoteError):
    """A submitted action was rejected: not your turn, not legal now, or malformed.

    The match is left exactly as it was.
    """


class ContentError(DeathNoteError):
    """A content file (map, deck, roles) is broken; the message names the file and field."""


class OptionsError(DeathNoteError):
    """Game options are unknown or out of range."""


class ReplayError(DeathNoteError):
    """A match record does not replay; the message names the step."""
