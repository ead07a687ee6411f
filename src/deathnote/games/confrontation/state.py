"""The state of one game of Confrontation: plain data, small, cheap to copy."""

from __future__ import annotations

from dataclasses import dataclass, field

from deathnote.engine.actions import Outcome
from deathnote.games.confrontation.content import Tables

KIRA = 0
L = 1

# Phases: who must decide now.
DAY = "day"  # L: follow the next lead or accuse
ACCUSE = "accuse"  # L: name the suspect
CHASE = "chase"  # both: A or B, secret until both chose
SWITCH = "switch"  # the seat in ``switcher``: use the Last Minute A/B Switch or not
APPLES = "apples"  # Kira: put one Apple in a row
STARS = "stars"  # L: put one Star in a row
DICE = "dice"  # the seat in ``dicer``: change up to 3 dice or not
NEWS = "news"  # L: pick the next criminal for the Nightly News
KILL = "kill"  # Kira: kill one criminal of the news
OVER = "over"

NO_CHOICE = -1
SIDES = ("A", "B")


@dataclass(slots=True)
class ConfState:
    """Everything true about one game (the full truth; views list what a seat may see)."""

    tables: Tables
    identity: int  # Kira's Suspect index (secret)
    suspect_deck: list[int]  # Suspect indices; the top card is the last item
    lead_deck: list[int]  # lead indices; the top card is the last item
    lead_discard: list[int] = field(default_factory=list)
    day: int = 1
    phase: str = DAY
    lead: int = -1  # current lead index
    chase: list[int] = field(default_factory=lambda: [NO_CHOICE, NO_CHOICE])  # 0=A 1=B
    switcher: int = NO_CHOICE
    switch_offered: list[bool] = field(default_factory=lambda: [False, False])
    dicer: int = NO_CHOICE
    dice: list[str] = field(default_factory=list)
    faces_left: list[str] = field(default_factory=list)  # "knife"/"gun"/"bomb"/"any"
    news: list[int] = field(default_factory=list)  # criminal indices picked tonight
    alive: list[bool] = field(default_factory=list)
    living: dict[str, int] = field(default_factory=dict)  # living criminals per crime type
    kills: list[int] = field(default_factory=list)  # criminal indices killed on the Map
    regional_used: int = 0
    points: int = 0
    points_by_type: dict[str, int] = field(
        default_factory=lambda: {"knife": 0, "gun": 0, "bomb": 0}
    )
    chase_points: int = 0
    ryuk_points: int = 0
    quiet_nights: int = 0
    quiet_allowed: int = 2
    cards_drawn: list[int] = field(default_factory=list)  # Suspect indices L drew
    eliminated: dict[int, str] = field(default_factory=dict)  # Suspect -> reason
    outside: list[int] = field(default_factory=list)  # kills outside each Suspect's area
    apples: list[int] = field(default_factory=list)  # per Ryuk row
    ryuk_used: list[bool] = field(default_factory=list)
    apples_to_place: int = 0
    stars: list[int] = field(default_factory=list)  # per Intel row
    intel_used: list[bool] = field(default_factory=list)
    stars_to_place: int = 0
    history: list[dict[str, object]] = field(default_factory=list)  # public notes per day
    result: Outcome | None = None
