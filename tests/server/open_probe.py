"""Run by test_security in a child process: post every path-like option of one game to a
fresh app, with an audit hook watching the paths, and print what was opened or quoted.

The audit hook lives in this child alone: once installed a hook cannot be removed, and in
the test worker it would run on every ``id()`` call of every later test.

    python -m tests.server.open_probe GAME FOLDER
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import orjson

OS_ERROR_WORDS = ("Errno", "No such file", "Is a directory", "Expecting value", "Permission")
#: Option names that could be read as a file by some game, plus each game's schema fields.
PATHLIKE_OPTIONS = ("deck", "decks", "content", "content_path", "path", "file", "map", "roles")


def probe(game: str, folder: Path) -> dict[str, Any]:
    """Post each option name with each watched path; return what was opened or quoted."""
    from fastapi.testclient import TestClient

    from deathnote.engine.options import schema
    from deathnote.engine.registry import get_game
    from deathnote.server.app import create_app
    from tests.server.conftest import TEST_LIMITS

    secret = folder / "secret.json"
    secret.write_text('{"cards": [1, 2, 3]}')
    inner = folder / "folder"
    inner.mkdir()
    missing = folder / "missing.json"
    # A named pipe: opening it to read would block until a writer comes (it froze the
    # whole server when a TCG deck was read from a client's path).
    pipe = folder / "pipe"
    os.mkfifo(pipe)
    watched = {str(secret), str(inner), str(missing), str(pipe)}
    opened: list[str] = []

    def audit(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and args and str(args[0]) in watched:
            opened.append(str(args[0]))

    sys.addaudithook(audit)
    # The hook sees an open: one read of our own, then forgotten.
    secret.read_text()
    hook_works = opened == [str(secret)]
    opened.clear()
    names = sorted(set(PATHLIKE_OPTIONS) | set(schema(get_game(game)).get("properties", {})))
    quoted: list[list[str]] = []
    posts = 0
    app = create_app(str(folder / "rooms.db"), bot_delay=0.0, limits=TEST_LIMITS)
    with TestClient(app) as client:
        for name in names:
            for path in sorted(watched):
                for value in (path, [path, path]):
                    text = client.post(
                        "/api/rooms", json={"game": game, "options": {name: value}}
                    ).text
                    posts += 1
                    if any(words in text for words in OS_ERROR_WORDS):
                        quoted.append([name, text])
    return {
        "hook_works": hook_works,
        "opened": opened,
        "quoted": quoted,
        "posts": posts,
        "names": names,
    }


if __name__ == "__main__":
    sys.stdout.buffer.write(orjson.dumps(probe(sys.argv[1], Path(sys.argv[2]))))
