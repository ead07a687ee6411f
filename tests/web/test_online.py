"""Real-browser tests of playing together online: nicknames, presence, "your turn", my rooms,
chat, turn clocks and taking a seat back (issue 17)."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import LiveServer
from tests.web.test_boards import click_a_choice

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


#: Stands in for the page's AudioContext: counts the beeps ("your turn" with sound on).
COUNT_BEEPS = """
window.__beeps = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.__beeps += 1;
    return { frequency: {}, connect: (g) => g, start() {}, stop() {} };
  }
  createGain() { return { gain: {}, connect: (d) => d }; }
};
"""


def test_presence_your_turn_and_the_optional_sound(browser: Any, server: LiveServer) -> None:
    """Kira's screen shows L deciding (an open decision) and L away once L's page is
    closed; when Kira is asked, the title says so and, with the sound switched on, one beep
    (kept for the next page too)."""
    created = server.post("/api/rooms", {"game": "confrontation"})
    links = created["links"]
    kira_context = browser.new_context(viewport={"width": 1200, "height": 900})
    kira_context.add_init_script(COUNT_BEEPS)
    l_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        kira = kira_context.new_page()
        kira.goto(server.base + links["seats"][0])
        kira.locator("#sound").check()
        l_page = l_context.new_page()
        l_page.goto(server.base + links["seats"][1])
        l_seat = kira.locator("#app .seat[data-seat='1']")
        # L decides first, openly: Kira sees L connected and deciding, and waits.
        l_seat.locator(".tag.ask").filter(has_text="deciding").wait_for(timeout=10000)
        kira.locator("#app .seat.online[data-seat='1']").wait_for(timeout=10000)
        assert not kira.title().startswith("● Your turn")
        l_page.close()
        l_seat.locator(".tag.warn").filter(has_text="away").wait_for(timeout=10000)
        assert kira.evaluate("window.__beeps") == 0
        # L comes back and plays until Kira is asked.
        l_page = l_context.new_page()
        l_page.goto(server.base + links["seats"][1])
        l_page.locator("#app[data-online='yes']").wait_for(timeout=10000)
        kira.locator("#app .seat[data-seat='1'] .tag.warn").wait_for(
            state="detached", timeout=10000
        )
        deadline = time.monotonic() + 60
        while not kira.title().startswith("● Your turn"):
            assert time.monotonic() < deadline, "Kira was never asked"
            assert kira.locator("#app").get_attribute("data-over") != "yes"
            # (never an accusation: it would end the game before Kira is asked)
            buttons = l_page.locator("#app button.choice:not([disabled]):not([data-kind='accuse'])")
            if buttons.count():
                with contextlib.suppress(Exception):  # redrawn under the tap: look again
                    buttons.first.click(timeout=3000)
            l_page.wait_for_timeout(100)
        kira.wait_for_function("window.__beeps >= 1", timeout=5000)
        # The switch is kept in this browser.
        again = kira_context.new_page()
        again.goto(server.base + links["seats"][0])
        again.locator("#sound").wait_for(timeout=10000)
        assert again.locator("#sound").is_checked()
        again.close()
    finally:
        kira_context.close()
        l_context.close()


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
        # A spectator's word reaches the spectators' link only: never a player's page, nor
        # the creator's room page (the creator often plays too), which only reads.
        watcher.fill("#chat-text", "I can see both sides")
        watcher.click("#chat-form button")
        watcher.locator("#chat-spectators li").filter(has_text="I can see both sides").wait_for(
            timeout=10000
        )
        kira.fill("#chat-text", "after the spectator")
        kira.press("#chat-text", "Enter")
        for page in (l_page, admin):
            page.locator("#chat-players li").filter(has_text="after the spectator").wait_for(
                timeout=10000
            )
            assert page.locator("#chat-spectators").count() == 0
            assert "I can see both sides" not in page.locator("#chat").inner_text()
        assert admin.locator("#chat-form").count() == 0
        assert "null" not in watcher.locator("#chat").inner_text()
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


@pytest.fixture(scope="module")
def covert_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Clocks at 0.6 of their seconds (fast: 9 s a decision, 36 s reserve): time enough to
    look at every screen before a covert decision runs out, even on a busy machine."""
    live = LiveServer(tmp_path_factory.mktemp("covert") / "rooms.db", start=False)
    live.extra = ["--clock-scale", "0.6"]
    live.start()
    yield live
    live.stop()


