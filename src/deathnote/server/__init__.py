"""The web app: rooms, seats by invite link, bots, storage (see ``deathnote serve``)."""

from deathnote.server.app import create_app

__all__ = ["create_app"]
