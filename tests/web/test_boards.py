"""The drawn screens: one person plays a whole game against bots, on a phone and a laptop.

Each test reads the page as a person does: players by name, no internal id, enum value or
zero-based seat number, no sideways scrolling, buttons big enough to tap. Screenshots go to
``test-artifacts/web/`` (git-ignored) so that they can be looked at after the run.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from deathnote.engine.registry import games
from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
MAX_SECONDS = 90.0
# What no person should read: snake_case ids, zero-based seats, JSON leftovers.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bSeat \d\b|Winners: [a-z]\b|\bundefined\b|\bnull\b|\[object")


# The tap targets in #app whose middle, in sight, lies under another element (a larger hit
# area reaches over the gaps around it, never over a neighbour); a notice or dialog on top
# does not count.
COVERED = """() => [...document.querySelectorAll('#app button, #app [role=button], #app .clickable')]
         .filter(b => b.checkVisibility()).filter(b => {
           const r = b.getBoundingClientRect();
           const x = r.left + r.width / 2, y = r.top + r.height / 2;
           if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) return false;
           // a cell scrolled out of its map's frame is out of sight too
           for (let p = b.parentElement; p; p = p.parentElement) {
             if (getComputedStyle(p).overflow === 'visible') continue;
             const f = p.getBoundingClientRect();
             if (x < f.left || x > f.right || y < f.top || y > f.bottom) return false;
           }
           const hit = document.elementFromPoint(x, y);
           return hit && !b.contains(hit) && !hit.closest('.notice, dialog');
         }).map(b => b.outerHTML.slice(0, 80) + " under " + document.elementFromPoint(b.getBoundingClientRect().left + b.getBoundingClientRect().width / 2, b.getBoundingClientRect().top + b.getBoundingClientRect().height / 2).outerHTML.slice(0, 60))"""


def check_page(page: Any, game: str, width: int) -> None:
    """What a person reads and taps on the current screen (``width``: the viewport's)."""
    # The whole page: the screen, and the bar above it (name, sound, clocks).
    text = page.locator("body").inner_text()
    raw = RAW.search(text)
    assert raw is None, f"{game}: raw text {raw.group(0)!r} on the page"
    # A phone widens its layout viewport to fit what overflows: compare with the screen's width.
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= width and scroll[1] <= width, f"{game}: the page scrolls sideways"
    # The bar above the game and the chat below it line up with the game screen.
    edges = page.evaluate(
        """() => ['#table-bar', '#app .panel', '#chat'].map(s => document.querySelector(s))
             .filter(Boolean).map(e => [Math.round(e.getBoundingClientRect().left),
                                        Math.round(e.getBoundingClientRect().right)])"""
    )
    lefts = {left for left, _ in edges}
    assert max(lefts) - min(lefts) <= 4, f"{game}: the page's panels do not line up: {edges}"
    # Everything a person taps: every button, link and [role=button] on the page (choices,
    # names that open their text, the bar's and the chat's controls) and the choosable cells
    # of a map, at least 44 px each way.
    small = page.evaluate(
        """() => [...document.querySelectorAll(
                 'button, a[href], [role=button], summary, #app .clickable')]
             .filter(b => b.checkVisibility())
             .map(b => [b.getBoundingClientRect(), (b.innerText || b.title).slice(0, 30)])
             .filter(([r]) => r.width > 0 && (r.height < 44 || r.width < 44))
             .map(([r, t]) => `${t} (${Math.round(r.width)}x${Math.round(r.height)})`)"""
    )
    assert small == [], f"{game}: controls smaller than 44 px: {small}"
    # ... and no target covers another's middle (a larger hit area reaches over the gaps
    # around it, never over a neighbour), wherever one is in sight.
    covered = page.evaluate(COVERED)
    assert covered == [], f"{game}: controls covered by another: {covered}"
    # ... and every one of them is reachable by the keyboard.
    unreachable = page.evaluate(
        """() => [...document.querySelectorAll('#app button.choice, #app .clickable, #app [onclick]')]
             .filter(b => b.offsetParent !== null && (b.tabIndex < 0 || b.disabled === undefined
                          && b.getAttribute('role') !== 'button')).length"""
    )
    assert unreachable == 0, f"{game}: {unreachable} controls the keyboard cannot reach"


def check_info_dialog(page: Any, shot: str, where: str = "#app") -> str:
    """A Role or card named on the table (the first one inside ``where``) shows its text on
    a tap and from the keyboard (issue 16 §6); the dialog closes with Escape. Returns the
    dialog's title and text."""
    link = page.locator(f"{where} button.info-link:visible").first
    link.click()
    dialog = page.locator("dialog#info")
    dialog.wait_for(state="visible", timeout=5000)
    text = dialog.locator(".info-text").inner_text()
    assert text.strip() and not RAW.search(text), text
    text = dialog.locator("#info-title").inner_text() + "\n" + text
    page.screenshot(path=str(ARTIFACTS / shot))
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden", timeout=5000)
    link.focus()
    page.keyboard.press("Enter")
    dialog.wait_for(state="visible", timeout=5000)
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden", timeout=5000)
    return str(text)


def click_a_choice(page: Any, rng: random.Random) -> bool:
    """Tap one of the choices on the board (wherever it sits); True when the game moved."""
    buttons = page.locator("#app button.choice:not([disabled])")
    count = buttons.count()
    if not count:
        return False
    step = page.locator("#app").get_attribute("data-step")
    try:
        buttons.nth(rng.randrange(count)).click(timeout=3000)
        page.wait_for_function(
            "s => document.getElementById('app').dataset.step !== s", arg=step, timeout=5000
        )
    except Exception:  # the screen was redrawn under the tap: look again
        return False
    return True


def play_against_bots(
    browser: Any,
    server: LiveServer,
    game: str,
    players: int,
    size: str,
    seed: int,
    options: dict[str, Any] | None = None,
) -> Any:
    """One person in the first seat, bots in the others, played to the end; the last page."""
    if game not in games():
        pytest.skip(f"{game} is not registered")
    created = server.post(
        "/api/rooms",
        {
            "game": game,
            "players": players,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1),
            "seed": seed,
            "options": options or {},
        },
    )
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.base + created["links"]["seats"][0])
    page.locator("#app[data-step]").wait_for(timeout=10000)
    page.locator(f".board.{game}").wait_for(timeout=10000)
    # The rules in short open on a tap and stay open while the game moves on; they are the
    # game's own words (kept with the game, never written into a screen's script).
    page.locator("#rules summary").click()
    assert page.locator("#rules li").first.is_visible()
    assert page.locator("#rules li").all_inner_texts() == list(games()[game].rules_summary)
    rng = random.Random(seed)
    clicks = 0
    shots = 0
    name = f"{game}-{size}" + "".join(
        f"-{v}" for v in (options or {}).values() if isinstance(v, str)
    )
    deadline = time.monotonic() + MAX_SECONDS
    while page.locator("#app").get_attribute("data-over") != "yes":
        assert time.monotonic() < deadline, f"{game}: the game did not end"
        if click_a_choice(page, rng):
            clicks += 1
            if clicks in (1, 4, 12):
                check_page(page, game, width)
                page.screenshot(path=str(ARTIFACTS / f"{name}-{shots}.png"), full_page=True)
                shots += 1
        else:
            page.wait_for_timeout(50)
    page.locator("#outcome").wait_for(timeout=5000)
    assert page.locator("#rules li").first.is_visible()
    check_page(page, game, width)
    page.screenshot(path=str(ARTIFACTS / f"{name}-end.png"), full_page=True)
    assert clicks > 0
    assert errors == []
    return page


