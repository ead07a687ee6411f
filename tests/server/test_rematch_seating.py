"""A rematch may swap the sides or shuffle the seats (issue 16 §5): each person's link
leads to their own new seat, the seat kinds move with the players, the first request
chooses and a later one joins."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_room, receive, ws_path
from tests.server.test_api import finish_by_accusation


def token_of(link: str) -> str:
    return link.split("token=")[1]


def seat_of(client: TestClient, url: str) -> Any:
    with client.websocket_connect(ws_path(url)) as ws:
        return receive(ws, "view")["seat"]


def test_a_swapped_rematch_puts_each_person_on_the_other_side(client: TestClient) -> None:
    created = new_room(client, seats=[{"kind": "bot", "agent": "random"}, {"kind": "human"}])
    finish_by_accusation(client, created)
    room = created["room"]
    l_token = token_of(created["links"]["seats"][1])
    first = client.post(f"/api/rooms/{room}/rematch", json={"token": l_token, "seating": "swap"})
    assert first.status_code == 200
    url = first.json()["url"]
    assert seat_of(client, url) == 0  # L's player now plays Kira
    admin = client.post(
        f"/api/rooms/{room}/rematch", json={"token": created["creator_token"], "seating": "same"}
    ).json()
    assert admin["room"] == first.json()["room"]  # the first request chose; this one joins
    seats = client.get(admin["url"].replace("/room/", "/api/rooms/")).json()["room"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot"]  # the bot moved to L's side


def test_a_shuffled_rematch_gives_everyone_a_seat_of_their_own(client: TestClient) -> None:
    created = new_room(client, seats=[{"kind": "human"}, {"kind": "human"}])
    finish_by_accusation(client, created)
    room = created["room"]
    links = created["links"]["seats"]
    urls = [
        client.post(
            f"/api/rooms/{room}/rematch", json={"token": token_of(link), "seating": "shuffle"}
        ).json()["url"]
        for link in links
    ]
    assert sorted(seat_of(client, url) for url in urls) == [0, 1]


@pytest.mark.parametrize("seating", ["sideways", 3, None])
def test_an_unknown_seating_is_refused(client: TestClient, seating: Any) -> None:
    created = new_room(client, seats=[{"kind": "human"}, {"kind": "human"}])
    finish_by_accusation(client, created)
    answer = client.post(
        f"/api/rooms/{created['room']}/rematch",
        json={"token": token_of(created["links"]["seats"][0]), "seating": seating},
    )
    assert answer.status_code in (409, 422)
    assert client.get(f"/api/rooms/{created['room']}?token={created['creator_token']}").json()[
        "room"
    ]["finished"]


def test_a_series_rematch_is_the_series_next_game(client: TestClient) -> None:
    """ENQ-OPT-03 in a room: the rematch of a game of a series is its next game (Apples
    carried, same seats); the seats cannot be swapped in the middle of a series."""
    created = new_room(
        client,
        game="enquete",
        players=4,
        seats=[{"kind": "bot", "agent": "random"}] * 4,
        options={"series_games": 2},
    )
    room = created["room"]
    with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
        end = receive(ws, "view", lambda m: m["view"]["outcome"] is not None)
    assert end["room"]["series_next"] is True
    totals = end["view"]["state"]["series_apples"]
    token = created["creator_token"]
    refused = client.post(f"/api/rooms/{room}/rematch", json={"token": token, "seating": "swap"})
    assert refused.status_code == 409 and "series" in refused.json()["error"]
    following = client.post(f"/api/rooms/{room}/rematch", json={"token": token}).json()
    spectator = client.get(following["url"].replace("/room/", "/api/rooms/")).json()["links"][
        "spectator"
    ]
    with client.websocket_connect(ws_path(spectator)) as ws:
        last = receive(ws, "view", lambda m: m["view"]["outcome"] is not None)
    series = last["view"]["state"]["series"]
    assert (series["game"], series["games"], series["over"]) == (2, 2, True)
    assert series["carried"] == totals
    assert last["room"]["series_next"] is False
