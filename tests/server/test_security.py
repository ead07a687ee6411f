"""Issue 11 §1, §3 and §4 on the server: no client names a path, nothing a client sends
blocks the loop, strict JSON types, the Origin check, and seeds nobody can deal themselves."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from deathnote.agents import RandomAgent
from deathnote.engine.actions import OMNISCIENT, Action
from deathnote.engine.match import Match
from deathnote.engine.registry import games, get_game
from deathnote.server import protocol
from deathnote.server import rooms as rooms_module
from deathnote.server.app import create_app
from deathnote.server.config import Limits
from deathnote.server.rooms import Connection, Room, RoomManager
from deathnote.server.storage import Storage
from tests.server.conftest import TEST_LIMITS, acknowledged, new_room, receive, view_at, ws_path
from tests.server.open_probe import PATHLIKE_OPTIONS
from tests.server.test_api import finish_by_accusation

# -- §1: no option, content or message from a client names a server path ----------------


@pytest.mark.parametrize("game", sorted(games()))
def test_no_option_from_a_client_opens_a_server_file(tmp_path: Path, game: str) -> None:
    """Every option of the game, given a real file, a folder, a missing path and a named
    pipe, is refused or ignored: an audit hook (in a child process, see open_probe) sees
    none of them opened, and no answer quotes OS error text (it would tell whether the
    file exists)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.server.open_probe", game, str(tmp_path)],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    found = orjson.loads(done.stdout)
    assert found["posts"] >= 8 * len(found["names"]) > 0
    assert set(PATHLIKE_OPTIONS) <= set(found["names"])
    assert found["hook_works"]
    assert found["opened"] == []
    assert found["quoted"] == []


def test_the_create_body_names_no_content_and_is_strict(client: TestClient) -> None:
    for body in (
        {"game": "confrontation", "content": "/etc/passwd"},
        {"game": "confrontation", "content_path": "/etc/passwd"},
        {"game": "confrontation", "players": True},
        {"game": "confrontation", "seed": True, "seats": [{"kind": "bot"}] * 2},
        {"game": "confrontation", "players": 2.0},
    ):
        assert client.post("/api/rooms", json=body).status_code == 422, body


def test_a_failing_create_answers_without_the_error_text(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise FileNotFoundError(2, "No such file or directory", "/srv/secret")

    monkeypatch.setattr(rooms_module.Match, "create", broken)
    response = client.post("/api/rooms", json={"game": "confrontation"})
    assert response.status_code == 500
    assert "secret" not in response.text and "Errno" not in response.text
    assert "could not be created" in response.json()["error"]


def test_matches_are_built_and_replayed_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real_create, real_replay, real_timeline = Match.create, Match.replay, Match.timeline

    def create(*args: Any, **kwargs: Any) -> Match:
        threads.append(threading.current_thread().name)
        return real_create(*args, **kwargs)

    def replay(record: Any) -> Match:
        threads.append(threading.current_thread().name)
        return real_replay(record)

    def timeline(self: Match, every: int = 16) -> Any:
        threads.append(threading.current_thread().name)
        return real_timeline(self, every)

    db = str(tmp_path / "rooms.db")
    with TestClient(create_app(db, limits=TEST_LIMITS)) as first:
        created = new_room(first)
        finish_by_accusation(first, created)
    monkeypatch.setattr(Match, "create", create)
    monkeypatch.setattr(Match, "replay", replay)
    monkeypatch.setattr(Match, "timeline", timeline)
    with TestClient(create_app(db, limits=TEST_LIMITS)) as second:
        loop_thread = second.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
        new_room(second)  # Match.create
        token = created["creator_token"]
        # Restoring the room from storage (Match.replay), then a replay step (the
        # room's timeline of snapshots, Match.timeline).
        assert second.get(f"/api/rooms/{created['room']}?token={token}").status_code == 200
        assert (
            second.get(f"/api/rooms/{created['room']}/replay?token={token}&step=1").status_code
            == 200
        )
    assert len(threads) == 3
    assert loop_thread not in threads


def test_the_loop_answers_while_a_room_is_being_built(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A room whose set-up takes long (big options, slow content) must not stop the others.
    started, release = threading.Event(), threading.Event()
    finished: list[bool] = []
    real_create = Match.create

    def slow_create(*args: Any, **kwargs: Any) -> Match:
        started.set()
        release.wait(timeout=10)
        finished.append(True)
        return real_create(*args, **kwargs)

    monkeypatch.setattr(Match, "create", slow_create)
    answers: list[int] = []
    creating = threading.Thread(
        target=lambda: answers.append(
            client.post("/api/rooms", json={"game": "confrontation"}).status_code
        )
    )
    creating.start()
    try:
        assert started.wait(timeout=10)
        # While that room is still being built, the server answers someone else.
        assert client.get("/api/games").status_code == 200
        assert finished == []
    finally:
        release.set()
        creating.join(timeout=20)
    assert answers == [201]


def test_the_loop_answers_while_a_bot_thinks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Anyone may fill a room with bots: a slow bot must not stop every other room.
    started, release = threading.Event(), threading.Event()
    chose: list[bool] = []
    real_choose = RandomAgent.choose

    def slow_choose(self: RandomAgent, seen: Any) -> Action:
        started.set()
        release.wait(timeout=10)
        chose.append(True)
        return real_choose(self, seen)

    monkeypatch.setattr(RandomAgent, "choose", slow_choose)
    # L (seat 1) decides first, and is a bot here.
    created = new_room(client, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}])
    try:
        assert started.wait(timeout=10)
        other = new_room(client)
        with client.websocket_connect(ws_path(other["links"]["seats"][1])) as ws:
            view_at(ws, 0)
            ws.send_json({"type": "ping"})
            assert receive(ws, "pong")["type"] == "pong"
        assert chose == []
    finally:
        release.set()
    with client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira:
        assert view_at(kira, 1)["step"] >= 1  # the bot's move, once it chose, was played
    assert chose