@pytest.mark.parametrize(("size", "seat"), [("phone", 0), ("laptop", 1), ("phone", 1)])
def test_confrontation_map_cells_are_big_enough_to_tap(
    browser: Any, server: LiveServer, size: str, seat: int
) -> None:
    """Kira (seat 0) taps the Nightly News criminal to kill, L (seat 1) the criminals to put
    on the news, on the map itself: each cell at least 44 px on a phone, the page never
    scrolling sideways (the map pans inside its frame), and a cell chosen by the keyboard."""
    created = server.post(
        "/api/rooms",
        {
            "game": "confrontation",
            "seats": [{"kind": "human"} if s == seat else {"kind": "bot"} for s in range(2)],
            "seed": 9,
        },
    )
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.base + created["links"]["seats"][seat])
        page.locator(".board.confrontation").wait_for(timeout=10000)
        page.locator("#rules summary").click()
        rng = random.Random(seat)
        cell_taps = keyboard_taps = 0
        deadline = time.monotonic() + MAX_SECONDS
        while page.locator("#app").get_attribute("data-over") != "yes":
            assert time.monotonic() < deadline, "the game did not end"
            cells = page.locator("#app .cell.clickable")
            if cells.count():
                check_page(page, "confrontation", width)
                if cell_taps == 0:
                    page.screenshot(
                        path=str(ARTIFACTS / f"confrontation-{size}-seat{seat}-cells.png"),
                        full_page=True,
                    )
                step = page.locator("#app").get_attribute("data-step")
                cell = cells.nth(rng.randrange(cells.count()))
                if keyboard_taps < cell_taps:  # every other one from the keyboard
                    cell.focus()
                    page.keyboard.press("Enter")
                    keyboard_taps += 1
                else:
                    cell.tap() if phone else cell.click()
                cell_taps += 1
                page.wait_for_function(
                    "s => document.getElementById('app').dataset.step !== s",
                    arg=step,
                    timeout=5000,
                )
            elif not click_a_choice(page, rng):
                page.wait_for_timeout(50)
        check_page(page, "confrontation", width)
        page.screenshot(
            path=str(ARTIFACTS / f"confrontation-{size}-seat{seat}-end.png"), full_page=True
        )
        assert cell_taps >= 2 and keyboard_taps >= 1
        assert page.locator("#rules li").first.is_visible()
        # The log speaks as the rulebook does: dice faces by name ("Knife", never the id
        # "knife"), Kira's Home by column and row counted from 1 (never "(10, 13)").
        log = page.locator("#log").inner_text()
        assert "L rolls" in log
        assert not re.search(r"\b(knife|gun|bomb)\b|\(\d+, \d+\)|\d pts\b", log), log
        # The map's key counts points as words do: "(1 pt)", never "(1 pts)".
        key = page.locator(".board.confrontation").inner_text()
        assert "(1 pt)" in key and not re.search(r"\b1 pts\b", key), key
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_werewolf_against_bots_on_the_drawn_table(
    browser: Any, server: LiveServer, size: str
) -> None:
    page = play_against_bots(browser, server, "werewolf", 5, size, seed=7)
    try:
        tiles = page.locator(".board.werewolf li.seat")
        assert tiles.count() == 5
        assert tiles.nth(0).inner_text().startswith("Player 1")
        # At the end every Role is shown on the table and the winners are named with theirs.
        assert page.locator(".role-chip.hidden").count() == 0
        winners = page.locator("#outcome .winners").inner_text()
        assert re.match(r"(Kira's|L's) team wins: Player \d \(\w", winners), winners
        assert page.locator("#me .card.role .card-name").inner_text()
        # Each Role on the table shows its text on a tap (every one is shown at the end).
        assert page.locator(".board.werewolf li.seat .role-chip button.info-link").count() == 5
        check_info_dialog(page, f"werewolf-{size}-role-text.png")
    finally:
        page.context.close()