def test_a_covert_decision_times_out_alike_and_shows_its_clock_only_on_its_own_screen(
    browser: Any, covert_server: LiveServer
) -> None:
    """Two people and two bots play Werewolf with a fast clock; the people make their open
    choices at once and leave the first question put to everyone covertly unanswered. Each
    sees its own time left and no one else's; the spectator sees neither, nor anyone
    "deciding"; both run on the decision's seconds alone, and when they run out a bot
    answers for each, with no reserve spent and no timeout counted."""
    server = covert_server
    decision = 15 * 0.6
    rng = random.Random(5)
    contexts: list[Any] = []

    def info(room: str, token: str) -> dict[str, Any]:
        return dict(server.get(f"/api/rooms/{room}?token={token}"))

    def play_to_a_covert_question() -> tuple[Any, ...] | None:
        """Opens a new room on three screens and answers its open questions until one of
        the people is asked covertly; None when the game ends first (random play can end
        it, e.g. when both people are out before a night)."""
        created = server.post(
            "/api/rooms",
            {
                "game": "werewolf",
                "players": 4,
                "clock": "fast",
                "seats": [{"kind": "human"}] * 2 + [{"kind": "bot", "agent": "random"}] * 2,
            },
        )
        links = created["links"]
        room = created["room"]
        tokens = [link.split("token=")[1] for link in (links["seats"][0], links["seats"][1])]
        watcher_token = links["spectator"].split("token=")[1]
        contexts[:] = [
            browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True),
            browser.new_context(viewport={"width": 1280, "height": 800}),
            browser.new_context(viewport={"width": 1280, "height": 800}),
        ]
        pages = [contexts[0].new_page(), contexts[1].new_page()]
        watcher = contexts[2].new_page()
        for seat, page in enumerate(pages):
            page.goto(server.base + links["seats"][seat])
        watcher.goto(server.base + links["spectator"])
        for page in (*pages, watcher):
            page.locator("#clocks").wait_for(timeout=10000)
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "no covert question within 120 s"
            own = [info(room, t) for t in tokens]
            seen = info(room, watcher_token)["room"]
            if seen["finished"]:
                return None
            if {o["room"]["step"] for o in own} != {seen["step"]}:
                continue  # the table moved between the answers: look again
            asked = [s for s in (0, 1) if own[s]["you"]["asked"]]
            # Asked, its own screen shown its clock running and the spectator's not: a
            # covert question. (A seat whose clock is not running at all, e.g. one a bot
            # has kept after its timeouts, shows it to nobody: that is not covertness.)
            covert = [
                s
                for s in asked
                if "left" in own[s]["room"]["seats"][s]["clock"]
                and "left" not in seen["seats"][s]["clock"]
            ]
            if covert:
                return room, tokens, watcher_token, pages, watcher, own, seen, covert
            for seat in asked:
                click_a_choice(pages[seat], rng)
            pages[0].wait_for_timeout(50)

    try:
        found = None
        for _ in range(4):  # each game ends before a covert question only now and then
            found = play_to_a_covert_question()
            if found is not None:
                break
            for context in contexts:
                context.close()
            contexts.clear()
        assert found is not None, "four games in a row ended before a covert question"
        room, tokens, watcher_token, pages, watcher, own, seen, covert = found
        before = [(s["clock"]["reserve"], s["clock"]["timeouts"]) for s in seen["seats"][:2]]
        step = seen["step"]
        for seat in covert:
            # Its own screen counts its time down: the decision's seconds, no reserve.
            mine = pages[seat].locator(f"#clocks .clock[data-seat='{seat}']")
            mine.filter(has_text="left").wait_for(timeout=3000)
            left = own[seat]["room"]["seats"][seat]["clock"]["left"]
            assert 0 <= left <= decision  # (the reserve would add 36 s)
            # No other screen shows it: not the other person's, not the spectator's.
            for page in (pages[1 - seat], watcher):
                shown = page.locator(f"#clocks .clock[data-seat='{seat}']")
                assert shown.filter(has_text="left").count() == 0
            assert watcher.locator(f"#app .seat[data-seat='{seat}'] .tag.ask").count() == 0
        # Nobody answers: within the decision's seconds a bot answers for each.
        for seat in covert:
            end = time.monotonic() + decision + 10
            while (
                info(room, tokens[seat])["you"]["asked"]
                and info(room, watcher_token)["room"]["step"] == step
            ):
                assert time.monotonic() < end, "the covert question did not time out"
                time.sleep(0.1)
        after = info(room, watcher_token)["room"]
        assert after["step"] > step
        assert [
            (s["clock"]["reserve"], s["clock"]["timeouts"]) for s in after["seats"][:2]
        ] == before
        assert all(s["kind"] == "human" for s in after["seats"][:2])
    finally:
        for context in contexts:
            context.close()


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
