"""The open bot protocol: the schema is current and fits what the server sends, and the
example client plays whole games against a real server on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from deathnote.server.schema import protocol_markdown, protocol_schema, validate_server_message
from tests.live_server import LiveServer
from tests.server.conftest import first_legal, new_room, ws_path

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "examples" / "bot_client.py"
MAX_MESSAGES = 3000


def test_the_schema_is_served_and_the_page_is_current(client: TestClient) -> None:
    assert client.get("/api/protocol.json").json() == protocol_schema()
    page = (ROOT / "docs" / "protocol.md").read_text()
    assert page == protocol_markdown(), "run: python -m deathnote.server.schema > docs/protocol.md"
    kinds = {
        m["properties"]["type"]["const"]
        for m in protocol_schema()["client"]["$defs"].values()
        if "type" in m.get("properties", {})
    }
    assert {"act", "ping", "rematch", "name", "chat", "take_back"} <= kinds


def test_every_message_of_a_whole_game_fits_the_schema(client: TestClient) -> None:
    # L (seat 1) is the person: L decides first, so nothing happens before L connects.
    created = new_room(client, seats=[{"kind": "bot", "agent": "heuristic"}, {"kind": "human"}])
    links = created["links"]
    seen: set[str] = set()

    def read(ws: Any) -> dict[str, Any]:
        message = ws.receive_json()
        validate_server_message(message)
        seen.add(message["type"])
        if message.get("accepted") is not None:
            seen.add("accepted")
        return message

    with (
        client.websocket_connect(ws_path(links["spectator"])) as spectator,
        client.websocket_connect(ws_path(links["seats"][1])) as l_ws,
    ):
        l_ws.send_json({"type": "name", "name": "Ryuzaki"})
        l_ws.send_json({"type": "chat", "text": "hello"})
        spectator.send_json({"type": "chat", "text": "hi watchers"})
        l_ws.send_json({"type": "take_back"})  # an error: L's person plays the seat
        l_ws.send_json({"type": "ping"})
        over = False
        for _ in range(MAX_MESSAGES):
            message = read(l_ws)
            if message["type"] != "view":
                continue
            if message["view"]["outcome"] is not None:
                over = True
                break
            if message["view"].get("legal"):
                action = first_legal(message)
                l_ws.send_json({"type": "act", "action": action, "step": message["step"]})
        assert over
        spectator.send_json({"type": "ping"})
        for _ in range(MAX_MESSAGES):
            if read(spectator)["type"] == "pong":
                break
    with client.websocket_connect(ws_path(links["seats"][1])) as again:
        assert read(again)["type"] == "chat_log"
    assert {"view", "accepted", "named", "chat", "chat_log", "error", "pong"} <= seen
    with pytest.raises(ValidationError):
        validate_server_message({"type": "view", "step": "one"})


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("protocol") / "rooms.db")
    yield server
    server.stop()


@pytest.mark.parametrize(
    ("game", "players"),
    [("confrontation", 2), ("werewolf", 4), ("icg", 4), ("tcg", 2), ("enquete", 4)],
)
def test_the_example_client_plays_a_whole_game_against_a_live_server(
    live: LiveServer, game: str, players: int
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (players - 1)
    created = live.post("/api/rooms", {"game": game, "players": players, "seats": seats})
    link = live.base + created["links"]["seats"][0]
    result = subprocess.run(
        [sys.executable, str(CLIENT), link, "--name", "Robo", "--seed", "7"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr
    assert "game over after" in result.stdout
    # (The game may end before the nickname reaches the views: bots move without delay.)
    assert "I was " in result.stdout
    token = created["links"]["spectator"].split("token=")[1]
    info = live.get(f"/api/rooms/{created['room']}?token={token}")["room"]
    assert info["finished"] is True and info["seats"][0]["nick"] == "Robo"


def test_five_example_clients_play_every_seat_and_wait_for_their_answers(live: LiveServer) -> None:
    """A Werewolf table of five programs over the protocol: each waits for the answer to an
    action before it acts again, so on questions put to everyone at once no client sends
    a second action for a question it has answered (the server used to refuse dozens as
    "the game moved on")."""
    created = live.post("/api/rooms", {"game": "werewolf", "players": 5})
    clients = [
        subprocess.Popen(
            [sys.executable, str(CLIENT), live.base + link, "--name", f"Robo{n}", "--seed", str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n, link in enumerate(created["links"]["seats"])
    ]
    results = [client.communicate(timeout=240) for client in clients]
    for client, (out, err) in zip(clients, results, strict=True):
        assert client.returncode == 0, err
        assert "game over after" in out
        assert err.count("the game moved on") <= 2, err
    assert len({out.splitlines()[0] for out, _err in results}) == 1  # one game, one end


@pytest.fixture(scope="module")
def live_clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Clocks at 2% of their seconds (fast: 0.3 s a decision, 1.2 s reserve); one timeout
    hands the seat to a bot."""
    server = LiveServer(tmp_path_factory.mktemp("clocked") / "rooms.db", start=False)
    server.extra = ["--clock-scale", "0.02", "--clock-timeouts", "1"]
    server.start()
    yield server
    server.stop()


def test_a_slow_example_client_is_timed_like_a_person_and_takes_its_seat_back(
    live_clocked: LiveServer,
) -> None:
    """The same clocks apply to a program: thinking 2 s a move, longer than a decision's
    seconds and the whole reserve together (1.5 s), it runs out at its first open decision
    (with 0.5 s a move that took six open decisions, and some games ended sooner), a bot
    takes its seat, and it takes the seat back with its link and plays on to the end.
    The deal is seeded: the bots draw from the room's seed, and with seed 1 Player 1 has
    an open decision at the first step of a long game (with a random seed the bots ended
    some games before Player 1 was asked anything, and the test failed)."""
    live = live_clocked
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 3
    created = live.post(
        "/api/rooms",
        {"game": "werewolf", "players": 4, "clock": "fast", "seats": seats, "seed": 1},
    )
    result = subprocess.run(
        [sys.executable, str(CLIENT), live.base + created["links"]["seats"][0], "--think", "2"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr
    assert "game over after" in result.stdout
    assert "a bot took my seat (my clock ran out): taking it back" in result.stdout
    token = created["links"]["spectator"].split("token=")[1]
    info = live.get(f"/api/rooms/{created['room']}?token={token}")["room"]
    assert info["finished"] is True and info["seats"][0]["clock"]["reserve"] == 0


def test_the_example_client_refuses_a_link_that_is_not_a_seat_link() -> None:
    result = subprocess.run(
        [sys.executable, str(CLIENT), "ftp://example/play/x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "not a seat link" in result.stderr