@pytest.mark.parametrize(("size", "rules"), [("phone", "kira"), ("laptop", "light")])
def test_icg_against_bots_on_the_drawn_table(
    browser: Any, server: LiveServer, size: str, rules: str
) -> None:
    options = {"rules": rules, "shinigami_eyes": rules == "kira"}
    page = play_against_bots(browser, server, "icg", 5, size, seed=5, options=options)
    try:
        tiles = page.locator(".board.icg li.seat")
        assert tiles.count() == 5
        assert page.locator(".board.icg li.seat.red").count() == 1  # the red Placement
        # At the end the Missions are revealed on every seat, by name.
        assert page.locator(".board.icg li.seat", has_text="Mission: ").count() == 5
        winners = page.locator("#outcome .winners").inner_text()
        assert re.match(r"(Kira's|L's) team wins: Player \d \(", winners), winners
        assert page.locator("#me .card.role").count() == 2
        # My Mission card says what it asks; each revealed Mission, and each Clue card on the
        # table, shows its text on a tap (issue 16 §6).
        assert "team" in page.locator("#me .card.role").nth(1).locator(".card-text").inner_text()
        mission = check_info_dialog(page, f"icg-{size}-mission-text.png", ".seat-role")
        assert mission.startswith("Mission: ") and "team" in mission, mission
        clue = check_info_dialog(page, f"icg-{size}-clue-text.png", ".clue-row")
        assert re.match(r"Clue cards face up \(\d+\)\n(ID|Mission)-Clue: ", clue), clue
        # The Death Note board as the rulebook draws it: the eight Identities and the
        # Placement numbers; each name written so far is marked with its turn on the board.
        board = page.locator("#death-note")
        assert board.locator(".dn-identities .dn-id").count() == 8
        assert board.locator(".dn-placements .placement").all_inner_texts() == [
            str(n) for n in range(1, 9)
        ]
        assert board.locator(".dn-placements .unused").count() == 3  # 5 players
        for entry in board.locator(".dn-page li:not(.claim)").all_inner_texts():
            if "left empty" in entry:
                continue
            turn, who = re.match(r"Turn (\d+): (.+) at Placement", entry).groups()
            tile = board.locator(".dn-id", has_text=who)
            assert f"Turn {turn}" in tile.locator(".dn-written").inner_text(), entry
        board.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"icg-{size}-death-note-board.png"))
    finally:
        page.context.close()


