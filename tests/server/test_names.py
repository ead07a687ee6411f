"""Nicknames: chosen on a seat link, shown as text, used for the seat on every view."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deathnote.engine.errors import IllegalAction
from deathnote.server.app import create_app
from deathnote.server.names import Names, clean_nickname
from tests.server.conftest import (
    TEST_LIMITS,
    acknowledged,
    first_legal,
    new_room,
    receive,
    view_at,
    ws_path,
)


def test_a_nickname_names_the_seat_in_every_view_and_log(app: FastAPI, client: TestClient) -> None:
    created = new_room(client, "werewolf", players=4)
    links = created["links"]
    with client.websocket_connect(ws_path(links["spectator"])) as spectator:
        before = view_at(spectator, 0)
    # The set-up log names the first player: that seat's person chooses a nickname.
    first = next(
        e["data"]["seat"] for e in before["view"]["log"] if e["data"].get("type") == "first"
    )
    other = (first + 1) % 4
    with (
        client.websocket_connect(ws_path(links["seats"][first])) as named,
        client.websocket_connect(ws_path(links["seats"][other])) as neighbour,
        client.websocket_connect(ws_path(links["spectator"])) as spectator,
    ):
        view_at(named, 0)
        named.send_json({"type": "name", "name": "  Ada   Lovelace "})
        assert receive(named, "named")["name"] == "Ada Lovelace"
        for ws in (named, neighbour, spectator):
            seen = receive(ws, "view", lambda m: m["room"]["seats"][first]["nick"] is not None)
            assert seen["view"]["seats"][first] == "Ada Lovelace"
            assert seen["room"]["seats"][first]["name"] == "Ada Lovelace"
            assert seen["room"]["seats"][first]["seat_name"] == f"Player {first + 1}"
            # The whole log comes again, renamed.
            assert seen["since"] is None
            texts = [e["text"] for e in seen["view"]["log"]]
            assert "Ada Lovelace is the first player." in texts
            assert not any(f"Player {first + 1}" in t for t in texts)
    stored = app.state.manager.storage.load_room(created["room"])
    assert stored.seats[first]["nick"] == "Ada Lovelace"


def test_role_named_seats_keep_the_role_beside_the_nickname(client: TestClient) -> None:
    created = new_room(client)
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
    ):
        first = view_at(l_ws, 0)
        l_ws.send_json({"type": "name", "name": "Ryuzaki"})
        receive(l_ws, "named")
        seen = receive(kira, "view", lambda m: m["room"]["seats"][1]["nick"] == "Ryuzaki")
        assert seen["view"]["seats"] == ["Kira", "Ryuzaki (L)"]
        # The log still speaks of L, the role (a rule text such as "L wins by naming Kira").
        assert any("L wins" in e["text"] for e in seen["view"]["log"])
        # And the seat plays on after the rename.
        l_ws.send_json({"type": "act", "action": first_legal(first), "step": 0})
        assert acknowledged(l_ws)["accepted"] == 0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "at least one letter"),
        ("   ", "at least one letter"),
        ("!!!", "at least one letter"),
        ("x" * 25, "at most 24 characters"),
        ("bad\u0000name", "printable"),
        ("right\u202eleft", "printable"),
        ("Player 2", "look like a seat"),
        ("player3", "look like a seat"),
        ("Kira", "name of a seat"),
        ("l", "name of a seat"),
        ("MIKAMI", "another player is called"),
    ],
)
def test_a_bad_nickname_is_refused_and_changes_nothing(
    client: TestClient, name: str, words: str
) -> None:
    created = new_room(client)
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
    ):
        view_at(kira, 0)
        view_at(l_ws, 0)
        kira.send_json({"type": "name", "name": "Mikami"})
        receive(kira, "named")
        l_ws.send_json({"type": "name", "name": name})
        assert words in receive(l_ws, "error")["message"]
        l_ws.send_json({"type": "ping"})
        receive(l_ws, "pong")
    info = client.get(f"/api/rooms/{created['room']}?token=x")
    assert info.status_code == 403
    token = created["links"]["spectator"].split("token=")[1]
    room = client.get(f"/api/rooms/{created['room']}?token={token}").json()["room"]
    assert [s["nick"] for s in room["seats"]] == ["Mikami", None]


def test_spectators_and_the_creator_choose_no_nickname(client: TestClient) -> None:
    created = new_room(client)
    for link in (created["links"]["spectator"], created["links"]["admin"]):
        with client.websocket_connect(ws_path(link)) as ws:
            view_at(ws, 0)
            ws.send_json({"type": "name", "name": "Watari"})
            assert "only a seat's person" in receive(ws, "error")["message"]


def test_room_info_tells_a_link_holder_its_own_turn_only(client: TestClient) -> None:
    created = new_room(client)
    room = created["room"]
    links = created["links"]
    token = {k: links["seats"][k].split("token=")[1] for k in (0, 1)}
    spectator = links["spectator"].split("token=")[1]
    # Confrontation starts with L choosing.
    assert client.get(f"/api/rooms/{room}?token={token[1]}").json()["you"]["asked"] is True
    assert client.get(f"/api/rooms/{room}?token={token[0]}").json()["you"]["asked"] is False
    you = client.get(f"/api/rooms/{room}?token={spectator}").json()["you"]
    assert you == {"role": "spectator", "seat": None, "asked": False}


def test_names_rename_in_one_pass() -> None:
    names = Names(["Player 1", "Player 2", "Player 3"], ["Zed", None, "Player-ish"])
    assert names.text("Player 1 accuses Player 3; Player 2 waits.") == (
        "Zed accuses Player-ish; Player 2 waits."
    )
    # "Player 12" is not "Player 1" followed by a 2.
    assert names.text("Player 12 is not here") == "Player 12 is not here"
    with pytest.raises(IllegalAction):
        clean_nickname("seat 4", 24)


def test_the_rematch_keeps_each_person_s_nickname_at_their_new_seat(
    app: FastAPI, client: TestClient
) -> None:
    from tests.server.test_api import finish_by_accusation

    created = new_room(client)
    links = created["links"]
    for seat, nick in ((0, "Light"), (1, "Ryuzaki")):
        with client.websocket_connect(ws_path(links["seats"][seat])) as ws:
            view_at(ws, 0)
            ws.send_json({"type": "name", "name": nick, "key": f"{nick.lower()}-key-0123456789"})
            receive(ws, "named")
    finish_by_accusation(client, created)
    token = links["admin"].split("token=")[1]
    answer = client.post(
        f"/api/rooms/{created['room']}/rematch", json={"token": token, "seating": "swap"}
    )
    assert answer.status_code == 200, answer.text
    new = app.state.manager.storage.load_room(answer.json()["room"])
    # Sides swapped: Ryuzaki plays Kira now, Light plays L, keys kept for the ratings.
    assert [s.get("nick") for s in new.seats] == ["Ryuzaki", "Light"]
    assert all(s.get("player") for s in new.seats)


def test_nickname_changes_are_rate_limited_per_seat(tmp_path: Path) -> None:
    """Each change renames every screen of the room (a whole view to every connection), so
    a seat may change its nickname only so often; the same name again costs nothing."""
    limits = dataclasses.replace(TEST_LIMITS, name_rate="2/minute")
    with TestClient(create_app(str(tmp_path / "rooms.db"), limits=limits)) as client:
        created = new_room(client)
        with client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
            view_at(kira, 0)
            for name in ("Mikami", "Mikami", "Teru", "Teru"):
                kira.send_json({"type": "name", "name": name})
                assert receive(kira, "named")["name"] == name
            kira.send_json({"type": "name", "name": "Takada"})
            assert "too many name changes" in receive(kira, "error")["message"]
        # A reconnection does not reset it: the rate is the seat's.
        with client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
            view_at(kira, 0)
            kira.send_json({"type": "name", "name": "Takada"})
            assert "too many name changes" in receive(kira, "error")["message"]
        token = created["links"]["spectator"].split("token=")[1]
        room = client.get(f"/api/rooms/{created['room']}?token={token}").json()["room"]
        assert room["seats"][0]["nick"] == "Teru"
