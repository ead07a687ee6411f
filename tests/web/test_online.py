"""Real-browser tests of playing together online: nicknames, presence, "your turn", my rooms,
chat, turn clocks and taking a seat back (issue 17)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_a_nickname_is_shown_everywhere_and_my_rooms_lists_the_room(
    browser: Any, server: LiveServer
) -> None:
    created = server.post("/api/rooms", {"game": "confrontation"})
    links = created["links"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    creator = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.base + links["seats"][1])
        page.locator("#nick").wait_for(timeout=10000)
        # L decides first: the page title says so.
        page.wait_for_function("document.title.startsWith('● Your turn')", timeout=10000)
        page.fill("#nick", "<i>Ryu</i>")
        page.click("#nick-form button[type=submit]")
        page.locator("#nick-shown").wait_for(timeout=10000)
        assert page.locator("#nick-shown strong").text_content() == "<i>Ryu</i>"
        seat = page.locator("#app .seat[data-seat='1'] strong")
        seat.filter(has_text="<i>Ryu</i> (L)").wait_for(timeout=10000)
        # Shown as text: no element was made from the name.
        assert page.locator("#app .seat i, #table-bar i").count() == 0

        # The creator's room page says which link went to whom.
        admin = creator.new_page()
        admin.goto(server.base + links["admin"])
        joined = admin.locator("#joined li[data-seat='1']")
        joined.filter(has_text="L's link: <i>Ryu</i>").wait_for(timeout=10000)
        assert (
            "nobody has chosen a name yet"
            in admin.locator("#joined li[data-seat='0']").inner_text()
        )

        # "My rooms" in the same browser lists the room with its state.
        page.goto(server.base + "/rooms")
        item = page.locator(f"#my-rooms li[data-room='{created['room']}']")
        item.wait_for(timeout=10000)
        assert "your turn" in item.inner_text()
        assert "Confrontation" in item.inner_text()
        assert created["room"] not in item.inner_text()  # no internal id in the words
    finally:
        context.close()
        creator.close()


def test_chat_between_two_people_a_spectator_and_the_creator_who_mutes(
    browser: Any, server: LiveServer
) -> None:
    created = server.post("/api/rooms", {"game": "confrontation"})
    links = created["links"]
    contexts = [browser.new_context(viewport=PHONE) for _ in range(4)]
    try:
        kira, l_page, watcher, admin = (c.new_page() for c in contexts)
        kira.goto(server.base + links["seats"][0])
        l_page.goto(server.base + links["seats"][1])
        watcher.goto(server.base + links["spectator"])
        admin.goto(server.base + links["admin"])
        for page in (kira, l_page, watcher):
            page.locator("#chat-form").wait_for(timeout=10000)
        attack = "<img src=x onerror=\"document.title='pwned'\"> hello"
        kira.fill("#chat-text", attack)
        kira.press("#chat-text", "Enter")
        for page in (kira, l_page, watcher, admin):
            line = page.locator("#chat-players li").last
            line.filter(has_text="hello").wait_for(timeout=10000)
            assert line.inner_text() == f"Kira:{attack}"
            assert page.locator("#chat img").count() == 0
        assert "pwned" not in l_page.title()
        # A spectator's word reaches spectators and the creator, never a player's page.
        watcher.fill("#chat-text", "I can see both sides")
        watcher.click("#chat-form button")
        for page in (watcher, admin):
            page.locator("#chat-spectators li").filter(has_text="I can see both sides").wait_for(
                timeout=10000
            )
        assert l_page.locator("#chat-spectators").count() == 0
        assert "null" not in watcher.locator("#chat").inner_text()
        assert "I can see both sides" not in l_page.locator("#chat").inner_text()
        # The creator mutes L: L's next message is refused, with the reason on the page.
        admin.locator("#joined button.mute[data-seat='1']").click()
        admin.locator("#joined button.mute[data-seat='1']").filter(
            has_text="Unmute in chat"
        ).wait_for(timeout=10000)
        l_page.fill("#chat-text", "you cannot silence me")
        l_page.press("#chat-text", "Enter")
        l_page.locator("#status").filter(has_text="muted").wait_for(timeout=10000)
        assert "you cannot silence me" not in kira.locator("#chat").inner_text()
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(scope="module")
def clocked_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose clocks run 10 times faster (fast: 1.5 s a decision, 6 s reserve),
    handing a seat to a bot after 2 timeouts."""
    live = LiveServer(tmp_path_factory.mktemp("clock") / "rooms.db", start=False)
    live.extra = ["--clock-scale", "0.1", "--clock-timeouts", "2"]
    live.start()
    yield live
    live.stop()


