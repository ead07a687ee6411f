"""Every action of one Investigation Card Game, built once per match and shared by its forks.

The rules pick their legal actions from these tables instead of building new ones on every
call, and the stable action numbering (``IcgGame.action_space``, the table in
docs/rules/icg.md) is the order of ``Tables.space``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deathnote.engine.actions import Action

from .content import MISSION_IDS

INVESTIGATION_TYPES = ("identity", "mission")


def player(seat: int) -> str:
    """The public name of a seat (its Placement number)."""
    return f"Player {seat + 1}"


@dataclass(frozen=True, eq=False)
class Tables:
    """The actions of one match (players, rules, Shinigami Eyes, content), labelled."""

    players: int
    rules: str
    eyes: bool
    identity_ids: tuple[str, ...]
    clue_ids: tuple[str, ...]
    names: Mapping[str, str]  # Clue id (Identity or Mission) -> printed name
    #: investigate[target]: one action (Light rules) or (Identity, Mission) (Kira rules).
    investigate: tuple[tuple[Action, ...], ...]
    chase: tuple[Action, ...]  # by X-Kira seat
    done: Action
    open_eyes: tuple[Action, ...]  # by target (labels name the target)
    cover: Mapping[str, Action]
    take_back: Mapping[str, Action]
    reveal: Mapping[str, Action]
    announce: tuple[Mapping[str, Action], ...]  # by target, then Identity
    quiet: Action
    no_arrest: Action
    arrest: tuple[Action, ...]  # by target
    wait: Action
    write: Mapping[str, Action]  # by Identity
    place: tuple[Action, ...]  # by Placement (seat)
    space: tuple[Action, ...]  # every action once, in the stable numbering

    def __deepcopy__(self, memo: dict[int, Any]) -> Tables:
        return self  # immutable: every copy of a state shares it

    def __copy__(self) -> Tables:
        return self


_CACHE: dict[tuple[int, int, str, bool], tuple[Mapping[str, Any], Tables]] = {}


def for_match(players: int, rules: str, eyes: bool, content: Mapping[str, Any]) -> Tables:
    """The tables of a match, built once per content object, players and options."""
    key = (id(content), players, rules, eyes)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is content:  # the entry holds the content: ids stay valid
        return hit[1]
    if len(_CACHE) > 256:
        _CACHE.clear()
    made = build(players, rules, eyes, content)
    _CACHE[key] = (content, made)
    return made


def build(players: int, rules: str, eyes: bool, content: Mapping[str, Any]) -> Tables:
    """The tables of a match; ``space`` lists the actions in their stable numbering."""
    identities = tuple(str(c["id"]) for c in content["identities"])
    names = {str(c["id"]): str(c["name"]) for c in content["identities"]}
    names.update({str(c["id"]): str(c["name"]) for c in content["missions"]})
    clues = identities + MISSION_IDS
    seats = range(players)
    space: list[Action] = []

    def keep(action: Action) -> Action:
        space.append(action)
        return action

    if rules == "kira":
        investigate = tuple(
            tuple(
                keep(
                    Action.make(
                        "investigate",
                        f"Investigate {player(t)} ({kind.title()})",
                        target=t,
                        type=kind,
                    )
                )
                for kind in INVESTIGATION_TYPES
            )
            for t in seats
        )
    else:
        investigate = tuple(
            (keep(Action.make("investigate", f"Investigate {player(t)}", target=t)),) for t in seats
        )
    cover: dict[str, Action] = {}
    take_back: dict[str, Action] = {}
    reveal: dict[str, Action] = {}
    if rules == "light":
        cover = {c: keep(Action.make("cover", f"Cover {names[c]}", clue=c)) for c in clues}
    else:
        take_back = {c: keep(Action.make("return", f"Take back {names[c]}", clue=c)) for c in clues}
        reveal = {c: keep(Action.make("reveal", f"Reveal {names[c]}", clue=c)) for c in clues}
    no_arrest = keep(Action.make("pass", "No arrest"))
    arrest = tuple(
        keep(Action.make("arrest", f"Reveal L and arrest {player(t)}", target=t)) for t in seats
    )
    wait = keep(Action.make("wait", "Keep your eyes closed"))
    write = {
        i: keep(Action.make("write", f"Cover {names[i]} on the Death Note", identity=i))
        for i in identities
    }
    place = tuple(
        keep(Action.make("place", f"Cover Placement #{t + 1}", placement=t)) for t in seats
    )
    chase = tuple(
        Action.make("chase", f"Pass to chase X-Kira ({player(x)})", x_kira=x) for x in seats
    )
    done = Action.make("done", "End your investigation")
    open_eyes = tuple(
        Action.make("open_eyes", f"Reveal X-Kira and open the Shinigami Eyes on {player(t)}")
        for t in seats
    )
    announce = tuple(
        {
            i: Action.make("announce", f"Say that {player(t)} is {names[i]}", identity=i)
            for i in identities
        }
        for t in seats
    )
    quiet = Action.make("quiet", "Keep it to yourself")
    if eyes:
        space += chase
        space.append(done)
        space.append(Action.make("open_eyes", "Reveal X-Kira and open the Shinigami Eyes"))
        space += [
            Action.make("announce", f"Say that the player is {names[i]}", identity=i)
            for i in identities
        ]
        space.append(quiet)
    return Tables(
        players=players,
        rules=rules,
        eyes=eyes,
        identity_ids=identities,
        clue_ids=clues,
        names=names,
        investigate=investigate,
        chase=chase,
        done=done,
        open_eyes=open_eyes,
        cover=cover,
        take_back=take_back,
        reveal=reveal,
        announce=announce,
        quiet=quiet,
        no_arrest=no_arrest,
        arrest=arrest,
        wait=wait,
        write=write,
        place=place,
        space=tuple(space),
    )