def _slow(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[threading.Event, Any, list[bool]]:
    """Make ``Storage.<name>`` wait (up to 10 s) for ``release``: a slow database write."""
    started, release = threading.Event(), threading.Event()
    finished: list[bool] = []
    real = getattr(Storage, name)

    def slow(self: Storage, *args: Any) -> Any:
        started.set()
        release.wait(timeout=10)
        finished.append(True)
        return real(self, *args)

    monkeypatch.setattr(Storage, name, slow)
    return started, release, finished


def _until_pong(ws: Any) -> list[str]:
    """The types of the messages a connection gets before the answer to a ping."""
    ws.send_json({"type": "ping"})
    kinds: list[str] = []
    for _ in range(200):
        kind = ws.receive_json()["type"]
        if kind == "pong":
            return kinds
        kinds.append(kind)
    raise AssertionError("no pong")


@pytest.mark.parametrize(
    ("write", "message", "answer"),
    [
        ("append_chat", {"type": "chat", "text": "hello"}, "chat"),
        ("update_seats", {"type": "name", "name": "Ada"}, "named"),
    ],
)
def test_the_loop_answers_while_a_chat_message_or_a_nickname_is_stored(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    write: str,
    message: dict[str, Any],
    answer: str,
) -> None:
    # A chat message or a nickname is written in a worker thread: a slow database (a
    # PostgreSQL round trip) stops neither this room nor the others, and nobody hears of
    # the message or the name before it is stored.
    created = new_room(client)
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as other,
    ):
        view_at(kira, 0)
        view_at(other, 0)
        _until_pong(other)  # whatever the attach sent is read
        started, release, finished = _slow(monkeypatch, write)
        try:
            kira.send_json(message)
            assert started.wait(timeout=10)
            # While it is being stored, the server answers this room and everyone else.
            assert client.get("/api/games").status_code == 200
            assert _until_pong(other) == []  # told nothing yet (no chat, no renamed view)
            assert finished == []
        finally:
            release.set()
        assert receive(kira, answer)
        if answer == "chat":
            assert receive(other, "chat")["text"] == "hello"
        else:
            seen = receive(other, "view", lambda m: m["room"]["seats"][0]["nick"] is not None)
            assert seen["room"]["seats"][0]["nick"] == "Ada"
    assert finished == [True]


