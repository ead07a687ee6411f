"""The web app behind ``deathnote serve``: rooms, invite links, bots, storage.

Modules by concern:

- ``app``: the FastAPI application: pages, the JSON API, the play WebSocket.
- ``protocol``: the WebSocket messages (typed by ``type``, one handler each).
- ``rooms``: a room is one Match with its seats (people by secret token, or bots), its
  live connections and its presence; the ``RoomManager`` creates, restores and stores them.
- ``storage``: SQLAlchemy 2 tables (rooms, actions); a SQLite file or PostgreSQL.
- ``loadtest``: ``deathnote loadtest``, a bounded load test against a real server.
- ``names``, ``chat``, ``clock``, ``ratings``, ``schema``: playing together online
  (issue 17): nicknames on seat links, the table chat, turn clocks, ratings per game and the
  JSON Schema of the open bot protocol (``docs/protocol.md``).

The server is the only authority: every action goes through ``Match.submit``, is stored,
and only then does any connection hear of it, each receiving ``Match.view`` of its own
seat (or the spectator's). A room is stored as its set-up plus its accepted actions and
rebuilt by replaying them, so a restart brings every room back exactly where it was.
"""

from deathnote.server.app import create_app

__all__ = ["create_app"]
