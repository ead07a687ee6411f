"""The search bot's play-out policy (ICG-BOT-02): the heuristic bot shown the mover's view.

A uniformly random play-out says nothing here: a random L arrests someone on the first turn
most of the time (nearly always the wrong player), so almost every play-out is a win of
Kira's team whatever the search tried before it. The play-out instead asks the heuristic bot
(``agents.HeuristicAgent``) what the seat to move would do, shown only that seat's view of
the sampled world (its state view and decision, no log: the bot reads neither), so it reads
nothing the seat could not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deathnote.agents.base import Observation
from deathnote.engine.actions import Action

from .agents import HANDLERS, HeuristicAgent, cover_choice, cover_first
from .content import MISSION_IDS
from .game import own_cards, seat_rows
from .state import IcgState
from .tables import Tables


def playout(state: IcgState, seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
    """The heuristic bot's choice for ``seat`` from its view of ``state`` (``bot_view``):
    its answer to the decision's kind, handed the table part of the view straight (what
    ``HeuristicAgent.choose`` does with the whole view, without the observation around it)."""
    if len(legal) == 1:
        return legal[0]
    kind = DECISION_KINDS[state.phase]
    if kind == "cover":
        # The bot's cover reads only the seat's own Mission: no view built (a third of the
        # play-outs' choices under the Light rules).
        return cover_choice(state.seats[seat].mission, legal, rng)
    bot = _BOTS.get(seat)
    if bot is None:
        bot = _BOTS[seat] = HeuristicAgent(seat)
    return HANDLERS[kind](bot, bot_table(state, seat), list(legal), rng)


#: The play-outs' heuristic bot of each seat (it keeps nothing between choices).
_BOTS: dict[int, HeuristicAgent] = {}


#: The kind of the decision each phase asks for (``rules.pending``'s).
DECISION_KINDS = {
    "investigate": "investigate",
    "cover": "cover",
    "return": "return",
    "reveal": "reveal",
    "eyes": "eyes",
    "announce": "announce",
    "arrest": "arrest",
    "dn_identity": "death_note",
    "dn_placement": "death_note",
}


def bot_view(state: IcgState, seat: int) -> dict[str, Any]:
    """What the heuristic bot reads of ``seat``'s view of ``state`` in a play-out, equal to
    the same parts of the view (``IcgGame.view``, tested; the log and decision data it does
    not read are left out): the table's records are the state's own, not copies (the bot
    only reads them, and the view is dropped after one choice), and the seats' rows and the
    Mission box are built when first read (a cover reads neither)."""
    return {
        "viewer": seat,
        "state": bot_table(state, seat),
        "decision": {"kind": DECISION_KINDS[state.phase]},
        "log": [],
    }


def bot_table(state: IcgState, seat: int) -> dict[str, Any]:
    """``bot_view``'s table part (the view's ``state``), all the bot's answers read."""
    part = _TablePart(
        rules=state.rules,
        turn=state.turn,
        target=state.target,
        chased=state.chased,
        identities=_identity_cards(state.tables),
        history=state.history,
        death_notes=state.death_notes,
        claims=state.claims,
        me=own_cards(state, seat),
    )
    part.state = state
    return part


class _TablePart(dict[str, Any]):
    """``bot_view``'s table: the seats' rows and the Mission box made when first read."""

    state: IcgState

    def __missing__(self, key: str) -> Any:
        st = self.state
        if key == "seats":
            value: Any = seat_rows(st, False)
        elif key == "mission_box":
            box = st.mission_box
            value = {"x_kira": box.count("x_kira"), "team_member": box.count("team_member")}
        else:
            raise KeyError(key)
        self[key] = value
        return value


_IDENTITY_CARDS: dict[Tables, list[dict[str, str]]] = {}


def _identity_cards(tables: Tables) -> list[dict[str, str]]:
    """The view's ``identities`` (id and name of each Identity card), once per match tables."""
    cards = _IDENTITY_CARDS.get(tables)
    if cards is None:
        if len(_IDENTITY_CARDS) > 256:
            _IDENTITY_CARDS.clear()
        cards = [{"id": i, "name": tables.names[i]} for i in tables.identity_ids]
        _IDENTITY_CARDS[tables] = cards
    return cards