def test_a_wrong_link_loads_no_room_and_tells_nothing_of_its_existence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stored room is loaded (replayed into memory) only for one of its own links; a
    # wrong token is refused the same way whether the room exists or not.
    db = str(tmp_path / "rooms.db")
    with TestClient(create_app(db, limits=TEST_LIMITS)) as first:
        created = new_room(first)
    loaded: list[str] = []
    real_load = RoomManager.load

    def load(self: RoomManager, room_id: str) -> Room | None:
        loaded.append(room_id)
        return real_load(self, room_id)

    monkeypatch.setattr(RoomManager, "load", load)
    app = create_app(db, limits=TEST_LIMITS)
    with TestClient(app) as client:
        # (The start-up looks at every unfinished room; a dormant one leaves memory.)
        assert app.state.manager.rooms == {}
        loaded.clear()
        room, token = created["room"], created["creator_token"]
        answers: dict[str, set[str]] = {}
        for target in (room, "no-such-room"):
            for tail in ("", "/chat", "/replay"):
                got = client.get(f"/api/rooms/{target}{tail}?token=wrong")
                assert got.status_code == 403, (target, tail)
                answers.setdefault(tail, set()).add(got.text)
            for body, op in (({"token": "wrong"}, "seats/0/bot"), ({"token": "wrong"}, "rematch")):
                got = client.post(f"/api/rooms/{target}/{op}", json=body)
                assert got.status_code == 403, (target, op)
                answers.setdefault(op, set()).add(got.text)
            got = client.post(f"/api/rooms/{target}/seats/0/mute", json={"token": "wrong"})
            assert got.status_code == 403
            answers.setdefault("mute", set()).add(got.text)
            with client.websocket_connect(f"/ws/{target}?token=wrong") as ws:
                answers.setdefault("ws", set()).add(ws.receive_json()["message"])
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4403
        # One answer per endpoint, the same for the room and for no room.
        assert all(len(texts) == 1 for texts in answers.values()), answers
        assert loaded == [] and app.state.manager.rooms == {}
        # Its own link loads it.
        assert client.get(f"/api/rooms/{room}?token={token}").status_code == 200
        assert loaded == [room]