@pytest.mark.parametrize(("size", "seed"), [("phone", 1), ("laptop", 2)])
def test_enquete_against_bots_on_the_drawn_table(
    browser: Any, server: LiveServer, size: str, seed: int
) -> None:
    page = play_against_bots(browser, server, "enquete", 5, size, seed=seed)
    try:
        tiles = page.locator(".board.enquete li.enq-seat")
        assert tiles.count() == 5
        # One Detective, marked at the table; on the phone it is this person (seed 1).
        assert page.locator(".board.enquete li.enq-seat.detective").count() == 1
        role = page.locator("#me .card.role .card-name").inner_text()
        assert (role == "The Detective") == (seed == 1), role
        assert page.locator("#apples tbody tr").count() == 5
        assert page.locator("#outcome .winners").inner_text().startswith("Apples this game: ")
        assert "of the series" in page.locator("#outcome").inner_text()  # ENQ-OPT-03
        assert page.locator("#rematch").inner_text() == "Next game of the series"
        # Each revealed Role shows its side and objectives on a tap.
        text = check_info_dialog(page, f"enquete-{size}-role-text.png")
        assert "Apple" in text, text
        # ... and so does each Role token revealed (dead or not) beside the table.
        text = check_info_dialog(page, f"enquete-{size}-token-text.png", ".tokens-line")
        assert "Apple" in text, text
    finally:
        page.context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_tcg_against_a_bot_on_the_drawn_table(browser: Any, server: LiveServer, size: str) -> None:
    page = play_against_bots(browser, server, "tcg", 2, size, seed=4)
    try:
        sides = page.locator(".board.tcg section.tcg-side")
        assert sides.count() == 2
        # My side is drawn last (nearest to me), with my hand under it as cards.
        assert sides.nth(1).get_attribute("data-seat") == "0"
        assert page.locator(".tcg-side", has_text="victory points").count() == 2
        winners = page.locator("#outcome .winners").inner_text()
        assert re.match(r"Player [12] \((Kira|L) deck\) wins\.", winners), winners
        # A card in a discard pile shows its printed text on a tap (issue 16 §6).
        text = check_info_dialog(page, f"tcg-{size}-discard-text.png", ".tcg-side .pile")
        assert len(text.splitlines()) >= 2, text
        # The Character File is drawn as cards, one per Character: name, cost and points,
        # and its printed text on a tap.
        page.locator("#character-file summary").click()
        files = page.locator("#character-file .file-card")
        assert files.count() >= 10
        assert re.fullmatch(
            r"Character · cost \d+ · \d+ points?", files.first.locator(".facts-line").inner_text()
        )
        page.locator("#character-file").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"tcg-{size}-character-file.png"))
        check_page(page, "tcg", SIZES[size][0])
        text = check_info_dialog(page, f"tcg-{size}-file-text.png", "#character-file")
        name = files.first.locator(".card-name").inner_text()
        assert text.startswith(name) and len(text.splitlines()) >= 2, text
        if size == "phone":  # a two-player game fits a phone without a page 11,000 px tall
            assert page.evaluate("document.documentElement.scrollHeight") < 6000
    finally:
        page.context.close()