def test_the_clock_runs_out_a_bot_takes_the_seat_and_the_person_takes_it_back(
    browser: Any, clocked_server: LiveServer
) -> None:
    server = clocked_server
    created = server.post("/api/rooms", {"game": "confrontation", "clock": "fast"})
    links = created["links"]
    room = created["room"]
    spectator_token = links["spectator"].split("token=")[1]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watcher_context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.base + links["seats"][1])
        watcher = watcher_context.new_page()
        watcher.goto(server.base + links["spectator"])
        # The clock is shown on the seat's screen and the spectator's, counting down.
        for shown in (page, watcher):
            shown.locator("#clocks .clock[data-seat='1']").filter(has_text="left").wait_for(
                timeout=10000
            )
        assert "fast" in page.locator("#clocks").inner_text()
        # L never chooses: two timeouts (7.5 s, then 1.5 s) and a bot takes the seat.
        page.locator("#take-back").wait_for(timeout=20000)
        assert "A bot plays your seat now" in page.locator("#table-bar").inner_text()
        info = server.get(f"/api/rooms/{room}?token={spectator_token}")["room"]
        assert info["seats"][1]["kind"] == "bot" and info["seats"][1]["clock"]["timeouts"] == 2
        page.click("#take-back")
        page.locator("#status").filter(has_text="yours again").wait_for(timeout=10000)
        info = server.get(f"/api/rooms/{room}?token={spectator_token}")["room"]
        assert info["seats"][1]["kind"] == "human"
        assert info["seats"][1]["clock"]["timeouts"] < 2
        page.locator("#take-back").wait_for(state="detached", timeout=2000)
    finally:
        context.close()
        watcher_context.close()


def test_a_rated_game_in_the_browser_puts_the_player_on_the_leaderboard(
    browser: Any, server: LiveServer
) -> None:
    created = server.post(
        "/api/rooms",
        {
            "game": "confrontation",
            "seats": [{"kind": "bot", "agent": "heuristic"}, {"kind": "human"}],
            "rated": True,
        },
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][1])
        page.locator("#leaderboard-link").wait_for(timeout=10000)
        page.fill("#nick", "Near")
        page.click("#nick-form button[type=submit]")
        page.locator("#nick-shown").wait_for(timeout=10000)
        page.fill("#chat-text", "I accuse at once")
        page.press("#chat-text", "Enter")
        page.locator("#chat-players li").filter(has_text="I accuse at once").wait_for(timeout=10000)
        # L accuses at once and names a suspect: the game ends either way.
        for _ in range(20):
            if page.locator("#app").get_attribute("data-over") == "yes":
                break
            buttons = page.locator("#app button.choice:not([disabled])")
            if buttons.count():
                accuse = page.locator("#app button.choice[data-kind='accuse']:not([disabled])")
                (accuse if accuse.count() else buttons).first.click(timeout=5000)
            page.wait_for_timeout(200)
        assert page.locator("#app").get_attribute("data-over") == "yes"
        # The replay shows the table's chat beside the game.
        replay = context.new_page()
        replay.goto(server.base + page.locator("#replay-link").get_attribute("href"))
        replay.locator("#chat-players li").filter(has_text="Near (L):I accuse at once").wait_for(
            timeout=10000
        )
        assert replay.locator("#chat-form").count() == 0  # read only
        replay.close()
        page.click("#leaderboard-link")
        table = page.locator("#leaderboard")
        table.wait_for(timeout=10000)
        rows = table.locator("tbody tr")
        assert "Near" in rows.all_inner_texts()[0] + rows.all_inner_texts()[-1]
        assert "(bot)" in table.inner_text()
        # The key stays in the browser: never on the page.
        key = page.evaluate("JSON.parse(localStorage.getItem('deathnote.player'))")
        assert len(key) >= 16 and key not in page.content()
    finally:
        context.close()
