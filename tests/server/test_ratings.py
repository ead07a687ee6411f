"""Ratings: player keys across rooms, OpenSkill updates for rated rooms, the leaderboard."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deathnote.server.ratings import player_id, rate
from deathnote.server.storage import Storage
from tests.server.conftest import new_room, receive, view_at, ws_path

KEY_A = "a" * 20
KEY_B = "b-key_" * 4


def test_rate_moves_winners_up_and_losers_down_and_counts_games(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "r.db"))
    a, b, c, d = (player_id(k * 16) for k in "abcd")
    rows = rate(storage, "werewolf", [(a, "A"), (b, "B"), (c, "C"), None], [0, 2])
    by = {r["player"]: r for r in rows}
    assert set(by) == {a, b, c}  # the seat with no key is not stored
    assert by[a]["mu"] > 25 > by[b]["mu"] and by[c]["mu"] == by[a]["mu"]
    assert all(r["sigma"] < 25 / 3 for r in rows)
    assert (by[a]["games"], by[a]["wins"], by[b]["wins"]) == (1, 1, 0)
    # The next game starts from the stored ratings.
    again = {r["player"]: r for r in rate(storage, "werewolf", [(a, "A"), (d, "D")], [1])}
    assert again[a]["mu"] < by[a]["mu"] and again[a]["games"] == 2
    assert again[d]["mu"] > 25
    # Nothing to learn when everyone won (or lost), or one player held two seats.
    assert rate(storage, "werewolf", [(a, "A"), (b, "B")], [0, 1]) == []
    assert rate(storage, "werewolf", [(a, "A"), (a, "A")], [0]) == []
    # Ratings are per game.
    assert storage.ratings("confrontation", [a]) == {}
    storage.close()


def finish(ws: Any) -> dict[str, Any]:
    """L accuses at once (a wrong guess ends the game too) and plays it to the end."""
    for _ in range(50):
        message = receive(
            ws, "view", lambda m: bool(m["view"].get("legal")) or m["view"]["outcome"]
        )
        if message["view"]["outcome"]:
            return message
        legal = message["view"]["legal"]
        action = next((a for a in legal if a["kind"] == "accuse"), legal[0])
        ws.send_json(
            {
                "type": "act",
                "action": {k: v for k, v in action.items() if k != "label"},
                "step": message["step"],
            }
        )
    raise AssertionError("the game did not end")


def test_a_rated_room_updates_the_leaderboard_by_player_key(client: TestClient) -> None:
    kira_bot = {"kind": "bot", "agent": "heuristic"}
    for game_number in range(2):
        created = new_room(client, seats=[kira_bot, {"kind": "human"}], rated=True)
        with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
            first = view_at(l_ws, 0)
            assert first["room"]["rated"] is True
            l_ws.send_json({"type": "name", "name": "Ryuzaki", "key": KEY_A})
            receive(l_ws, "named")
            finish(l_ws)
        board = client.get("/api/leaderboard/confrontation").json()
        names = {p["name"]: p for p in board["players"]}
        assert set(names) == {"Ryuzaki", "bot, easy (plays by rules of thumb)"}
        assert names["Ryuzaki"]["games"] == game_number + 1
        assert names["bot, easy (plays by rules of thumb)"]["bot"] is True
        assert [p["rank"] for p in board["players"]] == [1, 2]
    # Never a key or its digest in the answer.
    text = client.get("/api/leaderboard/confrontation").text
    assert KEY_A not in text and player_id(KEY_A) not in text
    assert client.get("/api/leaderboard/nosuchgame").status_code == 404
    assert client.get("/leaderboard/confrontation").status_code == 200


def test_an_unrated_room_changes_no_rating(client: TestClient) -> None:
    created = new_room(client, seats=[{"kind": "bot", "agent": "heuristic"}, {"kind": "human"}])
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "name", "name": "Ryuzaki", "key": KEY_A})
        receive(l_ws, "named")
        finish(l_ws)
    assert client.get("/api/leaderboard/confrontation").json()["players"] == []


@pytest.mark.parametrize(
    ("key", "words"),
    [("short", "16 to 128"), ("x" * 129, "16 to 128"), ("bad key with spaces!", "16 to 128")],
)
def test_a_bad_player_key_is_refused(client: TestClient, key: str, words: str) -> None:
    created = new_room(client, rated=True)
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "name", "name": "Ryuzaki", "key": key})
        assert words in receive(l_ws, "error")["message"]


def test_one_player_key_holds_one_seat_of_a_room(client: TestClient) -> None:
    created = new_room(client, rated=True)
    links = created["links"]
    with (
        client.websocket_connect(ws_path(links["seats"][0])) as kira,
        client.websocket_connect(ws_path(links["seats"][1])) as l_ws,
    ):
        view_at(kira, 0)
        view_at(l_ws, 0)
        kira.send_json({"type": "name", "name": "Light", "key": KEY_B})
        receive(kira, "named")
        l_ws.send_json({"type": "name", "name": "Ryuzaki", "key": KEY_B})
        assert "another seat of this room" in receive(l_ws, "error")["message"]


def test_a_rated_room_cannot_have_a_chosen_seed(client: TestClient) -> None:
    answer = client.post(
        "/api/rooms",
        json={
            "game": "confrontation",
            "seats": [{"kind": "bot", "agent": "heuristic"}, {"kind": "human"}],
            "seed": 4,
            "rated": True,
        },
    )
    assert answer.status_code == 400 and "rated" in answer.json()["error"]


def test_in_a_rated_room_only_the_weakest_bot_stands_in_for_a_person(
    client: TestClient,
) -> None:
    """The result of a rated game counts for the seat's person even when a bot played for
    them (timeouts, or the creator handing an idle seat over): a strong stand-in would let
    a player gain rating by leaving, so a rated room's stand-in is always random play."""
    created = new_room(
        client,
        seats=[{"kind": "human", "stand_in": "ismcts-hard"}, {"kind": "human"}],
        rated=True,
    )
    links = created["links"]
    room = created["room"]
    admin = links["admin"].split("token=")[1]
    spectator = links["spectator"].split("token=")[1]
    info = client.get(f"/api/rooms/{room}?token={spectator}").json()["room"]
    assert [s["stand_in"] for s in info["seats"]] == ["random", "random"]
    with client.websocket_connect(ws_path(links["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        # L is asked first and leaves: idle_seconds (0.3 s) later it may be handed over.
        time.sleep(0.4)
        strong = client.post(
            f"/api/rooms/{room}/seats/1/bot", json={"token": admin, "agent": "ismcts-hard"}
        )
        assert strong.status_code == 409 and "weakest bot" in strong.json()["error"]
    handed = client.post(f"/api/rooms/{room}/seats/1/bot", json={"token": admin})
    assert handed.status_code == 200
    assert handed.json()["room"]["seats"][1]["agent"] == "random"
    # Unrated, the creator's choice stands.
    free = new_room(client, seats=[{"kind": "human", "stand_in": "ismcts-hard"}, {"kind": "human"}])
    info = client.get(
        f"/api/rooms/{free['room']}?token={free['links']['spectator'].split('token=')[1]}"
    )
    assert info.json()["room"]["seats"][0]["stand_in"] == "ismcts-hard"
