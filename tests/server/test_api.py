"""The JSON API and the pages: rooms, links, hand-to-bot, rematch, replay, bad input."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.server.conftest import first_legal, new_room, receive, view_at, ws_path


def test_games_endpoint(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert "confrontation" in games and "enquete" in games
    assert games["confrontation"]["seat_names"] == ["Kira", "L"]
    assert all(g["board"] is True for g in games.values())  # every game has a drawn board
    assert "random" in games["confrontation"]["agents"]


def test_every_game_gives_its_rules_summary_in_its_own_words(client: TestClient) -> None:
    """The rules panel of every screen comes from the game (issue 16 §6), not a front end."""
    for game in client.get("/api/games").json():
        summary = game["rules_summary"]
        assert len(summary) >= 5, game["id"]
        assert all(isinstance(line, str) and line.endswith(".") for line in summary), summary


def test_the_lobby_offers_three_bot_levels_in_words(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        bots = game["bots"]
        assert [b["agent"] for b in bots[:3]] == ["heuristic", "ismcts-normal", "ismcts-hard"]
        assert [b["label"].split(" (")[0] for b in bots[:3]] == [
            "bot, easy",
            "bot, normal",
            "bot, hard",
        ]
        assert {b["agent"] for b in bots} <= set(game["agents"])
        assert "ismcts" not in {b["agent"] for b in bots}  # the normal level's other name
        for bot in bots:
            assert "_" not in bot["label"] and "-" not in bot["label"], bot


@pytest.mark.parametrize("page", ["/", "/play/abc", "/room/abc", "/replay/abc"])
def test_pages_are_static_shells(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200
    assert 'type="module"' in response.text
    assert client.get("/static/style.css").status_code == 200


def test_create_room_returns_secret_links(client: TestClient) -> None:
    created = new_room(client)
    seats = created["links"]["seats"]
    assert len(seats) == 2 and all(seats)
    tokens = {link.split("token=")[1] for link in seats}
    tokens.add(created["links"]["spectator"].split("token=")[1])
    tokens.add(created["creator_token"])
    assert len(tokens) == 4  # every link has its own secret


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess"}, 400, "unknown game"),
        ({"game": "confrontation", "players": 3}, 400, "played by 2 players"),
        ({"game": "confrontation", "options": {"chapter": 9}}, 400, "chapter"),
        ({"game": "confrontation", "options": {"colour": "red"}}, 400, "colour"),
        ({"game": "confrontation", "seats": [{"kind": "human"}]}, 400, "exactly 2 seats"),
        (
            {"game": "confrontation", "seats": [{"kind": "human"}, {"kind": "alien"}]},
            400,
            "kind must be",
        ),
        (
            {"game": "confrontation", "seats": [{"kind": "human"}, {"kind": "bot", "agent": "x"}]},
            400,
            "unknown bot",
        ),
        ({"game": "confrontation", "seed": 2**40}, 400, "the seed must be"),
        ({"game": "confrontation", "seed": -1}, 400, "the seed must be"),
        ({"players": 2}, 422, ""),
        ({"game": "confrontation", "options": [1, 2]}, 422, ""),
        ({"game": "confrontation", "players": "two"}, 422, ""),
    ],
)
def test_create_room_rejects_bad_input(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == status
    if words:
        assert words in response.json()["error"]


def test_create_room_rejects_a_body_that_is_not_json(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422


def test_room_info_needs_a_token_and_only_the_creator_sees_links(client: TestClient) -> None:
    created = new_room(client)
    room = created["room"]
    # No such room: refused as a wrong link is (nobody learns which rooms exist).
    assert client.get("/api/rooms/nope?token=x").status_code == 403
    assert client.get(f"/api/rooms/{room}").status_code == 403
    assert client.get(f"/api/rooms/{room}?token=wrong").status_code == 403
    seat_token = created["links"]["seats"][0].split("token=")[1]
    as_seat = client.get(f"/api/rooms/{room}?token={seat_token}").json()
    assert "links" not in as_seat
    as_creator = client.get(f"/api/rooms/{room}?token={created['creator_token']}").json()
    assert as_creator["links"] == created["links"]
    assert [s["kind"] for s in as_creator["room"]["seats"]] == ["human", "human"]


def test_hand_an_idle_seat_to_a_bot(app: FastAPI, client: TestClient) -> None:
    created = new_room(client)
    manager = app.state.manager
    manager.idle_seconds = 3600.0  # nobody is idle yet, however slow the machine
    room, creator = created["room"], created["creator_token"]
    seat_token = created["links"]["seats"][1].split("token=")[1]
    url = f"/api/rooms/{room}/seats/1/bot"
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        # Only the creator may, and not while the person is there and deciding briskly.
        assert client.post(url, json={"token": seat_token}).status_code == 403
        assert client.post(url, json={"token": "wrong"}).status_code == 403
        busy = client.post(url, json={"token": creator})
        assert busy.status_code == 409 and "not idle" in busy.json()["error"]
        manager.idle_seconds = 0.05
        time.sleep(0.1)
        handed = client.post(url, json={"token": creator, "agent": "random"})
        assert handed.status_code == 200, handed.text
        assert handed.json()["room"]["seats"][1]["kind"] == "bot"
        # The bot plays at once; the person's own link now watches, and cannot act.
        message = receive(l_ws, "view", lambda m: m["step"] >= 1)
        assert message["room"]["seats"][1]["agent"] == "random"
        l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
        assert "bot plays this seat" in receive(l_ws, "error")["message"]
    assert client.post(url, json={}).status_code == 422


def test_handing_over_refuses_bad_seats_and_bots(client: TestClient) -> None:
    # Kira is a bot; L (a person, absent) decides first, so nothing moves.
    created = new_room(client, seats=[{"kind": "bot"}, {"kind": "human"}])
    room, creator = created["room"], created["creator_token"]
    again = client.post(f"/api/rooms/{room}/seats/0/bot", json={"token": creator})
    assert again.status_code == 409 and "already" in again.json()["error"]
    assert client.post(f"/api/rooms/{room}/seats/7/bot", json={"token": creator}).status_code == 409
    bad_agent = client.post(
        f"/api/rooms/{room}/seats/1/bot", json={"token": creator, "agent": "zz"}
    )
    assert bad_agent.status_code == 409 and "unknown bot" in bad_agent.json()["error"]


def test_no_hand_over_after_the_end(client: TestClient) -> None:
    created = new_room(client)
    finish_by_accusation(client, created)
    over = client.post(
        f"/api/rooms/{created['room']}/seats/0/bot", json={"token": created["creator_token"]}
    )
    assert over.status_code == 409 and "over" in over.json()["error"]


def test_an_absent_seat_can_be_handed_to_a_bot_at_once(client: TestClient) -> None:
    created = new_room(client)
    response = client.post(
        f"/api/rooms/{created['room']}/seats/0/bot", json={"token": created["creator_token"]}
    )
    assert response.status_code == 200
    assert response.json()["room"]["seats"][0]["agent"] == "heuristic"


def test_an_idle_seat_gets_the_level_the_creator_chose_for_it(client: TestClient) -> None:
    seats = [{"kind": "human", "stand_in": "ismcts-hard"}, {"kind": "human"}]
    created = new_room(client, seats=seats)
    room, creator = created["room"], created["creator_token"]
    info = client.get(f"/api/rooms/{room}?token={creator}").json()["room"]
    assert [s["stand_in"] for s in info["seats"]] == ["ismcts-hard", "heuristic"]
    handed = client.post(f"/api/rooms/{room}/seats/0/bot", json={"token": creator})
    assert handed.status_code == 200, handed.text
    assert handed.json()["room"]["seats"][0]["agent"] == "ismcts-hard"
    # A level that is no bot of the game is refused when the room is made, nothing made.
    before = len(client.app.state.manager.rooms)  # type: ignore[attr-defined]
    bad = client.post(
        "/api/rooms",
        json={"game": "confrontation", "seats": [{"kind": "human", "stand_in": "zz"}] * 2},
    )
    assert bad.status_code == 400 and "unknown bot" in bad.json()["error"]
    assert len(client.app.state.manager.rooms) == before  # type: ignore[attr-defined]


def finish_by_accusation(client: TestClient, created: dict[str, Any]) -> None:
    """L accuses at once (and names a suspect): the game is over."""
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "act", "action": {"kind": "accuse"}})
        message = view_at(l_ws, 1)
        l_ws.send_json({"type": "act", "action": first_legal(message, avoid=())})
        end = view_at(l_ws, 2)
        assert end["view"]["outcome"] is not None


def test_rematch_keeps_the_seats_and_gives_each_token_its_own_link(client: TestClient) -> None:
    created = new_room(client, seats=[{"kind": "human"}, {"kind": "human"}])
    room = created["room"]
    kira_token = created["links"]["seats"][0].split("token=")[1]
    early = client.post(f"/api/rooms/{room}/rematch", json={"token": kira_token})
    assert early.status_code == 409 and "once the game is over" in early.json()["error"]
    finish_by_accusation(client, created)
    assert client.post(f"/api/rooms/{room}/rematch", json={"token": "bad"}).status_code == 403
    first = client.post(f"/api/rooms/{room}/rematch", json={"token": kira_token}).json()
    second = client.post(
        f"/api/rooms/{room}/rematch", json={"token": created["creator_token"]}
    ).json()
    assert first["room"] == second["room"] != room
    assert first["url"].startswith(f"/play/{first['room']}?token=")
    assert second["url"].startswith(f"/room/{first['room']}?token=")
    info = client.get(second["url"].replace("/room/", "/api/rooms/")).json()
    assert [s["kind"] for s in info["room"]["seats"]] == ["human", "human"]
    assert info["room"]["step"] == 0


def test_replay_opens_after_the_end_for_every_viewer(client: TestClient) -> None:
    created = new_room(client)
    room = created["room"]
    token = created["links"]["spectator"].split("token=")[1]
    base = f"/api/rooms/{room}/replay?token={token}"
    assert client.get(base).status_code == 409
    finish_by_accusation(client, created)
    full = client.get(base).json()
    assert full["steps"] == full["step"] == 2
    assert full["view"]["outcome"] is not None and full["last"].startswith("L: ")
    start = client.get(f"{base}&viewer=1&step=0").json()
    assert start["step"] == 0 and start["view"]["outcome"] is None
    assert start["view"]["state"]["notebook"]["role"] == "l"
    assert start["view"]["state"]["identity"] is None and start["last"] is None
    kira = client.get(f"{base}&viewer=0&step=1").json()
    assert kira["view"]["state"]["notebook"]["role"] == "kira"
    spectator = client.get(f"{base}&viewer=spectator&step=1").json()
    assert spectator["view"]["state"]["notebook"] is None
    assert client.get(f"{base}&viewer=5").status_code == 400
    assert client.get(f"{base}&viewer=god").status_code == 400
    assert client.get(f"{base}&step=x").status_code == 422
    assert client.get("/api/rooms/none/replay").status_code == 403


def test_the_replay_needs_one_of_the_rooms_links(client: TestClient) -> None:
    created = new_room(client)
    other = new_room(client)
    finish_by_accusation(client, created)
    room = created["room"]
    # The room id alone, a wrong token or another room's token: refused.
    for token in ("", "wrong", other["creator_token"]):
        refused = client.get(f"/api/rooms/{room}/replay?token={token}")
        assert refused.status_code == 403 and "links" in refused.json()["error"]
    # Any of the room's own links opens it: each seat, the spectators, the creator.
    tokens = [link.split("token=")[1] for link in created["links"]["seats"]]
    tokens += [created["links"]["spectator"].split("token=")[1], created["creator_token"]]
    for token in tokens:
        assert client.get(f"/api/rooms/{room}/replay?token={token}").status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/rooms/no-such-room?token=x", 403),
        ("get", "/api/no-such-endpoint", 404),
        ("put", "/api/rooms", 405),
    ],
)
def test_every_refusal_answers_in_one_shape(
    client: TestClient, method: str, path: str, status: int
) -> None:
    answer = getattr(client, method)(path)
    assert answer.status_code == status
    body = answer.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
