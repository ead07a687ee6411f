"""Real-browser tests: people play through the pages exactly as they would.

Kept few and fast: one whole Confrontation game between two browser contexts (a laptop
and a phone-sized screen) with the secrecy of Kira's identity checked on the wire, and a
5-seat room with one person and four bots.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from deathnote.engine import delta
from deathnote.engine.registry import games
from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

MAX_CLICKS = 600
MAX_SECONDS = 240.0
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


def choose_and_click(page: Any, rng: random.Random, avoid: tuple[str, ...] = ()) -> bool:
    """Click one of the page's choice buttons (if it has any); True when it clicked."""
    buttons = page.locator("#app button.choice:not([disabled])")
    count = buttons.count()
    if not count:
        return False
    kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(count)]
    allowed = [i for i, kind in enumerate(kinds) if kind not in avoid] or list(range(count))
    step = page.locator("#app").get_attribute("data-step")
    try:
        buttons.nth(rng.choice(allowed)).click(timeout=3000)
        page.wait_for_function(
            "s => document.getElementById('app').dataset.step !== s", arg=step, timeout=5000
        )
    except Exception:  # the screen was redrawn under the click: look again
        return False
    return True


def is_over(page: Any) -> bool:
    return page.locator("#app").get_attribute("data-over") == "yes"


def test_two_people_play_a_whole_confrontation_game(browser: Any, server: LiveServer) -> None:
    rng = random.Random(2024)
    laptop = browser.new_context(viewport=LAPTOP)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        # Kira's player makes the room in the lobby with a person in each seat.
        lobby = laptop.new_page()
        lobby.goto(server.base + "/")
        lobby.select_option("#game", "confrontation")
        lobby.select_option("select[data-seat='1']", "human")
        lobby.click("#create")
        invites = lobby.locator("#links a.invite")
        invites.first.wait_for(timeout=10000)
        kira_link, l_link = (
            invites.nth(0).get_attribute("href"),
            invites.nth(1).get_attribute("href"),
        )

        l_page = phone.new_page()
        frames: list[str] = []
        l_page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived",
                lambda payload: frames.append(
                    payload if isinstance(payload, str) else payload.decode()
                ),
            ),
        )
        l_page.goto(server.base + l_link)
        kira_page = laptop.new_page()
        kira_page.goto(server.base + kira_link)
        kira_page.locator("#app[data-step]").wait_for(timeout=10000)
        l_page.locator("#app[data-step]").wait_for(timeout=10000)

        # The phone screen has no sideways scrolling.
        assert l_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert kira_page.locator(".local-area").count() == 1  # Kira sees his Local Area
        assert l_page.locator(".local-area").count() == 0

        l_html: list[str] = []
        shot: set[int] = set()
        clicks = 0
        deadline = time.monotonic() + MAX_SECONDS
        while not (is_over(kira_page) and is_over(l_page)):
            assert clicks < MAX_CLICKS and time.monotonic() < deadline, "the game did not end"
            # Play a real game: L holds back the accusation for a while.
            avoid = ("accuse",) if clicks < 80 else ()
            acted = False
            for page in (l_page, kira_page):
                if not is_over(page) and choose_and_click(page, rng, avoid):
                    acted = True
                    clicks += 1
            if not is_over(l_page):
                l_html.append(l_page.content())
                for mark in (6, 30):  # mid-game, as each person sees it
                    if clicks >= mark and mark not in shot:
                        shot.add(mark)
                        for who, page in (("l-phone", l_page), ("kira-laptop", kira_page)):
                            name = f"confrontation-two-people-{who}-{mark}.png"
                            page.screenshot(path=str(ARTIFACTS / name))
            if not acted:
                kira_page.wait_for_timeout(50)

        assert clicks >= 10  # a real game, not an accusation on day 1
        assert kira_page.locator("#outcome").is_visible()
        assert l_page.locator("#outcome").is_visible()
        won = kira_page.locator("#outcome .winners").inner_text()
        assert re.fullmatch(r"Winners: (Kira|L)", won), won  # by seat name, not "l"
        check_no_identity_before_the_end(frames, l_html)
        for who, page in (("l-phone", l_page), ("kira-laptop", kira_page)):
            page.screenshot(path=str(ARTIFACTS / f"confrontation-two-people-{who}-end.png"))

        # The replay steps through the game as any seat.
        kira_page.click("#replay-link")
        kira_page.locator("#step-count").wait_for(timeout=10000)
        total = int(kira_page.locator("#step-count").inner_text().split("/")[1])
        assert total >= 2
        kira_page.select_option("#viewer", "1")
        kira_page.locator("#notebook").wait_for(timeout=10000)
        kira_page.click("#prev")
        kira_page.wait_for_function(
            "t => document.getElementById('step-count').textContent.startsWith('step ' + (t - 1))",
            arg=total,
            timeout=10000,
        )

        # Rematch (the button waits a moment after the end so that a late tap cannot start one):
        # L's page moves to L's own seat of a new room with the same seats.
        old_url = l_page.url
        l_page.click("#rematch")
        l_page.wait_for_url(lambda url: url != old_url, timeout=10000)
        l_page.locator("#app[data-step='0']").wait_for(timeout=10000)
        assert l_page.locator(".who").inner_text() == "You are L"
    finally:
        laptop.close()
        phone.close()


