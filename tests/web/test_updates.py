"""Updates that keep your place (issue 16 §3), in Chromium: an update changes only what
changed, so the log keeps its scroll (or follows the newest entry when it was at the end),
focus and hover stay, a tap that lands after its choice left the screen says so, and a tap
while the connection is down is kept and sent once it is back.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LOG_AT_END = "l => l.scrollTop + l.clientHeight >= l.scrollHeight - 8"


def step_of(page: Any) -> int:
    return int(page.locator("#app").get_attribute("data-step"))


def tap_and_wait(page: Any, rng: random.Random) -> bool:
    """Tap one live choice; True once the screen shows a later step."""
    buttons = page.locator("#app button.choice:not([disabled])")
    if not buttons.count():
        return False
    step = page.locator("#app").get_attribute("data-step")
    try:
        buttons.nth(rng.randrange(buttons.count())).click(timeout=3000)
        page.wait_for_function(
            "s => document.getElementById('app').dataset.step !== s", arg=step, timeout=5000
        )
    except Exception:  # the game ended or moved under the tap: look again
        return False
    return True


def test_an_update_keeps_the_log_scroll_focus_and_hover(browser: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/rooms",
        {
            "game": "werewolf",
            "players": 5,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 4,
            "seed": 21,
        },
    )
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][0])
        page.locator(".board.werewolf").wait_for(timeout=10000)
        log = page.locator("#log")
        rng = random.Random(3)
        deadline = time.monotonic() + 60
        # Play until the log scrolls by more than a screenful of its own.
        while log.evaluate("l => l.scrollHeight - l.clientHeight") < 120:
            assert time.monotonic() < deadline, "the log never grew long enough to scroll"
            assert page.locator("#app").get_attribute("data-over") != "yes", "game too short"
            if not tap_and_wait(page, rng):
                page.wait_for_timeout(50)
        # A log that is at its end follows the newest entry.
        assert log.evaluate(LOG_AT_END)
        # Scrolled up: an update leaves it where the person put it.
        log.evaluate("l => { l.scrollTop = 40; l.__mark = 'kept'; }")
        log.focus()
        seat = page.locator(".board.werewolf li.seat[data-seat='2']")
        seat.evaluate("s => (s.__mark = 'kept')")
        title = page.locator("#app header h1")  # at the top: it never moves
        title.evaluate("t => (t.__mark = 'kept')")
        title.hover()
        entries = page.locator("#log li").count()
        moved = False
        while not moved:
            assert time.monotonic() < deadline, "no update came"
            if page.locator("#app").get_attribute("data-over") == "yes":
                pytest.fail("the game ended before an update could be checked")
            buttons = page.locator("#app button.choice:not([disabled])")
            if buttons.count():
                step = page.locator("#app").get_attribute("data-step")
                # pressed from the keyboard, so that the mouse stays on the seat
                buttons.first.evaluate("b => b.click()")
                page.wait_for_function(
                    "s => document.getElementById('app').dataset.step !== s",
                    arg=step,
                    timeout=5000,
                )
                moved = True
            else:
                page.wait_for_timeout(50)
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {entries}")
        assert log.evaluate("l => [l.__mark, l.scrollTop]") == ["kept", 40]
        assert page.evaluate("document.activeElement.id") == "log"
        assert seat.evaluate("s => s.__mark") == "kept"  # the same tile, changed in place
        assert title.evaluate("t => [t.__mark, t.matches(':hover')]") == ["kept", True]
        # Back at the end, the log follows the newest entry again.
        log.evaluate("l => (l.scrollTop = l.scrollHeight)")
        entries = page.locator("#log li").count()
        while page.locator("#log li").count() == entries:
            assert time.monotonic() < deadline, "no update came"
            if page.locator("#app").get_attribute("data-over") == "yes":
                break
            if not tap_and_wait(page, rng):
                page.wait_for_timeout(50)
        assert log.evaluate(LOG_AT_END)
    finally:
        context.close()


def act_elsewhere(server: LiveServer, link: str, page: Any, kind: str) -> None:
    """The same seat acts from another device: the page's choice of `kind` is taken."""
    choice = page.locator(f"button.choice[data-kind='{kind}']").first
    action = json.loads(choice.get_attribute("data-key"))
    with server.ws(link) as ws:
        ws.send(json.dumps({"type": "act", "action": action}))
        while json.loads(ws.recv(timeout=10)).get("accepted") is None:
            pass


def test_a_tap_on_a_choice_that_left_the_screen_says_so(browser: Any, server: LiveServer) -> None:
    created = server.post("/api/rooms", {"game": "confrontation"})
    link = created["links"]["seats"][1]  # L decides first: follow the lead or not
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.base + link)
        follow = page.locator("#choices button.choice[data-kind='follow']")
        follow.wait_for(timeout=10000)
        box = follow.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        act_elsewhere(server, link, page, "follow")  # the decision is gone under the finger
        page.locator("#app[data-step='1']").wait_for(timeout=10000)
        assert follow.count() == 0
        page.mouse.up()
        notice = page.locator("#notice")
        notice.wait_for(state="visible", timeout=5000)
        assert "gone" in notice.inner_text()
        assert step_of(page) == 1  # nothing else was sent
        # From the keyboard: the focused choice goes with its decision, focus lands on the next.
        page.locator("#choices button.choice").first.focus()
        act_elsewhere(server, link, page, "chase")
        page.wait_for_function(
            "() => !document.querySelector('#choices button.choice[data-kind=\"chase\"]')"
        )
        assert page.evaluate("document.activeElement.closest('#app') !== null")
        assert "gone" in notice.inner_text()
    finally:
        context.close()


def test_a_tap_while_offline_is_kept_and_sent_when_the_connection_is_back(
    browser: Any, tmp_path: Any
) -> None:
    live = LiveServer(tmp_path / "offline.db")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        created = live.post("/api/rooms", {"game": "confrontation"})
        page = context.new_page()
        page.goto(live.base + created["links"]["seats"][1])
        follow = page.locator("#choices button.choice[data-kind='follow']")
        follow.wait_for(timeout=10000)
        live.kill()
        page.locator("#app[data-online='no']").wait_for(timeout=10000)
        follow.click()
        notice = page.locator("#notice")
        notice.wait_for(state="visible", timeout=5000)
        assert "offline" in notice.inner_text().lower()
        assert step_of(page) == 0
        live.start()
        page.locator("#app[data-step='1']").wait_for(timeout=15000)  # sent once back
        assert "sent" in notice.inner_text()
        assert page.locator("#choices button.choice[data-kind='chase']").count() == 2
    finally:
        context.close()
        live.stop()
