"""Fixtures of the server tests: an app on a temporary SQLite file and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deathnote.engine import delta
from deathnote.server.app import create_app
from deathnote.server.config import Limits

#: The tests' app: the default limits, except the rates (tests send faster than people).
TEST_LIMITS = Limits(
    room_rate="10000/minute",
    room_read_rate="10000/minute",
    connect_rate="10000/minute",
    messages_per_second=10_000,
)

MAX_MESSAGES = 200  # bound on messages read while waiting for one


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    """An app storing its rooms in a fresh SQLite file; bots move without delay."""
    return create_app(
        str(tmp_path / "rooms.db"), bot_delay=0.0, idle_seconds=0.3, limits=TEST_LIMITS
    )


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """The test client (runs the app's start-up and shutdown)."""
    with TestClient(app) as test_client:
        yield test_client


def new_room(client: TestClient, game: str = "confrontation", **body: Any) -> dict[str, Any]:
    """Create a room (two people by default for Confrontation) and return the answer."""
    response = client.post("/api/rooms", json={"game": game, **body})
    assert response.status_code == 201, response.text
    return response.json()


def ws_path(link: str) -> str:
    """The WebSocket path of an invite link."""
    return link.replace("/play/", "/ws/").replace("/room/", "/ws/")


_LOGS: dict[int, tuple[int, list[Any], Any]] = {}


def with_whole_log(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """A view message with its log and state completed as the browser does: a later view
    of a connection holds only the entries after the step of the one before (``since``),
    and a patch of that view's state (``engine.delta``) where it has no whole state."""
    if message.get("type") != "view":
        return message
    log = message["view"]["log"]
    if message["since"] is not None:
        step, before, state = _LOGS[id(ws)]
        assert message["since"] == step, "a view skipped a step of the log"
        log = before + log
        message["view"] = {k: v for k, v in message["view"].items() if k != "since"}
        message["view"]["log"] = log
        if "patch" in message["view"]:
            message["view"]["state"] = delta.patch(state, message["view"].pop("patch"))
    else:
        assert "patch" not in message["view"], "a first view must hold the whole state"
    _LOGS[id(ws)] = (message["step"], log, delta.patch(message["view"]["state"], []))
    return message


def receive(ws: Any, kind: str, where: Any = None) -> dict[str, Any]:
    """Read messages until one of this type (and matching ``where``) arrives; bounded.
    View messages come with their whole log (see ``with_whole_log``)."""
    for _ in range(MAX_MESSAGES):
        message = with_whole_log(ws, ws.receive_json())
        if message["type"] == kind and (where is None or where(message)):
            return message
    raise AssertionError(f"no {kind!r} message within {MAX_MESSAGES} messages")


def acknowledged(ws: Any) -> dict[str, Any]:
    """The answer to this connection's action: its view that says ``accepted`` (the step
    the action was stored as); bounded."""
    return receive(ws, "view", lambda m: m.get("accepted") is not None)


def view_at(ws: Any, step: int) -> dict[str, Any]:
    """The first view message at or after this step."""
    return receive(ws, "view", lambda m: m["step"] >= step)


def first_legal(message: dict[str, Any], avoid: tuple[str, ...] = ("accuse",)) -> dict[str, Any]:
    """A legal action of a view message (without its label), preferring to keep playing."""
    legal = message["view"]["legal"]
    choice = next((a for a in legal if a["kind"] not in avoid), legal[0])
    return {k: v for k, v in choice.items() if k != "label"}