def check_no_identity_before_the_end(frames: list[str], l_html: list[str]) -> None:
    """Neither L's WebSocket messages nor L's page held Kira's identity before the end."""
    messages = [json.loads(f) for f in frames]
    views = [m for m in messages if m["type"] == "view"]
    state = None
    for message in views:  # later views patch the state of the one before (play.js)
        if "patch" in message["view"]:
            message["view"]["state"] = delta.patch(state, message["view"].pop("patch"))
        state = message["view"]["state"]
    end = next(i for i, m in enumerate(views) if m["view"]["outcome"] is not None)
    identity = views[end]["view"]["state"]["identity"]
    assert identity, "the end reveals Kira's identity"
    secret = re.compile(rf"\bSuspect {identity}\b|\"identity\":\"{identity}\"")
    before = [f for f in frames if '"outcome":null' in f or '"type":"view"' not in f]
    assert len(before) >= end
    for frame in before:
        assert '"local_area"' not in frame and '"notebooks"' not in frame
        assert not secret.search(frame), frame[:300]
    for message in views[:end]:
        assert message["view"]["state"]["identity"] is None
        assert message["view"]["state"]["notebook"]["role"] == "l"
    # On the page every Home is named alike ("Suspect X's Home"); nothing else may name it.
    named = re.compile(rf"\bSuspect {identity}\b(?!'s Home\")")
    for html in l_html:
        assert "local-area" not in html and "kira-home" not in html
        assert "Kira was Suspect" not in html and "You are Suspect" not in html
        assert not named.search(html)


FIVE_SEAT_GAMES = ["werewolf", "icg", "enquete"]


@pytest.mark.parametrize("game", FIVE_SEAT_GAMES)
def test_a_five_seat_room_with_one_person_and_four_bots(
    browser: Any, server: LiveServer, game: str
) -> None:
    if game not in games():
        pytest.skip(
            f"{game} is not registered on this branch yet (it is being built in parallel); "
            "the same path runs today with enquete"
        )
    spec = games()[game]
    if not spec.min_players <= 5 <= spec.max_players:
        pytest.skip(f"{game} is not played by 5 ({spec.min_players}-{spec.max_players} players)")
    created = server.post(
        "/api/rooms",
        {
            "game": game,
            "players": 5,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 4,
            "seed": 11,
        },
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    rng = random.Random(5)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][0])
        page.locator("#app[data-step]").wait_for(timeout=10000)
        clicks = 0
        deadline = time.monotonic() + MAX_SECONDS
        while not is_over(page):
            assert clicks < MAX_CLICKS and time.monotonic() < deadline, "the game did not end"
            if choose_and_click(page, rng):
                clicks += 1
            else:
                page.wait_for_timeout(50)
        assert page.locator("#outcome").is_visible()
        seats = page.locator("ul.seats li.seat")
        assert seats.count() == 5
        assert page.locator("ul.seats .tag", has_text="bot").count() == 4
        assert clicks > 0
    finally:
        context.close()