def test_a_search_bot_thinks_in_a_worker_process_not_in_the_server(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An ISMCTS bot samples worlds while it thinks; none is sampled in the server's process
    # (not on its loop, nor in a thread holding its interpreter lock).
    sampled_here: list[str] = []
    real_sample = Match.sample_world

    def sample_world(self: Match, viewer: Any, rng: random.Random) -> Match:
        sampled_here.append(threading.current_thread().name)
        return real_sample(self, viewer, rng)

    monkeypatch.setattr(Match, "sample_world", sample_world)
    manager = app.state.manager
    manager.bot_pool.workers = 1
    created = new_room(client, seats=[{"kind": "human"}, {"kind": "bot", "agent": "ismcts"}])
    room = manager.rooms[created["room"]]
    deadline = time.monotonic() + 60
    while not room.match.actions and time.monotonic() < deadline:
        time.sleep(0.05)
    assert room.match.actions and room.match.actions[0][0] == 1  # L, the bot, moved
    assert manager.bot_pool._pool is not None  # the worker process made the move
    assert sampled_here == []


# -- §3: strict JSON types, answers, the Origin header -----------------------------------


def _human_room(
    manager: RoomManager, game: str, players: int | None = None, options: Any = None
) -> Room:
    count = players or get_game(game).min_players
    return manager.create(game, count, options, [{"kind": "human"}] * count)


def _seat_conns(room: Room) -> list[Connection]:
    async def nowhere(_message: dict[str, Any]) -> None:
        return None

    return [Connection("seat", s, nowhere) for s in range(room.match.players)]


def _find_typed_action(room: Room, rng: random.Random, kind: type) -> tuple[int, Action] | None:
    """Play random legal actions until a pending seat has one with a ``kind`` field."""
    for _ in range(400):
        if room.match.outcome() is not None:
            return None
        for seat in sorted(room.match.pending()):
            for action in room.match.legal(seat):
                if any(type(v) is kind for _k, v in action.args):
                    return seat, action
        seat = rng.choice(sorted(room.match.pending()))
        asyncio.run(room.submit(seat, rng.choice(list(room.match.legal(seat)))))
    return None


def _swap(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value == 1
    return value


@pytest.mark.parametrize(
    ("game", "players", "kind"),
    [
        ("confrontation", 2, int),
        ("icg", 4, int),
        ("enquete", 4, int),
        ("werewolf", 4, int),
    ],
)
def test_a_boolean_is_not_a_number_and_a_number_not_a_boolean(
    tmp_path: Path, game: str, players: int, kind: type
) -> None:
    manager = RoomManager(Storage(str(tmp_path / "rooms.db")), limits=TEST_LIMITS)
    found = None
    for seed in range(20):
        room = _human_room(manager, game, players)
        found = _find_typed_action(room, random.Random(seed), kind)
        if found:
            break
    if found is None:
        pytest.skip(f"no {game} action with a {kind.__name__} field in 20 random games")
    seat, action = found
    conn = _seat_conns(room)[seat]
    before = room.match.record()
    wrong = {k: (_swap(v) if type(v) is kind else v) for k, v in action.to_json().items()}
    asyncio.run(
        protocol.answer(room, conn, orjson.dumps({"type": "act", "action": wrong}).decode())
    )
    answer = conn.queue.popleft()
    assert answer["type"] == "error"
    assert "must be" in answer["message"] or "not a legal move" in answer["message"]
    assert room.match.record() == before
    # The same action with the right types is accepted.
    asyncio.run(
        protocol.answer(
            room, conn, orjson.dumps({"type": "act", "action": action.to_json()}).decode()
        )
    )
    assert conn.accepted == len(room.match.actions) - 1 and not conn.queue  # in its next view


def test_the_issue_examples_news_criminal_true_and_apple_row_true(tmp_path: Path) -> None:
    manager = RoomManager(Storage(str(tmp_path / "rooms.db")), limits=TEST_LIMITS)
    seen = set()
    for kind, field in (("news", "criminal"), ("apple", "row")):
        for seed in range(30):
            room = _human_room(manager, "confrontation", options={"chapter": 2})
            rng = random.Random(seed)
            hit = None
            for _ in range(600):
                if room.match.outcome() is not None:
                    break
                hit = next(
                    (
                        (s, a)
                        for s in sorted(room.match.pending())
                        for a in room.match.legal(s)
                        if a.kind == kind and a.get(field) in (0, 1) and type(a.get(field)) is int
                    ),
                    None,
                )
                if hit:
                    break
                s = rng.choice(sorted(room.match.pending()))
                playing = [a for a in room.match.legal(s) if a.kind != "accuse"]
                asyncio.run(room.submit(s, rng.choice(playing or list(room.match.legal(s)))))
            if not hit:
                continue
            seat, action = hit
            conn = _seat_conns(room)[seat]
            before = room.match.record()
            bad = {**action.to_json(), field: action.get(field) == 1}
            asyncio.run(
                protocol.answer(room, conn, orjson.dumps({"type": "act", "action": bad}).decode())
            )
            answer = conn.queue.popleft()
            assert answer["type"] == "error", bad
            assert room.match.record() == before
            seen.add(kind)
            break
    assert seen == {"news", "apple"}


def test_an_unexpected_error_is_answered_logged_and_the_socket_stays_open(
    app: FastAPI,
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    created = new_room(client)

    def bug(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        with monkeypatch.context() as patch:
            patch.setattr(Room, "act", bug)
            l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
            error = receive(l_ws, "error")
        assert "could not handle this message" in error["message"]
        assert "a bug" in caplog.text
        l_ws.send_json({"type": "act", "action": {"kind": "follow"}})
        assert acknowledged(l_ws)["accepted"] == 0


def test_every_message_type_gets_an_answer(client: TestClient) -> None:
    created = new_room(client)
    finish_by_accusation(client, created)
    with client.websocket_connect(ws_path(created["links"]["seats"][0])) as ws:
        view_at(ws, 2)
        for message, answer in (
            ({"type": "ping"}, "pong"),
            ({"type": "rematch"}, "rematch"),
            # The rematch exists now: asking again still gets this connection's link.
            ({"type": "rematch"}, "rematch"),
            ({"type": "act", "action": {"kind": "follow"}}, "error"),
            ({"type": "name", "name": "Zed"}, "named"),
            ({"type": "chat", "text": "good game"}, "chat"),
        ):
            ws.send_json(message)
            assert receive(ws, answer)["type"] == answer


@pytest.mark.parametrize(
    ("origin", "allowed", "opens"),
    [
        (None, (), True),  # no Origin: not a browser page (a terminal client, a bot)
        ("http://testserver", (), True),  # the server's own pages
        ("https://testserver", (), True),
        ("http://evil.example", (), False),
        ("http://testserver.evil.example", (), False),
        ("null", (), False),
        ("https://friend.example", ("https://friend.example",), True),
        ("https://friend.example:8443", ("https://friend.example",), False),
    ],
)
def test_the_websocket_checks_the_origin(
    tmp_path: Path, origin: str | None, allowed: tuple[str, ...], opens: bool
) -> None:
    limits = Limits(room_rate="100/minute", allowed_origins=allowed)
    with TestClient(create_app(str(tmp_path / "rooms.db"), limits=limits)) as client:
        created = new_room(client)
        headers = {"origin": origin} if origin else {}
        link = ws_path(created["links"]["seats"][1])
        if opens:
            with client.websocket_connect(link, headers=headers) as ws:
                assert view_at(ws, 0)["seat"] == 1
        else:
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(link, headers=headers),
            ):
                pass
            assert refused.value.code == 4403


# -- §4: nobody can deal themselves the secret ------------------------------------------


@pytest.mark.parametrize(
    ("seats", "allowed"),
    [
        ([{"kind": "human"}, {"kind": "human"}], False),
        (None, False),  # two people by default
        ([{"kind": "human"}, {"kind": "bot"}], True),
        ([{"kind": "bot"}, {"kind": "human"}], True),
        ([{"kind": "bot"}, {"kind": "bot"}], True),
    ],
)
def test_a_chosen_seed_needs_every_other_seat_to_be_a_bot(
    client: TestClient, seats: Any, allowed: bool
) -> None:
    body: dict[str, Any] = {"game": "confrontation", "seed": 5}
    if seats is not None:
        body["seats"] = seats
    response = client.post("/api/rooms", json=body)
    if not allowed:
        assert response.status_code == 400
        assert "every other seat is a bot" in response.json()["error"]
        return
    assert response.status_code == 201
    created = response.json()
    # The room says so to everyone: spectators and every seat alike.
    with client.websocket_connect(ws_path(created["links"]["spectator"])) as ws:
        assert view_at(ws, 0)["room"]["seed_chosen"] is True
    info = client.get(f"/api/rooms/{created['room']}?token={created['creator_token']}")
    assert info.json()["room"]["seed_chosen"] is True


def test_a_chosen_seed_reproduces_the_deal_and_an_unchosen_one_is_secret(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = new_room(client, seats=[{"kind": "human"}, {"kind": "bot"}], seed=5)
    room = app.state.manager.get(chosen["room"])
    assert room.match.seed == 5
    drawn: list[int] = []
    real = rooms_module.secrets.randbelow

    def randbelow(n: int) -> int:
        drawn.append(real(n))
        return drawn[-1]

    monkeypatch.setattr(rooms_module.secrets, "randbelow", randbelow)
    secret = new_room(client)
    assert app.state.manager.get(secret["room"]).match.seed == drawn[-1]
    with client.websocket_connect(ws_path(secret["links"]["spectator"])) as ws:
        assert view_at(ws, 0)["room"]["seed_chosen"] is False


def test_a_chosen_seed_deals_what_match_create_deals_so_l_names_kira_on_day_1(
    client: TestClient,
) -> None:
    # Why a chosen seed is allowed only against bots: its chooser knows the whole deal.
    seed = 5
    identity = Match.create("confrontation", 2, seed).view(OMNISCIENT)["state"]["identity"]
    created = new_room(client, seats=[{"kind": "bot"}, {"kind": "human"}], seed=seed)
    with client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws:
        view_at(l_ws, 0)
        l_ws.send_json({"type": "act", "action": {"kind": "accuse"}})
        view_at(l_ws, 1)
        l_ws.send_json({"type": "act", "action": {"kind": "name", "suspect": identity}})
        end = view_at(l_ws, 2)
    outcome = end["view"]["outcome"]
    assert outcome is not None and outcome["condition"] == "accusation_right"


def test_no_seat_learns_the_drawn_seed(app: FastAPI, client: TestClient) -> None:
    created = new_room(client)
    room = created["room"]
    seed = app.state.manager.storage.load_room(room).seed
    seen: list[str] = [orjson.dumps(created).decode()]
    tokens = [link.split("token=")[1] for link in created["links"]["seats"]]
    tokens += [created["links"]["spectator"].split("token=")[1], created["creator_token"]]
    for token in tokens:
        seen.append(client.get(f"/api/rooms/{room}?token={token}").text)
    with (
        client.websocket_connect(ws_path(created["links"]["seats"][0])) as kira,
        client.websocket_connect(ws_path(created["links"]["spectator"])) as spectator,
        client.websocket_connect(ws_path(created["links"]["seats"][1])) as l_ws,
    ):
        for ws in (kira, spectator, l_ws):
            seen.append(ws.receive_text())
        l_ws.send_json({"type": "act", "action": {"kind": "accuse"}})
        while (text := l_ws.receive_text()) and '"step":1' not in text:
            seen.append(text)
        seen.append(text)
        legal = orjson.loads(text)["view"]["legal"]
        l_ws.send_json({"type": "act", "action": {"kind": legal[0]["kind"], **_args(legal[0])}})
        for ws in (kira, spectator, l_ws):
            while '"outcome":null' in (text := ws.receive_text()) or '"type":"view"' not in text:
                seen.append(text)
            seen.append(text)
    # After the game too: every replay step from every viewer.
    for viewer in ("omniscient", "spectator", "0", "1"):
        for step in (0, 1, 2):
            seen.append(
                client.get(
                    f"/api/rooms/{room}/replay?token={tokens[0]}&viewer={viewer}&step={step}"
                ).text
            )
    blob = "\n".join(seen)
    assert '"seed"' not in blob
    assert str(seed) not in blob


def _args(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in ("kind", "label")}