#: Worlds the search bot's Death Note rule samples from Kira's view (``death_note``).
DEATH_NOTE_WORLDS = 200
#: What a Team Member's Identity and Placement count beside L's: a hit puts him out of the
#: game, only L's ends it.
TEAM_MEMBER_WEIGHT = 0.1


def death_note(obs: Observation) -> Action | None:
    """Kira's Death Note for the search bot (ICG-BOT-04): the pair of an Identity and a
    Placement that L holds in most of ``DEATH_NOTE_WORLDS`` worlds sampled from Kira's own
    view (a Team Member's counting ``TEAM_MEMBER_WEIGHT``): first the Identity whose best
    Placement scores most, then the best Placement for the Identity written. None at any
    other decision (the search decides)."""
    legal = obs.legal
    step = legal[-1].kind
    if step not in ("write", "place"):
        return None
    me = obs.seat
    rng = obs.rng
    score: dict[tuple[str, int], float] = {}
    written: str | None = None
    for _ in range(DEATH_NOTE_WORLDS):
        state: IcgState = obs.sample_world(rng, False, rng).state
        written = state.dn_identity
        for s, x in enumerate(state.seats):
            if x.out or s == me:
                continue
            weight = (
                1.0
                if x.mission == "l"
                else TEAM_MEMBER_WEIGHT
                if x.mission == "team_member"
                else 0.0
            )
            if weight:
                key = (x.identity, s)
                score[key] = score.get(key, 0.0) + weight
    if step == "write":
        best: dict[str, float] = {}
        for (identity, _seat), value in score.items():
            best[identity] = max(best.get(identity, 0.0), value)
        writes = [a for a in legal if a.kind == "write"]
        return max(writes, key=lambda a: best.get(a["identity"], 0.0))
    places = [a for a in legal if a.kind == "place"]
    return max(places, key=lambda a: score.get((written or "", a["placement"]), 0.0))


#: The odds the belief (``world_weight``) gives a Mission-Clue covered otherwise than the
#: heuristic bot with that Mission would (the table may not play like it).
COVER_MISS = 0.05


def world_weight(view: Mapping[str, Any], seat: int) -> Callable[[IcgState], float] | None:
    """From ``seat``'s view only (ICG-BOT-05): a sampled world's log-weight, how likely
    each other player's Mission-Clues were covered in that order by the heuristic bot with
    the Mission that world deals it (``agents.cover_first``: every Mission covers the
    three others in its own order), each cover the bot would not make counting
    ``COVER_MISS``. None under the Kira rules (no cover to read), and where no other
    player has covered a Mission-Clue yet: every world would weigh the same, and one of K
    worlds drawn alike and picked with equal odds has the odds of one world drawn (the
    search then draws one world a simulation, not K: ICG-BOT-05, "Speed, fifth pass")."""
    state = view["state"]
    if state["rules"] != "light":
        return None
    miss = math.log(COVER_MISS)
    table: dict[int, dict[str, float]] = {}
    for x in state["seats"]:
        covers = [c for c in x["covered"] if c in MISSION_IDS]
        if x["seat"] == seat or not covers:
            continue
        row = {}
        for mission in MISSION_IDS:
            value, done = 0.0, []
            for clue in covers:
                options = [m for m in MISSION_IDS if m not in done and m != mission]
                if clue != cover_first(mission, options):
                    value += miss
                done.append(clue)
            row[mission] = value
        table[x["seat"]] = row
    if not table:
        return None
    return CoverWeight(list(table.items()))


class CoverWeight:
    """``world_weight``'s log-weight of a world: the sum of the rows (each Mission's log
    odds of one seat's covers) at the Missions the world deals; it reads nothing else, so
    the sampler may weigh a deal's Missions before the world is made
    (``IcgGame.sample_weighted_state``)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[tuple[int, dict[str, float]]]) -> None:
        #: (seat, Mission -> log odds of that seat's covers) for each seat weighed
        self.rows = rows

    def __call__(self, world: IcgState) -> float:
        """The world's log-weight."""
        seats = world.seats
        return sum(row[seats[s].mission] for s, row in self.rows)

    def of_missions(self, missions: Sequence[str]) -> float:
        """The log-weight of a world dealing ``missions`` (by seat): the same sum."""
        return sum(row[missions[s]] for s, row in self.rows)
