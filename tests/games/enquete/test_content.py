"""The content data: Roles, Actions, Investigations, and their validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathnote.engine import ContentError, Match
from deathnote.games.enquete.cards import CARD_START
from deathnote.games.enquete.content import default_content
from deathnote.games.enquete.flow import FN
from deathnote.games.enquete.objectives import OBJECTIVES


def test_actions_data() -> None:
    cards = default_content()["actions"]
    assert [c["number"] for c in cards] == list(range(1, 47))
    assert sum(c["ryuk"] for c in cards) == 23  # about half are Ryuk Actions
    assert [c["number"] for c in cards if c["first_games_removable"]] == list(range(28, 37))
    assert sum(c["six_plus"] for c in cards) == 9
    assert all(c["source"] in ("printed", "reconstructed") for c in cards)
    named = {c["name"] for c in cards}
    for printed in (
        "Death Note",
        "Page of Death Note",
        "Rem",
        "Kira Supporter",
        "Alibi",
        "Search",
        "Fake Death Note",
        "False Identity",
        "Staging",
        "Top Secret",
        "Blackmail",
        "Lie",
        "Shinigami Eyes",
    ):
        assert printed in named
    assert all(c["id"] in CARD_START for c in cards)
    assert {c["name"] for c in cards if c["action_symbol"]} >= {"Death Note", "Shinigami Eyes"}


def test_investigations_data() -> None:
    data = default_content()
    tiles = data["investigations"]
    assert [t["number"] for t in tiles] == list(range(1, 26))
    assert [t["pile"] for t in tiles] == [n // 5 + 1 for n in range(25)]
    icons = [sum(t["ryuk"] for t in tiles if t["pile"] == p) for p in range(1, 6)]
    assert icons == sorted(icons) and icons[0] < icons[-1]
    assert all(f"tile_{t['id']}" in FN for t in tiles)
    values = {t["name"]: t["suspicions"] for t in tiles}
    assert values["Frenzy"] == 3 and values["Friend"] == 3
    assert (
        values["Conduct"] == values["Resurrection"] == values["Expedient"] == values["Tactic"] == 1
    )


def test_roles_data() -> None:
    roles = default_content()["roles"]
    assert len(roles) == 9
    printed = {r["id"] for r in roles if r["source"] == "printed"}
    assert printed == {"light", "detective", "matsuda"}
    for r in roles:
        assert all(o["id"] in OBJECTIVES for o in r["objectives"])


def test_broken_content_is_refused(tmp_path: Path) -> None:
    data = default_content()
    data["actions"] = data["actions"][:45]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="actions"):
        Match.create("enquete", 5, 1, content=str(bad))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(default_content()))
    assert Match.create("enquete", 5, 1, content=str(good)).pending()
    with pytest.raises(ContentError):
        Match.create("enquete", 5, 1, content=str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("actions", 3, "timing"), "sometimes", "actions[3].timing"),
        (("actions", 5, "ryuk"), 1, "actions[5].ryuk"),
        (("investigations", 2, "suspicions"), True, "investigations[2].suspicions"),
        (("investigations", 2, "suspicions"), -1, "investigations[2].suspicions"),
        (("roles", 1, "faction"), "shinigami", "roles[1].faction"),
        (("roles", 1, "objectives", 0, "apples"), "2", "roles[1].objectives[0].apples"),
        (("piles", 4, "direction"), "up", "piles[4].direction"),
        (("investigations", 7, "pile"), 3, "investigations[7].pile"),
        (("actions", 0, "extra"), 1, "actions[0].extra"),
    ],
)
def test_content_errors_name_the_file_and_field(
    tmp_path: Path, path: tuple[object, ...], value: object, field: str
) -> None:
    data = default_content()
    node: object = data
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        Match.create("enquete", 5, 1, content=str(bad))
    assert str(bad) in str(err.value) and repr(field) in str(err.value)
