#!/usr/bin/env python3
"""A bot that takes a seat of a deathnote room over the play WebSocket and plays it.

    python examples/bot_client.py "http://127.0.0.1:8000/play/ROOM?token=TOKEN"

The URL is a seat link, as the room's creator sends it to a person. The bot speaks the same
protocol as the browser (documented in docs/protocol.md, schema at /api/protocol.json):
it reads ``view`` messages, and whenever its view holds a decision with legal actions it
sends one of them as ``{"type": "act", "action": ..., "step": n}``, then waits for the
answer (its next view with ``accepted``, or an ``error``) before it acts again. It chooses at random among the
legal actions (replace ``choose`` with your own policy: a language model, a search,
another program). The room's clock and limits apply to it as to a person: if its clock runs
out too often a bot plays its seat, and it takes the seat back (``take_back``). It prints
the outcome and exits 0 when the game is over.

Only the ``websockets`` package is needed beyond the standard library.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.sync.client import connect

IDLE_SECONDS = 30.0  # no message for this long: send a ping (people may think for minutes)
MAX_IDLE_SECONDS = 3600.0  # silent this long: give up
MAX_MESSAGES = 100_000
MAX_REFUSED = 50  # refused actions in all before the bot gives up
SEND_EVERY = 1 / 15  # seconds between two messages: the server takes 20 a second at most


def socket_url(link: str) -> str:
    """The WebSocket address of a seat link (http -> ws, /play/ -> /ws/)."""
    parts = urlsplit(link)
    if parts.scheme not in ("http", "https") or "/play/" not in parts.path:
        raise SystemExit(f"not a seat link: {link!r} (expected http://HOST/play/ROOM?token=...)")
    if not parse_qs(parts.query).get("token"):
        raise SystemExit("the link has no token")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path.replace('/play/', '/ws/', 1)}?{parts.query}"


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action to play: any legal one (without its label, which is for people)."""
    action = rng.choice(view["legal"])
    return {key: value for key, value in action.items() if key != "label"}


def play(link: str, name: str | None, key: str | None, seed: int | None, think: float) -> int:
    """Play the seat until the game is over; returns the exit code."""
    rng = random.Random(seed)
    last: dict[str, Any] | None = None  # the newest view message
    waiting = False  # an action of ours is on its way: send no other until it is answered
    ready_from = 0  # act only on views from this step on (older ones predate our action)
    taking_back = False
    refused = 0
    idle = 0.0
    sent_at = 0.0
    with connect(socket_url(link), open_timeout=10, max_size=2**24) as ws:

        def send(message: dict[str, Any]) -> None:
            nonlocal sent_at
            time.sleep(max(0.0, sent_at + SEND_EVERY - time.monotonic()))
            ws.send(json.dumps(message))
            sent_at = time.monotonic()

        if name:
            hello: dict[str, Any] = {"type": "name", "name": name}
            if key:
                hello["key"] = key
            send(hello)
        for _ in range(MAX_MESSAGES):
            try:
                message = json.loads(ws.recv(timeout=IDLE_SECONDS))
            except TimeoutError:
                idle += IDLE_SECONDS
                if idle >= MAX_IDLE_SECONDS:
                    break
                send({"type": "ping"})  # the others are thinking: stay connected
                continue
            idle = 0.0
            kind = message["type"]
            if kind == "view":
                # (Views after the first carry only the log after the step of the one
                # before, and often a state ``patch`` instead of the ``state``; this bot
                # reads neither: the decision, the legal actions and the outcome are whole.)
                last = message
                if message.get("accepted") is not None:
                    # The answer to our action: it is stored as that step.
                    waiting = False
                    ready_from = message["accepted"] + 1
                view = message["view"]
                if view["outcome"] is not None:
                    seats = view["seats"]
                    winners = ", ".join(seats[s] for s in view["outcome"]["winning_seats"])
                    print(f"game over after {message['step']} steps: {view['outcome']['reason']}")
                    print(f"winners: {winners or 'nobody'}; I was {seats[message['seat']]}")
                    return 0
                me = message["room"]["seats"][message["seat"]]
                if me["taken_over"] and not taking_back:
                    # Our clock ran out too often and a bot plays our seat: take it back.
                    print("a bot took my seat (my clock ran out): taking it back")
                    send({"type": "take_back"})
                    taking_back = True
            elif kind == "taken_back":
                taking_back = False
            elif kind == "error":
                print(f"server: {message['message']}", file=sys.stderr)
                waiting = taking_back = False
                if message["message"].startswith("too many messages"):
                    time.sleep(1.0)  # the rate is per second: wait for the next one
                elif "moved on" in message["message"] and last is not None:
                    ready_from = last["step"] + 1  # a newer view is on its way
                else:
                    refused += 1  # refused: choose again on the view we have
                    if refused > MAX_REFUSED:
                        return 1
            else:
                continue
            if last is None or waiting or taking_back or last["step"] < ready_from:
                continue
            view = last["view"]
            if view.get("decision") and view.get("legal"):
                if think:
                    time.sleep(think)  # a slow thinker (the same clocks apply to bots)
                action = choose(view, rng)
                send({"type": "act", "action": action, "step": last["step"]})
                waiting = True
    print("gave up: too many messages, or nothing heard for an hour", file=sys.stderr)
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="a seat link: http://HOST:PORT/play/ROOM?token=TOKEN")
    parser.add_argument("--name", help="the nickname to play under")
    parser.add_argument("--key", help="a player key (ratings: the same key, the same player)")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds to wait before each choice"
    )
    args = parser.parse_args()
    return play(args.url, args.name, args.key, args.seed, args.think)


if __name__ == "__main__":
    sys.exit(main())
