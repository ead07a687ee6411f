"""Issue 11 §2: a limit on everything a client can send, each with a safe default and a test."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed

from deathnote.cli.app import app as cli_app
from deathnote.engine.errors import DeathNoteError
from deathnote.server.app import create_app
from deathnote.server.config import FRAME_FACTOR, Limits
from tests.live_server import LiveServer
from tests.server.conftest import TEST_LIMITS, new_room, receive, view_at, ws_path
from tests.server.test_api import finish_by_accusation

ROOT = Path(__file__).resolve().parents[2]


def client_with(tmp_path: Path, **limits: Any) -> TestClient:
    """A test client of an app with these limits (the tests' rates otherwise)."""
    chosen = dataclasses.replace(TEST_LIMITS, **limits)
    return TestClient(create_app(str(tmp_path / "rooms.db"), limits=chosen))


def test_the_defaults_are_safe() -> None:
    limits = Limits()
    assert limits.max_body_bytes == 64 * 1024
    assert limits.max_options_bytes == 16 * 1024
    assert limits.max_message_bytes == 16 * 1024
    assert limits.room_rate == "20/minute"
    assert limits.max_live_rooms == 1000
    assert limits.unopened_room_seconds == 3600
    assert limits.connections_per_room == 32
    assert limits.messages_per_second == 20
    assert limits.allowed_origins == ()
    assert limits.max_nickname_chars == 24
    assert limits.max_chat_chars == 300
    assert limits.chat_rate == "12/minute"
    assert limits.spectator_chat_rate == "30/minute"
    assert limits.max_chat_messages == 2000
    assert limits.name_rate == "6/minute"
    assert limits.clock_timeouts == 3


@pytest.mark.parametrize(
    "bad",
    [
        {"max_body_bytes": 0},
        {"messages_per_second": 0},
        {"unopened_room_seconds": 0},
        {"room_rate": "lots"},
        {"room_rate": "0/minute"},
        {"max_nickname_chars": 0},
        {"max_chat_chars": 0},
        {"chat_rate": "often"},
        {"spectator_chat_rate": "0/minute"},
        {"max_chat_messages": 0},
        {"name_rate": "sometimes"},
        {"clock_timeouts": 0},
    ],
)
def test_a_bad_limit_is_refused_at_start(bad: dict[str, Any]) -> None:
    with pytest.raises(DeathNoteError):
        Limits(**bad)


def test_a_request_body_over_the_limit_is_refused(tmp_path: Path) -> None:
    with client_with(tmp_path, max_body_bytes=1000) as client:
        big = {"game": "confrontation", "options": {"x": "y" * 2000}}
        assert client.post("/api/rooms", json=big).status_code == 413

        def chunks() -> Iterator[bytes]:
            # No Content-Length: the body is counted as it streams in.
            yield b'{"game": "confrontation", "options": {"x": "'
            for _ in range(10):
                yield b"y" * 200
            yield b'"}}'

        streamed = client.post(
            "/api/rooms", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert streamed.status_code == 413
        assert client.post("/api/rooms", json={"game": "confrontation"}).status_code == 201


def test_options_over_the_limit_are_refused(tmp_path: Path) -> None:
    with client_with(tmp_path, max_options_bytes=100) as client:
        response = client.post(
            "/api/rooms", json={"game": "tcg", "options": {"decks": ["k" * 200, "l"]}}
        )
        assert response.status_code == 400
        assert "options are too long" in response.json()["error"]
        fine = client.post("/api/rooms", json={"game": "confrontation", "options": {"chapter": 2}})
        assert fine.status_code == 201


def test_a_message_over_the_limit_is_answered_and_the_socket_stays(tmp_path: Path) -> None:
    with client_with(tmp_path, max_message_bytes=200) as client:
        created = new_room(client)
        with client.websocket_connect(ws_path(created["links"]["seats"][1])) as ws:
            view_at(ws, 0)
            ws.send_text('{"type": "ping", "x": "' + "y" * 300 + '"}')
            assert "too long (at most 200 bytes)" in receive(ws, "error")["message"]
            ws.send_json({"type": "ping"})
            assert receive(ws, "pong")["type"] == "pong"


def test_room_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with client_with(tmp_path, room_rate="3/minute") as client:
        for _ in range(3):
            new_room(client)
        refused = client.post("/api/rooms", json={"game": "confrontation"})
        assert refused.status_code == 429
        assert "too many new rooms" in refused.json()["error"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        # Counted per address: another client may still create rooms.
        other = TestClient(client.app, client=("192.0.2.7", 50000))
        assert other.post("/api/rooms", json={"game": "confrontation"}).status_code == 201
        assert client.post("/api/rooms", json={"game": "confrontation"}).status_code == 429


def test_room_reads_are_rate_limited_per_address(tmp_path: Path) -> None:
    with client_with(tmp_path, room_read_rate="4/minute") as client:
        created = new_room(client)
        room, token = created["room"], created["creator_token"]
        reads = [
            f"/api/rooms/{room}?token={token}",
            f"/api/rooms/{room}/chat?token={token}",
            f"/api/rooms/{room}/replay?token={token}",
            "/api/rooms/no-such-room?token=x",  # a wrong link counts too
        ]
        assert [client.get(path).status_code for path in reads] == [200, 200, 409, 403]
        for path in reads:
            refused = client.get(path)
            assert refused.status_code == 429, path
            assert "too many reads of rooms" in refused.json()["error"]
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
        # Counted per address: another client may still read.
        other = TestClient(client.app, client=("192.0.2.7", 50000))
        assert other.get(reads[0]).status_code == 200


def test_websocket_connections_are_rate_limited_per_address(tmp_path: Path) -> None:
    with client_with(tmp_path, connect_rate="3/minute") as client:
        created = new_room(client)
        seat = ws_path(created["links"]["seats"][1])
        with client.websocket_connect(seat) as ws:
            assert view_at(ws, 0)["role"] == "seat"
        # A wrong link counts too: guessing links is bounded by the same count.
        with client.websocket_connect(f"/ws/{created['room']}?token=wrong") as ws:
            assert ws.receive_json()["type"] == "error"
        with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
            assert view_at(ws, 0)["role"] == "spectator"
        for link in (seat, f"/ws/{created['room']}?token=wrong"):
            with client.websocket_connect(link) as ws:
                refused = ws.receive_json()
                assert refused["type"] == "error"
                assert re.search(r"too many connections .*try again in \d+ s", refused["message"])
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4429
        # Counted per address: another client still connects.
        other = TestClient(client.app, client=("192.0.2.7", 50000))
        with other.websocket_connect(seat) as ws:
            assert view_at(ws, 0)["role"] == "seat"


def test_live_rooms_are_capped(tmp_path: Path) -> None:
    with client_with(tmp_path, max_live_rooms=2) as client:
        new_room(client)
        new_room(client)
        refused = client.post("/api/rooms", json={"game": "confrontation"})
        assert refused.status_code == 503 and "try again later" in refused.json()["error"]
    # A rematch is a new room too.
    (tmp_path / "rematch").mkdir()
    with client_with(tmp_path / "rematch", max_live_rooms=1) as client:
        created = new_room(client)
        finish_by_accusation(client, created)
        with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
            view_at(ws, 2)
            ws.send_json({"type": "rematch"})
            assert "try the rematch later" in receive(ws, "error")["message"]


def test_a_room_nobody_opened_expires(tmp_path: Path) -> None:
    # The room to keep is opened first, before the others are made: on a loaded machine
    # making rooms can outlast the window, and a room opened late would rightly expire.
    with client_with(tmp_path, unopened_room_seconds=3.0) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        opened = new_room(client)
        with client.websocket_connect(ws_path(opened["links"]["seats"][1])) as ws:
            view_at(ws, 0)
        bots = new_room(client, seats=[{"kind": "bot"}, {"kind": "bot"}])
        unopened = new_room(client)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (
            manager.storage.load_room(unopened["room"]) or manager.storage.load_room(bots["room"])
        ):
            time.sleep(0.1)
        # Gone from memory and storage: its links are refused (as any wrong link is).
        for gone in (unopened, bots):
            assert gone["room"] not in manager.rooms
            assert manager.storage.load_room(gone["room"]) is None
            token = gone["creator_token"]
            assert client.get(f"/api/rooms/{gone['room']}?token={token}").status_code == 403
        # The room someone opened stays.
        token = opened["creator_token"]
        assert client.get(f"/api/rooms/{opened['room']}?token={token}").status_code == 200


def test_connections_per_room_are_capped(tmp_path: Path) -> None:
    with client_with(tmp_path, connections_per_room=2) as client:
        created = new_room(client)
        link = ws_path(created["links"]["spectator"])
        with client.websocket_connect(link) as one, client.websocket_connect(link) as two:
            view_at(one, 0)
            view_at(two, 0)
            with client.websocket_connect(link) as three:
                assert "maximum of 2 connections" in three.receive_json()["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    three.receive_json()
                assert closed.value.code == 4429
        # Once one leaves, a new one fits.
        with client.websocket_connect(link) as again:
            assert view_at(again, 0)["role"] == "spectator"


def test_messages_per_connection_per_second_are_capped(tmp_path: Path) -> None:
    with client_with(tmp_path, messages_per_second=5) as client:
        created = new_room(client)
        with client.websocket_connect(ws_path(created["links"]["seats"][1])) as ws:
            view_at(ws, 0)
            for _ in range(12):
                ws.send_json({"type": "ping"})
            answers: list[dict[str, Any]] = []
            while len(answers) < 12:
                message = ws.receive_json()
                if message["type"] in ("pong", "error"):
                    answers.append(message)
            kinds = [m["type"] for m in answers]
            assert kinds.count("pong") <= 6 and kinds.count("error") >= 6
            assert any("too many messages" in m.get("message", "") for m in answers)
            time.sleep(1.1)
            ws.send_json({"type": "ping"})
            assert receive(ws, "pong")["type"] == "pong"  # still open, served again


def test_a_frame_over_the_transport_limit_closes_the_socket(tmp_path: Path) -> None:
    """A real server: over the message limit an error; over FRAME_FACTOR times it, close 1009."""
    server = LiveServer(tmp_path / "rooms.db", start=False)
    server.extra = ["--max-message-bytes", "1000"]
    server.start()
    try:
        created = server.post("/api/rooms", {"game": "confrontation"})
        with server.ws(created["links"]["seats"][1]) as ws:
            ws.recv(timeout=10)
            ws.send('{"type": "ping", "x": "' + "y" * 2000 + '"}')
            assert "too long" in _next(ws, "error")["message"]
            ws.send('{"type": "ping", "x": "' + "y" * (FRAME_FACTOR * 1000) + '"}')
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(50):
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        server.stop()


def _next(ws: Any, kind: str) -> dict[str, Any]:
    import json

    for _ in range(50):
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind!r} message")


OPTIONS = (
    "--max-body-bytes",
    "--max-options-bytes",
    "--max-message-bytes",
    "--room-rate",
    "--max-live-rooms",
    "--unopened-room-seconds",
    "--connections-per-room",
    "--messages-per-second",
    "--allow-origin",
    "--max-nickname-chars",
    "--max-chat-chars",
    "--chat-rate",
    "--spectator-chat-rate",
    "--max-chat-messages",
    "--name-rate",
    "--clock-timeouts",
)


def test_every_limit_is_an_option_of_serve_in_help_and_readme() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    shown = re.sub(r"\s+", " ", result.output)
    readme = (ROOT / "README.md").read_text()
    security = (ROOT / "docs" / "security.md").read_text()
    for option in OPTIONS:
        assert option in shown, option
        assert option in readme, option
        assert option in security, option
