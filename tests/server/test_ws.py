"""The play WebSocket: private views, every bad input, presence, reconnection, storage."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from deathnote.engine import registry
from deathnote.engine.actions import Action, Decision, Event, Outcome
from deathnote.engine.game import Game
from deathnote.server.app import create_app
from deathnote.server.rooms import MAX_QUEUED, Connection, View
from deathnote.server.storage import Storage
from tests.server.conftest import acknowledged, first_legal, new_room, receive, view_at, ws_path


def stored_steps(app: FastAPI, room: str) -> int:
    stored = app.state.manager.storage.load_room(room)
    assert stored is not None
    return len(stored.actions)


def test_each_connection_gets_only_its_own_view(client: TestClient) -> None:
    created = new_room(client)
    links = created["links"]
    with (
        client.websocket_connect(ws_path(links["seats"][0])) as kira,
        client.websocket_connect(ws_path(links["seats"][1])) as l_ws,
        client.websocket_connect(ws_path(links["spectator"])) as spectator,
    ):
        kira_view = view_at(kira, 0)
        assert kira_view["role"] == "seat" and kira_view["seat"] == 0
        assert kira_view["view"]["state"]["notebook"]["role"] == "kira"
        raw_l = l_ws.receive_text()
        assert '"local_area"' not in raw_l and '"notebooks"' not in raw_l
        l_view = orjson.loads(raw_l)
        assert l_view["view"]["state"]["notebook"]["role"] == "l"
        assert l_view["view"]["state"]["identity"] is None
        watched = view_at(spectator, 0)
        assert watched["role"] == "spectator" and watched["view"]["state"]["notebook"] is None
        assert "legal" not in watched["view"]


@pytest.mark.parametrize(
    ("path", "words", "code"),
    [
        ("/ws/{room}", "no seat token", 4403),
        ("/ws/{room}?token=", "no seat token", 4403),
        ("/ws/{room}?token=not-a-token", "not one of this room's links", 4403),
        ("/ws/{room}?token=%C3%A9t%C3%A9", "not one of this room's links", 4403),
        ("/ws/nosuchroom?token=x", "not one of this room's links", 4403),
    ],
)
def test_a_missing_or_wrong_token_is_refused(
    client: TestClient, path: str, words: str, code: int
) -> None:
    created = new_room(client)
    with client.websocket_connect(path.format(room=created["room"])) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and words in message["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == code


def test_a_token_of_another_room_is_refused(client: TestClient) -> None:
    first, second = new_room(client), new_room(client)
    token = first["links"]["seats"][0].split("token=")[1]
    with client.websocket_connect(f"/ws/{second['room']}?token={token}") as ws:
        assert "not one of this room's links" in ws.receive_json()["message"]


BAD_MESSAGES: list[tuple[Any, str]] = [
    (b"\x00\x01binary", "send JSON text"),
    ("not json", "not JSON"),
    ("[1, 2]", "'type' field"),
    ('{"type": 5}', "'type' field"),
    ('{"type": "dance"}', "unknown message type"),
    ('{"type": "act"}', "expected an object with a 'kind'"),
    ('{"type": "act", "action": "follow"}', "expected an object with a 'kind'"),
    ('{"type": "act", "action": {"kind": ""}}', "non-empty string"),
    ('{"type": "act", "action": {"kind": "follow", "x": {"a": 1}}}', "malformed action"),
    ('{"type": "act", "action": {"kind": "fly"}}', "not a legal move"),
    ('{"type": "act", "action": {"kind": "chase", "side": "A"}}', "not a legal move"),
    ('{"type": "act", "action": {"kind": "follow"}, "seat": 0}', "cannot act for seat 0"),
    ('{"type": "act", "action": {"kind": "follow"}, "seat": "L"}', "'seat' must be a whole"),
    ('{"type": "act", "action": {"kind": "follow"}, "seat": true}', "'seat' must be a whole"),
    ('{"type": "act", "action": {"kind": "follow"}, "step": -1}', "moved on"),
    ('{"type": "act", "action": {"kind": "follow"}, "step": "0"}', "'step' must be a whole"),
    ('{"type": "act", "action": {"kind": "follow"}, "step": false}', "'step' must be a whole"),
    ('{"type": "act", "action": {"kind": "follow"}, "as": 1}', "has no field 'as'"),
    # Action.make raised TypeError on this field name, which closed the socket.
    ('{"type": "act", "action": {"kind": "x", "cls": 1}}', "malformed action"),
    ('{"type": "ping", "extra": 1}', "has no field 'extra'"),
    ('{"type": "rematch"}', "once the game is over"),
    ("x" * 70_000, "too long"),
]


def test_every_bad_message_gets_an_error_on_that_connection_only_and_changes_nothing(
    app: FastAPI, client: TestClient
) -> None:
    created = new_room(client)
    room = created["room"]
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
    ):
        before = view_at(l_ws, 0)
        for raw, words in BAD_MESSAGES:
            if isinstance(raw, bytes):
                l_ws.send_bytes(raw)
            else:
                l_ws.send_text(raw)
            error = receive(l_ws, "error")
            assert words in error["message"], (raw, error)
        # Kira is not L's turn either: an action out of turn.
        kira.send_json({"type": "act", "action": {"kind": "follow"}})
        assert "not Kira's turn" in receive(kira, "error")["message"]
        # Nothing changed: not the match, not the storage; the other side heard nothing.
        assert app.state.manager.get(room).match.actions == []
        assert stored_steps(app, room) == 0
        l_ws.send_json({"type": "ping"})
        while (message := l_ws.receive_json())["type"] != "pong":
            assert message["type"] == "view" and message["step"] == 0
        kira.send_json({"type": "ping"})
        while (message := kira.receive_json())["type"] != "pong":
            assert message["type"] != "error"
        # And the seat can still play the same legal action afterwards.
        l_ws.send_json({"type": "act", "action": first_legal(before), "step": 0})
        assert acknowledged(l_ws)["accepted"] == 0
        assert view_at(kira, 1)["view"]["state"]["lead"] is not None


def test_a_spectator_and_the_creator_cannot_act(client: TestClient) -> None:
    created = new_room(client)
    for link in (created["links"]["spectator"], created["links"]["admin"]):
        with client.websocket_connect(ws_path(link.replace("/room/", "/play/"))) as ws:
            view_at(ws, 0)
            ws.send_json({"type": "act", "action": {"kind": "follow"}})
            assert "spectator cannot act" in receive(ws, "error")["message"]


def test_every_action_is_stored_before_anyone_is_told(app: FastAPI, client: TestClient) -> None:
    created = new_room(client)
    room = created["room"]
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
    ):
        views = {0: view_at(kira, 0), 1: view_at(l_ws, 0)}
        sockets = {0: kira, 1: l_ws}
        for _ in range(8):
            step = max(v["step"] for v in views.values())
            seat = next(s for s in (1, 0) if views[s]["view"]["legal"])
            sockets[seat].send_json({"type": "act", "action": first_legal(views[seat])})
            for s, ws in sockets.items():
                views[s] = view_at(ws, step + 1)
                # Whoever hears of step n finds it already in storage.
                assert stored_steps(app, room) >= views[s]["step"]
            for s, ws in sockets.items():
                # Simultaneous choices: wait until each side sees the other's too.
                if views[s]["step"] < max(v["step"] for v in views.values()):
                    views[s] = view_at(ws, max(v["step"] for v in views.values()))


def test_a_failed_store_rejects_the_action(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = new_room(client)
    room = created["room"]
    storage = app.state.manager.storage

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise OSError("disk full")

    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        with monkeypatch.context() as patch:
            patch.setattr(storage, "append_actions", broken)
            l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
            assert "could not be stored" in receive(l_ws, "error")["message"]
        assert app.state.manager.get(room).match.actions == []
        l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
        assert acknowledged(l_ws)["accepted"] == 0
        assert stored_steps(app, room) == 1


def test_presence_and_reconnection(client: TestClient) -> None:
    created = new_room(client)
    links = created["links"]
    with client.websocket_connect(ws_path(links["seats"][1])) as l_ws:
        first = view_at(l_ws, 0)
        assert [s["connected"] for s in first["room"]["seats"]] == [False, True]
        with client.websocket_connect(ws_path(links["seats"][0])) as kira:
            view_at(kira, 0)
            seen = receive(l_ws, "view", lambda m: m["room"]["seats"][0]["connected"])
            assert seen["room"]["seats"][0]["connected"] is True
            l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
            view_at(kira, 1)
        gone = receive(l_ws, "view", lambda m: not m["room"]["seats"][0]["connected"])
        assert gone["step"] == 1
        # Kira comes back with the same link and finds the game where it was.
        with client.websocket_connect(ws_path(links["seats"][0])) as kira_again:
            back = view_at(kira_again, 1)
            assert back["step"] == 1 and back["view"]["legal"]
            assert back["view"]["state"]["notebook"]["role"] == "kira"


def test_idle_time_is_shown_only_for_seats_the_viewer_sees_waiting(client: TestClient) -> None:
    created = new_room(client)
    with client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
        message = view_at(kira, 0)
        idle = [s["idle"] for s in message["room"]["seats"]]
        assert idle[0] is None and idle[1] is not None  # L is asked to follow or accuse


def test_bots_fill_empty_seats_and_play_to_the_end(client: TestClient) -> None:
    created = new_room(
        client,
        seats=[{"kind": "bot", "agent": "heuristic"}, {"kind": "bot", "agent": "heuristic"}],
    )
    with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
        end = receive(ws, "view", lambda m: m["view"]["outcome"] is not None)
        assert end["room"]["finished"] is True
        assert end["view"]["state"]["identity"] is not None  # the table turns its cards over


def test_restart_restores_rooms_from_storage(tmp_path: Any) -> None:
    db = str(tmp_path / "restart.db")
    with TestClient(create_app(db, bot_delay=0.0)) as first_client:
        created = new_room(first_client)
        with client_ws(first_client, created, 1) as l_ws:
            view_at(l_ws, 0)
            l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
            before = view_at(l_ws, 1)
    with (
        TestClient(create_app(db, bot_delay=0.0)) as second_client,
        client_ws(second_client, created, 1) as l_ws,
    ):
        after = view_at(l_ws, 1)
        assert after["view"] == before["view"]


def client_ws(client: TestClient, created: dict[str, Any], seat: int) -> Any:
    """The WebSocket of one seat of a created room."""
    return client.websocket_connect(ws_path(created["links"]["seats"][seat]))


class CovertGame(Game):
    """Two seats; seat 0 decides covertly first, then seat 1 openly (a test double)."""

    id = "covert_test"
    name = "Covert test"
    min_players = 2
    max_players = 2

    def new_state(self, players: int, options: Any, content: Any, rng: Any) -> dict[str, int]:
        return {"turn": 0}

    def pending(self, state: dict[str, int]) -> dict[int, Decision]:
        if state["turn"] == 0:
            return {0: Decision("secret", "Decide in secret", covert=True)}
        if state["turn"] == 1:
            return {1: Decision("open", "Decide")}
        return {}

    def legal(self, state: dict[str, int], seat: int) -> list[Action]:
        return [Action.make("go", "Go")] if seat in self.pending(state) else []

    def apply(self, state: dict[str, int], seat: int, action: Action, rng: Any) -> list[Event]:
        state["turn"] += 1
        return []

    def view(self, state: dict[str, int], viewer: Any) -> dict[str, Any]:
        return {"turn": state["turn"]}

    def outcome(self, state: dict[str, int]) -> Outcome | None:
        return Outcome(("nobody",), "done", "over") if state["turn"] >= 2 else None


def test_a_covert_decision_shows_no_idle_time_to_others(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.games(), "covert_test", CovertGame())
    created = new_room(client, game="covert_test")
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as other:
        seen = view_at(other, 0)
        assert seen["view"]["waiting"] == []
        assert [s["idle"] for s in seen["room"]["seats"]] == [None, None]
    for token in (created["links"]["seats"][1].split("token=")[1], created["creator_token"]):
        info = client.get(f"/api/rooms/{created['room']}?token={token}").json()
        assert [s["idle"] for s in info["room"]["seats"]] == [None, None]
    with client.websocket_connect(ws_path(created["links"]["seats"][0])) as asked:
        own = view_at(asked, 0)
        assert own["room"]["seats"][0]["idle"] is not None


def test_a_room_left_alone_leaves_memory_and_comes_back_from_storage(
    app: FastAPI, client: TestClient
) -> None:
    created = new_room(client)
    manager = app.state.manager
    with client_ws(client, created, 1) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
        before = view_at(l_ws, 1)
        assert created["room"] in manager.rooms
    # Nobody is connected and only people are asked: the room waits in storage.
    assert created["room"] not in manager.rooms
    with client_ws(client, created, 1) as l_ws:
        assert view_at(l_ws, 1)["view"] == before["view"]


def test_bots_go_on_after_a_restart(tmp_path: Any) -> None:
    db = str(tmp_path / "bots.db")
    with TestClient(create_app(db, bot_delay=0.0)) as first:
        created = new_room(first)
    # While the server is down, both seats become bots (as a hand-over would store it).
    storage = Storage(db)
    seats = storage.load_room(created["room"]).seats  # type: ignore[union-attr]
    storage.update_seats(created["room"], [{**s, "kind": "bot", "agent": "random"} for s in seats])
    storage.close()
    with (
        TestClient(create_app(db, bot_delay=0.0)) as second,
        second.websocket_connect(ws_path(created["links"]["spectator"])) as ws,
    ):
        end = receive(ws, "view", lambda m: m["view"]["outcome"] is not None)
        assert end["room"]["finished"] is True


def test_a_connection_too_slow_to_keep_up_is_dropped() -> None:
    async def never(_message: dict[str, Any]) -> None:
        return None

    conn = Connection("seat", 0, never)
    for _ in range(MAX_QUEUED):
        conn.push({"type": "pong"})
    assert not conn.closed
    conn.push({"type": "pong"})
    assert conn.closed


def test_the_acknowledgement_rides_on_the_senders_view_only(client: TestClient) -> None:
    # One frame, not two: the sender's first view that shows its action says "accepted";
    # the other seat's view of the same step does not (it did not act).
    created = new_room(client)
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
    ):
        before = view_at(l_ws, 0)
        view_at(kira, 0)
        l_ws.send_json({"type": "act", "action": first_legal(before), "step": 0})
        answer = l_ws.receive_json()
        while answer["type"] == "view" and answer["step"] == 0:  # presence changes
            answer = l_ws.receive_json()
        assert answer["type"] == "view" and answer["accepted"] == 0 and answer["step"] == 1
        other = view_at(kira, 1)
        assert other["step"] == 1 and "accepted" not in other


def test_an_accepting_view_is_the_shared_view_with_one_field_more() -> None:
    shared = View({"type": "view", "step": 3, "view": {"log": ["é"]}})
    told = shared.accepting(2)
    assert orjson.loads(told.text) == dict(told) == {**shared, "accepted": 2}
    assert "accepted" not in shared and "accepted" not in orjson.loads(shared.text)