def test_the_creator_hands_an_absent_seat_to_a_bot_from_the_room_page(
    browser: Any, server: LiveServer
) -> None:
    created = server.post("/api/rooms", {"game": "confrontation"})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["admin"])
        page.locator("#links a.invite").first.wait_for(timeout=10000)
        assert page.locator("#links a.invite").count() == 4  # two seats, spectators, this page
        page.click("button.hand[data-seat='0']")
        # the bot by its level in words, never its agent's name ("heuristic")
        page.locator("li.seat[data-seat='0'] .tag", has_text="bot, easy").wait_for(timeout=10000)
        assert "heuristic" not in page.locator("#app").inner_text()
        info = server.get(f"/api/rooms/{created['room']}?token={created['creator_token']}")
        assert info["room"]["seats"][0]["kind"] == "bot"
    finally:
        context.close()


def test_the_lobby_sets_the_bot_that_takes_over_an_idle_seat(
    browser: Any, server: LiveServer
) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server.base + "/")
        page.locator("select[data-seat='1']").wait_for(timeout=10000)
        page.select_option("#game", "confrontation")
        page.select_option("select[data-seat='1']", "human")
        assert page.locator("#stand-in").input_value() == "heuristic"  # easy unless chosen
        page.select_option("#stand-in", "ismcts-hard")
        page.click("#create")
        admin = page.locator("#links a.invite").last
        admin.wait_for(timeout=10000)
        token = admin.get_attribute("href").split("token=")[1]
        room = admin.get_attribute("href").split("/room/")[1].split("?")[0]
        info = server.get(f"/api/rooms/{room}?token={token}")
        assert [s["stand_in"] for s in info["room"]["seats"]] == ["ismcts-hard"] * 2
    finally:
        page.close()


def test_the_lobby_fits_a_phone_for_every_game(browser: Any, server: LiveServer) -> None:
    """The seat menus (with the bot levels' longer names) never widen the page past 390 px,
    and every control of each game's form is at least 44 px each way."""
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server.base + "/")
        page.locator("select[data-seat='1']").wait_for(timeout=10000)
        for game in sorted(games()):
            page.select_option("#game", game)
            page.locator("select[data-seat='1']").wait_for(timeout=10000)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (game, width)
            assert small_targets(page) == [], game
    finally:
        page.close()


