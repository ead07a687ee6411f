"""Table chat: the players' and the spectators' channels, limits, mute, storage, replay."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from deathnote.server.app import create_app
from tests.server.conftest import TEST_LIMITS, new_room, receive, view_at, ws_path


def token(link: str) -> str:
    return link.split("token=")[1]


def said(ws: Any) -> list[dict[str, Any]]:
    """The chat messages a connection gets before the answer to a ping."""
    ws.send_json({"type": "ping"})
    out = []
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == "pong":
            return out
        if message["type"] in ("chat", "chat_log"):
            out.extend(message["messages"] if message["type"] == "chat_log" else [message])
    raise AssertionError("no pong")


def test_players_talk_to_everyone_and_spectators_only_to_spectators(
    app: FastAPI, client: TestClient
) -> None:
    created = new_room(client)
    links = created["links"]
    with (
        client.websocket_connect(ws_path(links["seats"][0])) as kira,
        client.websocket_connect(ws_path(links["seats"][1])) as l_ws,
        client.websocket_connect(ws_path(links["spectator"])) as spectator,
        client.websocket_connect(ws_path(links["admin"])) as creator,
    ):
        for ws in (kira, l_ws, spectator, creator):
            view_at(ws, 0)
        l_ws.send_json({"type": "chat", "text": "  I <b>know</b>\nwho you are  "})
        echo = receive(l_ws, "chat")
        assert echo["channel"] == "players" and echo["seat"] == 1 and echo["name"] == "L"
        # Text kept as written (the pages show it as text), new lines as spaces.
        assert echo["text"] == "I <b>know</b> who you are"
        spectator.send_json({"type": "chat", "text": "Kira is seat 0, obviously"})
        assert receive(spectator, "chat", lambda m: m["seat"] is None)["channel"] == "spectators"
        # The spectators' channel never reaches a seat, nor the creator's room page (the
        # creator often holds a seat too), which reads the players' channel only.
        assert [(m["channel"], m["text"]) for m in said(creator)] == [
            ("players", "I <b>know</b> who you are")
        ]
        creator.send_json({"type": "chat", "text": "the room page speaks"})
        assert "only reads" in receive(creator, "error")["message"]
        kira_heard = said(kira)
        assert [m["text"] for m in kira_heard] == ["I <b>know</b> who you are"]
        assert not any(m["channel"] == "spectators" for m in said(l_ws))
        # A spectator connecting later gets both channels; a seat only the players'.
        with client.websocket_connect(ws_path(links["spectator"])) as late:
            history = receive(late, "chat_log")["messages"]
            assert [m["channel"] for m in history] == ["players", "spectators"]
        with client.websocket_connect(ws_path(links["seats"][0])) as again:
            history = receive(again, "chat_log")["messages"]
            assert [m["channel"] for m in history] == ["players"]
    room = created["room"]
    # Seats and the creator read the players' channel while the game runs; spectators both.
    for link in (links["seats"][0], links["admin"]):
        heard = client.get(f"/api/rooms/{room}/chat?token={token(link)}").json()
        assert [m["channel"] for m in heard["messages"]] == ["players"]
    watched = client.get(f"/api/rooms/{room}/chat?token={token(links['spectator'])}").json()
    assert [m["channel"] for m in watched["messages"]] == ["players", "spectators"]
    assert client.get(f"/api/rooms/{room}/chat?token=nope").status_code == 403
    # Once the game is over the replay shows both channels to every link.
    live = app.state.manager.get(room)
    for role in ("seat", "creator"):
        assert [m["channel"] for m in live.chat.history_for(role, finished=True)] == [
            "players",
            "spectators",
        ]


def test_the_chat_is_stored_and_comes_back_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "rooms.db")
    with TestClient(create_app(db, limits=TEST_LIMITS)) as first:
        created = new_room(first)
        with first.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
            view_at(kira, 0)
            kira.send_json({"type": "chat", "text": "good luck"})
            receive(kira, "chat")
    with (
        TestClient(create_app(db, limits=TEST_LIMITS)) as second,
        second.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
    ):
        history = receive(l_ws, "chat_log")["messages"]
        assert [(m["name"], m["text"]) for m in history] == [("Kira", "good luck")]


def test_chat_length_rate_and_empty_messages_are_refused(tmp_path: Path) -> None:
    limits = dataclasses.replace(TEST_LIMITS, max_chat_chars=10, chat_rate="3/minute")
    with TestClient(create_app(str(tmp_path / "rooms.db"), limits=limits)) as client:
        created = new_room(client)
        with client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
            view_at(kira, 0)
            for text, words in (
                ("x" * 11, "at most 10 characters"),
                ("   ", "needs some text"),
                ("\u0000\u202e", "needs some text"),
            ):
                kira.send_json({"type": "chat", "text": text})
                assert words in receive(kira, "error")["message"]
            for n in range(3):
                kira.send_json({"type": "chat", "text": f"hi {n}"})
                assert receive(kira, "chat")["text"] == f"hi {n}"
            kira.send_json({"type": "chat", "text": "one more"})
            assert "too many chat messages" in receive(kira, "error")["message"]
        stored = client.app.state.manager.storage.load_chat(created["room"])  # type: ignore[attr-defined]
        assert [m["text"] for m in stored] == ["hi 0", "hi 1", "hi 2"]


def test_the_creator_mutes_and_unmutes_a_seat(client: TestClient) -> None:
    created = new_room(client)
    links = created["links"]
    room = created["room"]
    refused = client.post(
        f"/api/rooms/{room}/seats/1/mute", json={"token": token(links["seats"][0])}
    )
    assert refused.status_code == 403
    answer = client.post(f"/api/rooms/{room}/seats/1/mute", json={"token": token(links["admin"])})
    assert answer.status_code == 200 and answer.json()["room"]["seats"][1]["muted"] is True
    with client.websocket_connect(ws_path(links["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "chat", "text": "let me speak"})
        assert "muted" in receive(l_ws, "error")["message"]
        client.post(
            f"/api/rooms/{room}/seats/1/mute",
            json={"token": token(links["admin"]), "muted": False},
        )
        l_ws.send_json({"type": "chat", "text": "thanks"})
        assert receive(l_ws, "chat")["text"] == "thanks"
    bad = client.post(f"/api/rooms/{room}/seats/7/mute", json={"token": token(links["admin"])})
    assert bad.status_code == 409


def test_spectators_share_one_rate_and_each_channel_holds_a_bounded_number(
    tmp_path: Path,
) -> None:
    """A spectator who reconnects gets a new connection, never a new share of the
    spectators' rate; and no channel grows without bound."""
    limits = dataclasses.replace(
        TEST_LIMITS, chat_rate="100/minute", spectator_chat_rate="3/minute", max_chat_messages=5
    )
    with TestClient(create_app(str(tmp_path / "rooms.db"), limits=limits)) as client:
        created = new_room(client)
        links = created["links"]
        for n in range(3):
            with client.websocket_connect(ws_path(links["spectator"])) as spectator:
                spectator.send_json({"type": "chat", "text": f"watching {n}"})
                assert receive(spectator, "chat")["text"] == f"watching {n}"
        with client.websocket_connect(ws_path(links["spectator"])) as spectator:
            spectator.send_json({"type": "chat", "text": "one more"})
            assert "spectators of this room say too much" in receive(spectator, "error")["message"]
        # The players' channel has its own bound: five messages, then it is full.
        with client.websocket_connect(ws_path(links["seats"][0])) as kira:
            for n in range(5):
                kira.send_json({"type": "chat", "text": f"line {n}"})
                assert receive(kira, "chat")["text"] == f"line {n}"
            kira.send_json({"type": "chat", "text": "line 5"})
            assert "chat is full" in receive(kira, "error")["message"]
        stored = client.app.state.manager.storage.load_chat(created["room"])  # type: ignore[attr-defined]
        assert [m["channel"] for m in stored].count("players") == 5
        assert [m["channel"] for m in stored].count("spectators") == 3