def test_two_people_play_werewolf_on_two_screens(browser: Any, server: LiveServer) -> None:
    """A phone and a laptop at one 5-seat table with three bots: neither screen shows the
    other person's Role or hand before the rules show it."""
    created = server.post(
        "/api/rooms",
        {
            "game": "werewolf",
            "players": 5,
            # Two people at the table: the server draws the seed (a chosen one is refused).
            "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}] * 3,
        },
    )
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    laptop = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        pages = [phone.new_page(), laptop.new_page()]
        for seat, page in enumerate(pages):
            page.goto(server.base + created["links"]["seats"][seat])
            page.locator(".board.werewolf").wait_for(timeout=10000)
        rng = random.Random(12)
        deadline = time.monotonic() + MAX_SECONDS
        while not all(p.locator("#app").get_attribute("data-over") == "yes" for p in pages):
            assert time.monotonic() < deadline, "the game did not end"
            acted = False
            for seat, page in enumerate(pages):
                # Read the end mark and the tile at one moment: the last view (which shows
                # every Role) may arrive between two separate reads.
                over, tile = page.evaluate(
                    """s => [document.getElementById('app').dataset.over,
                             (document.querySelector(`.board.werewolf li.seat[data-seat='${s}']`)
                              || {innerText: 'role hidden'}).innerText.toLowerCase()]""",
                    1 - seat,
                )
                if over != "yes":
                    # the other person's Role: hidden, known through a card, or shown by death
                    assert "role hidden" in tile or "(you know)" in tile or "dead" in tile, tile
                    acted = click_a_choice(page, rng) or acted
            if not acted:
                pages[0].wait_for_timeout(50)
        for seat, page in enumerate(pages):
            check_page(page, "werewolf", 390 if seat == 0 else 1280)
            assert page.locator(".role-chip.hidden").count() == 0  # the end shows every Role
        pages[0].screenshot(path=str(ARTIFACTS / "werewolf-two-people-phone-end.png"))
    finally:
        phone.close()
        laptop.close()


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("werewolf", 7, {}),
        ("icg", 8, {"rules": "light"}),
        ("icg", 8, {"rules": "kira", "shinigami_eyes": True}),
        ("enquete", 8, {}),
    ],
)
def test_the_largest_table_fits_two_phone_screens(
    browser: Any, server: LiveServer, game: str, players: int, options: dict[str, Any]
) -> None:
    if game not in games():
        pytest.skip(f"{game} is not registered")
    created = server.post(
        "/api/rooms",
        {
            "game": game,
            "players": players,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1),
            "seed": 3,
            "options": options,
        },
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][0])
        page.locator(f".board.{game} #table ul.seats li.seat").first.wait_for(timeout=10000)
        assert page.locator("#table ul.seats li.seat").count() == players
        check_page(page, game, 390)
        # At every step of a whole game (the seats carry their buttons when a player is to
        # be chosen, and more Clues, marks and Roles as the game goes on), not only the first.
        rng = random.Random(players)
        tallest = 0
        deadline = time.monotonic() + MAX_SECONDS
        while page.locator("#app").get_attribute("data-over") != "yes":
            assert time.monotonic() < deadline, f"{game}: the game did not end"
            height = page.evaluate("document.querySelector('#table ul.seats').offsetHeight")
            if height > tallest:
                tallest = height
                page.screenshot(
                    path=str(
                        ARTIFACTS / f"{game}-{players}{options.get('rules', '')}-seats-tallest.png"
                    )
                )
            assert height <= 2 * 844, f"{players} seats take {height} px"
            if not click_a_choice(page, rng):
                page.wait_for_timeout(50)
        assert tallest > 0
    finally:
        context.close()


