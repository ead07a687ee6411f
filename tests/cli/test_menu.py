"""Menu keys are the numbers on the board (issue 19 §3)."""

from __future__ import annotations

from deathnote.cli.menu import describe, menu_keys, pick


def test_a_criminal_is_picked_by_its_own_number() -> None:
    labels = ["Criminal 2 (Stabber)", "Criminal 8 (Stabber)", "Criminal 10 (Stabber)",
              "Criminal 34 (Shooter)"]  # fmt: skip
    keys = menu_keys(labels)
    assert keys == ["2", "8", "10", "34"]
    assert pick("10", labels, keys) == 2  # criminal 10, not the tenth line
    assert pick("34", labels, keys) == 3
    assert pick("3", labels, keys) is None


def test_players_keep_their_numbers_and_other_choices_get_letters() -> None:
    labels = ["Point Kira at no one", "Point Kira at Player 1", "Point Kira at Player 3"]
    keys = menu_keys(labels)
    assert keys == ["a", "1", "3"]
    assert pick("1", labels, keys) == 1  # Player 1
    assert pick("a", labels, keys) == 0
    assert describe(keys) == "a, 1 or 3"
    assert "brackets" in describe([str(k) for k in range(2, 12)])


def test_suspect_letters_and_plain_menus() -> None:
    suspects = ["Suspect A is Kira", "Suspect C is Kira"]
    assert menu_keys(suspects) == ["A", "C"]
    assert pick("c", suspects, menu_keys(suspects)) == 1
    plain = ["Follow the next lead", "Accuse a suspect (wrong: Kira wins)"]
    assert menu_keys(plain) == ["1", "2"]
    assert describe(menu_keys(plain)) == "1-2"
    assert pick("acc", plain, menu_keys(plain)) == 1  # the start of a label
    # numbers that repeat are not board numbers of distinct things: menu numbers instead
    assert menu_keys(["Row 1: x", "Row 1: y"]) == ["1", "2"]
