"""View messages carry only the new log entries; replay pages start from snapshots."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deathnote.engine import Match, delta
from deathnote.server.rooms import REPLAY_EVERY
from deathnote.server.storage import NewAction
from tests.server.conftest import first_legal, new_room, ws_path


def raw_view(ws: Any) -> dict[str, Any]:
    """The next view message as sent (its log not completed)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "view":
            return message
    raise AssertionError("no view message")


def test_views_after_the_first_carry_only_the_log_after_the_step_before(
    app: FastAPI, client: TestClient
) -> None:
    created = new_room(client)
    links = created["links"]["seats"]
    match = app.state.manager.rooms[created["room"]].match
    with client.websocket_connect(ws_path(links[1])) as l_ws:
        first = raw_view(l_ws)
        assert first["since"] is None and first["step"] == 0
        assert first["view"]["log"] == match.view(1)["log"]
        log = list(first["view"]["log"])
        step = 0
        for _ in range(4):
            assert 1 in match.pending()  # L alone decides in this opening
            l_ws.send_json({"type": "act", "action": first_legal({"view": match.view(1)})})
            message = raw_view(l_ws)
            while message["step"] == step:  # presence or acceptance views of the same step
                assert message["view"]["log"] == []
                message = raw_view(l_ws)
            assert message["since"] == step and message["view"]["since"] == step
            assert message["view"]["log"] == match.view(1, since=step)["log"]
            log += message["view"]["log"]
            step = message["step"]
            assert log == match.view(1)["log"]
            if 1 not in match.pending():
                break
        assert log and step >= 1
    # A new connection (a reconnect) starts again from the whole view.
    with client.websocket_connect(ws_path(links[1])) as again:
        whole = raw_view(again)
        assert whole["since"] is None and whole["view"]["log"] == match.view(1)["log"]


def test_later_views_carry_a_patch_of_the_state_the_connection_had(
    app: FastAPI, client: TestClient
) -> None:
    created = new_room(client, game="tcg")
    links = created["links"]["seats"]
    match = app.state.manager.rooms[created["room"]].match
    with (
        client.websocket_connect(ws_path(links[0])) as first_ws,
        client.websocket_connect(ws_path(links[1])) as second_ws,
    ):
        sockets = {0: first_ws, 1: second_ws}
        held = {}
        for seat, ws in sockets.items():
            first = raw_view(ws)
            assert (
                "patch" not in first["view"] and first["view"]["state"] == match.view(seat)["state"]
            )
            held[seat] = (first["step"], first["view"]["state"])
        patches = whole = 0
        for _ in range(12):
            seat = min(match.pending())
            step = len(match.actions) + 1
            sockets[seat].send_json(
                {"type": "act", "action": first_legal({"view": match.view(seat)})}
            )
            for viewer, ws in sockets.items():
                message = raw_view(ws)
                while message["step"] < step:
                    message = raw_view(ws)
                assert message["since"] == held[viewer][0]
                if "patch" in message["view"]:
                    assert "state" not in message["view"]
                    state = delta.patch(held[viewer][1], message["view"]["patch"])
                    patches += 1
                else:
                    state = message["view"]["state"]
                    whole += 1
                assert state == match.view(viewer)["state"]
                held[viewer] = (message["step"], state)
            if match.outcome() is not None:
                break
        assert patches and not whole  # every later view of a connection is a patch


def test_replay_pages_start_from_snapshots_and_match_a_replay(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = new_room(client, game="tcg", seats=[{"kind": "bot", "agent": "random"}] * 2)
    room = created["room"]
    with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
        for _ in range(10_000):
            message = ws.receive_json()
            if message["type"] == "view" and message["view"]["outcome"] is not None:
                break
    token = created["creator_token"]  # the replay needs one of the room's links
    steps = client.get(f"/api/rooms/{room}/replay?token={token}").json()["steps"]
    assert steps > 3 * REPLAY_EVERY
    record = app.state.manager.get(room).match.record()
    expected = {
        step: Match.replay(dict(record, actions=record["actions"][:step])).view(viewer)
        for step, viewer in [(0, 0), (REPLAY_EVERY + 3, 1), (steps - 1, "spectator")]
    }
    submits = 0
    original = Match.submit

    def counting(self: Match, seat: int, action: Any) -> Any:
        nonlocal submits
        submits += 1
        return original(self, seat, action)

    def no_replay(record: Any) -> Match:
        raise AssertionError("a replay page replayed the record")

    monkeypatch.setattr(Match, "submit", counting)
    monkeypatch.setattr(Match, "replay", no_replay)
    for (step, view), viewer in zip(expected.items(), [0, 1, "spectator"], strict=True):
        submits = 0
        page = client.get(
            f"/api/rooms/{room}/replay?token={token}&viewer={viewer}&step={step}"
        ).json()
        assert submits < REPLAY_EVERY
        assert page["step"] == step and page["view"] == view


def test_bots_try_again_after_a_failed_store_and_finish(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = app.state.manager.storage
    stored = storage.append_actions
    failures: list[int] = []

    def flaky(rows: list[NewAction]) -> Any:
        if any(row.step == 5 for row in rows) and len(failures) < 2:
            failures.append(5)
            raise OSError("disk full for a moment")
        return stored(rows)

    monkeypatch.setattr(storage, "append_actions", flaky)
    created = new_room(client, game="tcg", seats=[{"kind": "bot", "agent": "random"}] * 2)
    with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
        for _ in range(10_000):
            message = ws.receive_json()
            if message["type"] == "view" and message["view"]["outcome"] is not None:
                break
    assert failures == [5, 5]
    match = app.state.manager.get(created["room"]).match
    again = Match.replay(match.record())
    assert again.outcome() == match.outcome()
    loaded = storage.load_room(created["room"])
    assert loaded is not None and len(loaded.actions) == len(match.actions)