def test_a_wrong_or_unknown_link_shows_a_clear_page(browser: Any, server: LiveServer) -> None:
    """Never "Loading..." forever: a wrong token, an unknown room and a room page with a
    bad token each say the link does not open a game and offer a way on."""
    created = server.post("/api/rooms", {"game": "confrontation"})
    room = created["room"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        for path in (
            f"/play/{room}?token=not-a-seat",
            "/play/000000000000?token=whatever",
            f"/room/{room}?token=not-the-creator",
            f"/replay/{room}?token=nobody",
        ):
            page.goto(server.base + path)
            page.locator(".dead-end").wait_for(timeout=10000)
            text = page.locator("#app").inner_text()
            assert "This link does not open a game" in text, path
            assert "Loading" not in text, path
            assert page.locator(".dead-end a[href='/']").count() == 1
    finally:
        context.close()


@pytest.mark.parametrize("game", sorted(games()))
def test_every_registered_game_is_playable_on_the_generic_screen(
    browser: Any, server: LiveServer, game: str
) -> None:
    spec = games()[game]
    created = server.post(
        "/api/rooms",
        {
            "game": game,
            "players": spec.min_players,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (spec.min_players - 1),
            "seed": 3,
        },
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.base + created["links"]["seats"][0])
        page.locator("#app[data-step]").wait_for(timeout=10000)
        choices = page.locator("#app button.choice")
        choices.first.wait_for(timeout=10000)
        step = page.locator("#app").get_attribute("data-step")
        choices.first.click()
        page.wait_for_function(
            "s => document.getElementById('app').dataset.step !== s", arg=step, timeout=10000
        )
        assert page.locator("ol.log li").count() > 0
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # The log grown from deltas is the log a fresh page gets whole.
        page.wait_for_function(
            "() => document.querySelector('#app button.choice') || "
            "document.getElementById('app').dataset.over === 'yes'",
            timeout=10000,
        )
        screen = (
            "() => [Number(document.getElementById('app').dataset.step), "
            "[...document.querySelectorAll('ol.log li')].map((li) => li.innerText)]"
        )
        step, merged = page.evaluate(screen)  # read at once: bots may still move
        page.reload()
        page.wait_for_function(
            "s => Number(document.getElementById('app').dataset.step) >= s",
            arg=step,
            timeout=10000,
        )
        later, whole = page.evaluate(screen)
        # The same step shows the same log; a later one (bots moved) only adds to it.
        assert whole[: len(merged)] == merged and (later > step or whole == merged)
        assert errors == []
    finally:
        context.close()


def test_a_page_reconnects_by_itself_after_the_server_is_killed_and_restarted(
    browser: Any, tmp_path: Any
) -> None:
    live = LiveServer(tmp_path / "crash.db")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        created = live.post("/api/rooms", {"game": "confrontation"})
        page = context.new_page()
        page.goto(live.base + created["links"]["seats"][1])
        page.locator("#choices button.choice[data-kind='follow']").click(timeout=10000)
        page.locator("#app[data-step='1']").wait_for(timeout=10000)
        live.kill()
        page.locator("#status", has_text="reconnecting").wait_for(timeout=10000)
        live.start()
        page.locator("#status.ok").wait_for(timeout=15000)  # "connected"
        page.locator("#app[data-step='1']").wait_for(timeout=10000)
        # The game goes on from where it was: L now picks crime scene A or B.
        assert page.locator("#choices button.choice[data-kind='chase']").count() == 2
    finally:
        context.close()
        live.stop()


def small_targets(page: Any) -> list[str]:
    """Every visible control of the page under 44 px either way (a checkbox counts by the
    label it sits in, which is what a finger taps)."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll(
                   'button, a[href], [role=button], summary, select, input, textarea')]
                 .filter(b => b.checkVisibility())
                 .map(b => (b.type === 'checkbox' || b.type === 'radio')
                           && b.closest('label') ? b.closest('label') : b)
                 .map(b => [b.getBoundingClientRect(), (b.innerText || b.name || '').slice(0, 30)])
                 .filter(([r]) => r.width > 0 && (r.height < 44 || r.width < 44))
                 .map(([r, t]) => `${t} (${Math.round(r.width)}x${Math.round(r.height)})`)"""
        )
    )


def test_the_pages_beside_a_game_have_44_px_targets_on_a_phone(
    browser: Any, server: LiveServer
) -> None:
    """My rooms, the creator's room page and a leaderboard (the lobby's forms: above):
    every control at least 44 px each way on a 390 px phone, none scrolling sideways."""
    created = server.post("/api/rooms", {"game": "werewolf", "players": 5})
    page = browser.new_page(viewport=PHONE)
    try:
        for path, ready in (
            ("/rooms", "main"),
            (created["links"]["admin"], "ul.links a"),
            ("/leaderboard/werewolf", "main"),
        ):
            page.goto(server.base + path)
            page.locator(ready).first.wait_for(timeout=10000)
            page.wait_for_load_state("networkidle")
            assert small_targets(page) == [], path
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (path, width)
    finally:
        page.close()
