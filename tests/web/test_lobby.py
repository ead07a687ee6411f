"""The lobby's form is built from each game's option schema (issue 16 §5), in Chromium:
no JSON box, a control for every option the lobby asks, words instead of ids, and what
the form sends is what the person chose."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from tests.live_server import LiveServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bSeat \d\b|\bundefined\b|\bnull\b|\[object")


def enum_values(prop: dict[str, Any]) -> list[Any]:
    """The values a schema field allows, a nullable one's included."""
    return list(prop.get("enum", [])) + [
        v for option in prop.get("anyOf", []) for v in option.get("enum", [])
    ]


def created_options(page: Any) -> dict[str, Any]:
    """Press "Create the room"; the options the form sent (the room was made)."""
    with page.expect_request(lambda r: r.url.endswith("/api/rooms") and r.method == "POST") as sent:
        page.click("#create")
    page.locator("#links a.invite").first.wait_for(timeout=10000)
    return dict(json.loads(sent.value.post_data)["options"])


def test_every_games_options_are_a_form_without_json(browser: Any, server: LiveServer) -> None:
    catalogue = server.get("/api/games")
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server.base + "/")
        page.locator("#options").wait_for(timeout=10000)
        assert page.locator("textarea#options").count() == 0
        for game in catalogue:
            page.select_option("#game", game["id"])
            properties = game["options_schema"]["properties"]
            asked = [n for n, p in properties.items() if not p.get("x-lobby", {}).get("hidden")]
            for name in asked:
                assert page.locator(f"#options [data-option='{name}']").count() >= 1, name
            for name in set(properties) - set(asked):
                assert page.locator(f"#options [data-option='{name}']").count() == 0, name
            text = page.locator("#new-room").inner_text()
            raw = RAW.search(text)
            assert raw is None, f"{game['id']}: {raw.group(0)!r} in the lobby"
            # A menu shows words for its values, and no help text quotes a value ("tiny:").
            helps = " ".join(page.locator("#options .help").all_inner_texts())
            for name in asked:
                prop = properties[name]
                values = [v for v in enum_values(prop) if isinstance(v, str)]
                menu = page.locator(f"#options select[data-option='{name}'] option")
                shown = set(menu.all_inner_texts())
                assert not shown & set(values), f"{game['id']}.{name}: {shown & set(values)}"
                for value in values:
                    assert not re.search(rf'"{value}"|\b{value}:', helps), (game["id"], value)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        page.close()


def test_the_form_sends_what_the_person_chose(browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server.base + "/")
        page.locator("#options").wait_for(timeout=10000)

        page.select_option("#game", "icg")
        page.select_option("#opt-rules", label="Kira rules (Clues in hand)")
        page.check("#opt-shinigami_eyes")
        page.fill("#opt-turn_limit", "60")
        assert page.locator("#opt-turn_limit").get_attribute("min") == "1"
        sent = created_options(page)
        assert sent == {"rules": "kira", "shinigami_eyes": True, "turn_limit": 60, "x_kira": None}

        page.select_option("#game", "enquete")
        page.fill("#players", "5")
        page.dispatch_event("#players", "change")
        page.select_option("#opt-detective_seat", label="Player 3")
        assert page.locator("#opt-series_games").get_attribute("placeholder") == "one per player"
        page.fill("#opt-series_games", "3")
        sent = created_options(page)
        assert sent == {"first_games": False, "series_games": 3, "detective_seat": 2}

        # The TCG: a shipped deck for one seat, a pasted card list for the other.
        example = json.loads(
            resources.files("deathnote.games.tcg")
            .joinpath("content/example-deck.json")
            .read_text(encoding="utf-8")
        )
        pasted = "\n".join(f"{c.get('count', 1)} {c['number']}" for c in example["cards"])
        cards = [c["number"] for c in example["cards"] for _ in range(c.get("count", 1))]
        page.select_option("#game", "tcg")
        labels = page.locator("#opt-decks-0 option").all_inner_texts()
        assert "Kira" in labels and "kira" not in labels
        page.select_option("#opt-decks-1", label="a pasted card list")
        page.fill("#opt-decks-1-cards", pasted)
        page.select_option("#opt-first", label="at random")
        sent = created_options(page)
        assert sent["decks"] == ["kira", cards]
        assert sent["first"] == "random"
        # A wrong card list is refused with the server's reason, on the page.
        page.fill("#opt-decks-1-cards", "3 NOT-A-CARD")
        page.click("#create")
        page.locator("#lobby-error").filter(has_text=re.compile(r"\S")).wait_for(timeout=10000)
    finally:
        page.close()


def test_a_rated_room_asks_no_stand_in_level(browser: Any, server: LiveServer) -> None:
    # In a rated room an idle seat always goes to the weakest bot (the server's rule), so
    # the lobby does not offer a level it would not use.
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(server.base + "/")
        page.locator("#options").wait_for(timeout=10000)
        assert page.locator("#stand-in").is_visible()
        assert page.locator("#rated-stand-in").is_hidden()
        page.check("#rated")
        assert page.locator("#stand-in").is_hidden() and page.locator("#stand-in").is_disabled()
        assert page.locator("#rated-stand-in").is_visible()
        with page.expect_request(
            lambda r: r.url.endswith("/api/rooms") and r.method == "POST"
        ) as sent:
            page.click("#create")
        body = json.loads(sent.value.post_data)
        assert body["rated"] is True
        humans = [seat for seat in body["seats"] if seat["kind"] == "human"]
        assert humans and all("stand_in" not in seat for seat in humans)
        page.locator("#links a.invite").first.wait_for(timeout=10000)
        # Unchecked: the choice is back.
        page.uncheck("#rated")
        assert page.locator("#stand-in").is_visible() and page.locator("#stand-in").is_enabled()
        assert page.locator("#rated-stand-in").is_hidden()
    finally:
        page.close()


def test_a_rematch_with_the_sides_swapped_moves_the_person_to_the_other_side(
    browser: Any, server: LiveServer
) -> None:
    created = server.post(
        "/api/rooms",
        {"game": "confrontation", "seats": [{"kind": "bot"}, {"kind": "human"}]},
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(server.base + created["links"]["seats"][1])
        assert page.locator(".who").inner_text() == "You are L"
        assert page.locator(".facts dd").nth(1).inner_text() == "Day: a Lead card"
        # L names a suspect at once: the game is over.
        page.locator("#choices button.choice[data-kind='accuse']").click(timeout=10000)
        page.locator("#choices button.choice[data-kind='name']").first.click(timeout=10000)
        page.locator("#app[data-over='yes']").wait_for(timeout=10000)
        labels = page.locator("button.rematch").all_inner_texts()
        assert labels == ["Rematch", "Rematch, sides swapped", "Rematch, seats shuffled"]
        old = page.url
        page.locator("#rematch-swap:not([disabled])").click(timeout=5000)
        page.wait_for_url(lambda url: url != old, timeout=10000)
        page.locator("#app[data-step]").wait_for(timeout=10000)  # the bot, now L, moves first
        assert page.locator(".who").inner_text() == "You are Kira"
    finally:
        context.close()