@pytest.mark.parametrize("seat", [0, 1])
def test_confrontation_abilities_show_their_text(
    browser: Any, server: LiveServer, seat: int
) -> None:
    """Chapter 2: each row of Ryuk's (Kira) or the Intel (L) tracker names its ability, and a
    tap or Enter shows what it does (issue 16 §6)."""
    created = server.post(
        "/api/rooms",
        {
            "game": "confrontation",
            "seats": [{"kind": "human"} if s == seat else {"kind": "bot"} for s in range(2)],
            "seed": 2,
            "options": {"chapter": 2},
        },
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][seat])
        page.locator("#notebook .tracker button.info-link").first.wait_for(timeout=10000)
        rows = page.locator("#notebook .tracker .row").count()
        assert page.locator("#notebook .tracker button.info-link").count() == rows > 0
        page.locator("#notebook").scroll_into_view_if_needed()
        text = check_info_dialog(page, f"confrontation-chapter2-seat{seat}-ability.png")
        assert len(text) > 20
    finally:
        context.close()


def test_an_icg_investigation_is_chosen_on_the_seat_by_its_kind(
    browser: Any, server: LiveServer
) -> None:
    """Kira rules, 8 seats: each seat carries two buttons, "Identity" and "Mission" (the seat
    names the player), whose accessible names are the full choice; a tap investigates."""
    created = server.post(
        "/api/rooms",
        {
            "game": "icg",
            "players": 8,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 7,
            "seed": 3,
            "options": {"rules": "kira"},
        },
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][0])
        page.locator(".icg-seat button.choice").first.wait_for(timeout=10000)
        tile = page.locator(".icg-seat[data-seat='2']")
        assert tile.locator("button.choice").all_inner_texts() == ["Identity", "Mission"]
        check_page(page, "icg", 390)
        tile.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "icg-phone-investigate-by-kind.png"))
        step = page.locator("#app").get_attribute("data-step")
        page.get_by_role("button", name="Investigate Player 3 (Mission)").click()
        page.wait_for_function(
            "s => document.getElementById('app').dataset.step !== s", arg=step, timeout=5000
        )
        page.locator("#log", has_text="Player 1 investigates Player 3 (Mission").wait_for(
            timeout=5000
        )
    finally:
        context.close()


@pytest.mark.parametrize("layout", ["inline", "list"])
def test_a_wrapped_row_of_names_keeps_every_target_clear(
    browser: Any, server: LiveServer, layout: str
) -> None:
    """A row of card names that wraps on a phone (a Werewolf hand or pile, what an Enquete
    seat saw): written as plain inline names the 44 px targets of one line reach over the
    middles of the line above (this failed a two-person Werewolf game whose pile wrapped);
    in an ``infoList`` every row is a target's height, so none covers another."""
    created = server.post(
        "/api/rooms",
        {
            "game": "werewolf",
            "players": 5,
            "seed": 3,
            "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 4,
        },
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][0])
        page.locator(".board.werewolf").wait_for(timeout=10000)
        covered = page.evaluate(
            """async (layout) => {
                 const { infoList, infoName } = await import('/static/boards/parts.js');
                 const names = ['Alias', 'Death Note', 'Shinigami Eyes', 'Identity',
                   'Investigation', 'Alibi', 'Kidnapping', 'Confession', 'Surveillance',
                   'Fake Name', 'Remote Kill', 'Witness'].map((n) => infoName(n, 'text'));
                 const p = document.createElement('p');
                 p.id = 'probe';
                 p.style.width = '180px';
                 p.append('Pile: ');
                 if (layout === 'list') p.append(infoList(names));
                 else names.forEach((n, i) => p.append(...(i ? [', ', n] : [n])));
                 document.querySelector('#app').prepend(p);
                 window.scrollTo(0, 0);
                 const rows = new Set(names.map((n) => Math.round(n.getBoundingClientRect().top)));
                 return rows.size;
               }""",
            layout,
        )
        assert covered >= 4, "the probe's names did not wrap onto several rows"
        over = [c for c in page.evaluate(COVERED) if "Text of" in c]
        if layout == "inline":
            assert over, "inline names on wrapped lines should overlap (the check would miss it)"
        else:
            assert over == [], f"names covered by another: {over}"
    finally:
        context.close()
