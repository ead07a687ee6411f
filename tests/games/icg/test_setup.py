"""Set-up: Placement cards, Identities, Missions, Clue sets, options and content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deathnote.engine import ContentError, Match, OptionsError
from deathnote.games.icg.content import MISSION_IDS, default_content

from .helpers import new, st


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_setup_placements_and_red(players: int) -> None:
    m = new(players, seed=players)
    s = st(m)
    view = m.view("spectator")["state"]
    assert [x["placement"] for x in view["seats"]] == list(range(1, players + 1))
    assert s.red == 0 and [x["red"] for x in view["seats"]] == [True] + [False] * (players - 1)
    assert s.turn == 1 and s.phase == "investigate" and s.current == 0


@pytest.mark.parametrize("players", [4, 6, 8])
def test_setup_identities_dealt_secretly(players: int) -> None:
    for seed in range(20):
        s = st(new(players, seed=seed))
        ids = [x.identity for x in s.seats]
        assert len(set(ids)) == players
        assert set(ids) <= {c["id"] for c in default_content()["identities"]}


@pytest.mark.parametrize("players", [4, 6, 8])
def test_setup_missions_kira_and_l_plus_others(players: int) -> None:
    seen = set()
    for seed in range(40):
        s = st(new(players, seed=seed))
        missions = [x.mission for x in s.seats]
        assert missions.count("kira") == 1 and missions.count("l") == 1
        others = sorted(m for m in missions if m not in ("kira", "l")) + s.unused_missions
        assert sorted(others) == sorted(["x_kira"] * 2 + ["team_member"] * 4)
        seen.add(tuple(missions))
    assert len(seen) > 10  # dealt at random


def test_setup_mission_mix_option() -> None:
    for seed in range(10):
        s = st(new(8, seed=seed, x_kira=0))
        assert sorted(x.mission for x in s.seats).count("x_kira") == 0
        s = st(new(8, seed=seed, x_kira=6))
        assert sorted(x.mission for x in s.seats).count("team_member") == 0


def test_setup_clue_sets() -> None:
    s = st(new(5, seed=1))
    assert len(s.clue_ids) == 12
    assert [c for c in s.clue_ids if c in MISSION_IDS] == list(MISSION_IDS)
    assert all(x.covered == [] and x.hand == [] and x.table == [] for x in s.seats)
    k = st(new(5, seed=1, rules="kira"))
    assert all(sorted(x.hand) == sorted(k.clue_ids) and x.table == [] for x in k.seats)


def test_options_validation() -> None:
    m = new(4)
    assert m.options == {
        "rules": "light",
        "shinigami_eyes": False,
        "turn_limit": 100,
        "x_kira": None,
    }
    for bad in (
        {"rules": "dark"},
        {"shinigami_eyes": "yes"},
        {"turn_limit": 0},
        {"x_kira": 7},
        {"chapter": 1},
    ):
        with pytest.raises(OptionsError):
            Match.create("icg", 4, 1, bad)
    with pytest.raises(OptionsError):
        Match.create("icg", 3, 1)
    with pytest.raises(OptionsError):
        Match.create("icg", 9, 1)


def test_content_identities_and_mix_are_data(tmp_path: Path) -> None:
    data = default_content()
    assert [c["name"] for c in data["identities"]] == [
        "Ryuzaki",
        "Soichiro Yagami",
        "Light Yagami",
        "Misa Amane",
        "Touta Matsuda",
        "Shuichi Aizawa",
        "Naomi Misora",
        "Watari",
    ]
    assert data["other_missions"] == {"x_kira": 2, "team_member": 4}
    data["identities"][0]["name"] = "Near"
    data["other_missions"] = {"x_kira": 3, "team_member": 3}
    path = tmp_path / "icg.json"
    path.write_text(json.dumps(data))
    m = Match.create("icg", 8, 3, None, str(path))
    assert m.view("spectator")["state"]["identities"][0]["name"] == "Near"
    assert m.view("spectator")["state"]["mission_box"] == {"x_kira": 3, "team_member": 3}
    data["other_missions"] = {"x_kira": 3, "team_member": 4}
    path.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="other_missions"):
        Match.create("icg", 8, 3, None, str(path))
    data = default_content()
    data["identities"] = data["identities"][:7]
    path.write_text(json.dumps(data))
    with pytest.raises(ContentError, match="identities"):
        Match.create("icg", 8, 3, None, str(path))


def test_cli_flags_map_to_options() -> None:
    from deathnote.cli.options import build_options
    from deathnote.sim.runner import Batch, play_one

    opts = build_options(rules="kira", shinigami_eyes=True)
    m = Match.create("icg", 6, 1, opts)
    assert m.options["rules"] == "kira" and m.options["shinigami_eyes"] is True
    result = play_one(Batch("icg", 6, ("heuristic",) * 6, opts), seed=5)
    assert "error" not in result and result["winners"] in (["kira"], ["l"])


@pytest.mark.parametrize("rules", ["light", "kira"])
def test_setup_events_tell_each_seat_its_cards_before_the_first_action(rules: str) -> None:
    m = new(6, seed=12, rules=rules)
    assert m.actions == []
    for seat in range(6):
        log = m.view(seat)["log"]
        x = st(m).seats[seat]
        names = st(m).tables.names
        assert log[0]["text"] == (
            f"You are Player {seat + 1}. Your Identity is {names[x.identity]}; "
            f"your Mission is {names[x.mission]}."
        )
        assert log[0]["data"] == {"seat": seat, "identity": x.identity, "mission": x.mission}
        assert log[1]["text"] == "Turn 1: Player 1 holds the red Placement."
        assert len(log) == 2  # nobody sees another seat's cards
    spectator = [e["text"] for e in m.log("spectator")]
    assert spectator == ["Turn 1: Player 1 holds the red Placement."]
    assert len(m.log("omniscient")) == 7


def test_rules_version_changed_with_the_rules() -> None:
    """The audit (version 2) and the free announcement (version 3) changed the rules: a
    record made under version 1 or 2 refuses to replay instead of replaying wrongly."""
    from deathnote.engine import ReplayError
    from deathnote.games.icg import GAME

    assert GAME.rules_version == "3"
    record = new(4, seed=1).record()
    assert record["rules_version"] == "3"
    for old in ("1", "2"):
        with pytest.raises(ReplayError, match="rules version"):
            Match.replay(dict(record, rules_version=old))


def test_options_model_describes_every_option() -> None:
    from deathnote.engine.options import coerce, schema
    from deathnote.games.icg import GAME

    props = schema(GAME)["properties"]
    assert set(props) == {"rules", "shinigami_eyes", "turn_limit", "x_kira"}
    assert all(p.get("description") for p in props.values())
    assert coerce(GAME, {"shinigami_eyes": "true", "turn_limit": "7"}) == {
        "rules": "light",
        "shinigami_eyes": True,
        "turn_limit": 7,
        "x_kira": None,
    }
    for bad in ({"turn_limit": True}, {"x_kira": False}, {"shinigami_eyes": 1}):
        with pytest.raises(OptionsError):
            Match.create("icg", 4, 1, bad)


def test_content_model_errors_name_the_file_and_field(tmp_path: Path) -> None:
    cases = [
        (lambda d: d["identities"][2].update(name=""), "identities[2].name"),
        (lambda d: d["other_missions"].update(x_kira=True), "other_missions.x_kira"),
        (lambda d: d.update(maps=[]), "maps"),
        (lambda d: d["identities"][1].update(id="ryuzaki"), "identities[1].id"),
        (lambda d: d["missions"].reverse(), "missions"),
    ]
    for change, field in cases:
        data = default_content()
        change(data)
        path = tmp_path / "icg.json"
        path.write_text(json.dumps(data))
        with pytest.raises(ContentError) as err:
            Match.create("icg", 4, 1, None, str(path))
        assert str(path) in str(err.value) and repr(field) in str(err.value)
