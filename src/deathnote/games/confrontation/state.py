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
SWITCH = "switch"  # Chapter 2, the seat in ``switcher`` (every Chase): switch or keep
APPLES = "apples"  # Kira: put one Apple in a row
STARS = "stars"  # Chapter 2, L: place the Stars of the card he drew (one step per card)
DICE = "dice"  # Chapter 2, the seat in ``dicer`` (L, then Kira, every night): change or keep
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
    ryuk_day: list[int] = field(default_factory=list)  # day each row was completed (0: before)
    apples_to_place: int = 0
    stars: list[int] = field(default_factory=list)  # per Intel row
    intel_used: list[bool] = field(default_factory=list)
    intel_day: list[int] = field(default_factory=list)
    stars_to_place: int = 0  # the Stars of the card L places now (one decision per card)
    # Public facts the sampler needs (what a viewer saw happen, kept as numbers):
    card_days: list[int] = field(default_factory=list)  # the day each Suspect card was drawn
    intel_at: list[int] = field(default_factory=list)  # per Intel row: cards drawn when done
    apple_day: int = 0  # the day of Kira's last Apple
    star_day: int = 0  # the day of L's last Stars step
    history: list[dict[str, object]] = field(default_factory=list)  # public notes per day
    result: Outcome | None = None

    def fork(self) -> ConfState:
        """An independent copy: every list and dict copied, the content tables shared (they
        are frozen), the history's day notes shared (they are never changed once written)."""
        return _fork(self)


_SCALARS = (
    "tables",
    "identity",
    "day",
    "phase",
    "lead",
    "switcher",
    "dicer",
    "regional_used",
    "points",
    "chase_points",
    "ryuk_points",
    "quiet_nights",
    "quiet_allowed",
    "apples_to_place",
    "stars_to_place",
    "apple_day",
    "star_day",
    "result",
)
_LISTS = (
    "suspect_deck",
    "lead_deck",
    "lead_discard",
    "chase",
    "switch_offered",
    "dice",
    "faces_left",
    "news",
    "alive",
    "kills",
    "cards_drawn",
    "outside",
    "apples",
    "ryuk_used",
    "ryuk_day",
    "stars",
    "intel_used",
    "intel_day",
    "history",
    "card_days",
    "intel_at",
)
_DICTS = ("living", "points_by_type", "eliminated")


def _fork(self: ConfState) -> ConfState:
    """``ConfState.fork`` written out field by field (a test checks every field is
    here): it runs for every simulated game and every sampled world."""
    twin = object.__new__(ConfState)
    twin.tables = self.tables
    twin.identity = self.identity
    twin.day = self.day
    twin.phase = self.phase
    twin.lead = self.lead
    twin.switcher = self.switcher
    twin.dicer = self.dicer
    twin.regional_used = self.regional_used
    twin.points = self.points
    twin.chase_points = self.chase_points
    twin.ryuk_points = self.ryuk_points
    twin.quiet_nights = self.quiet_nights
    twin.quiet_allowed = self.quiet_allowed
    twin.apples_to_place = self.apples_to_place
    twin.stars_to_place = self.stars_to_place
    twin.apple_day = self.apple_day
    twin.star_day = self.star_day
    twin.result = self.result
    twin.suspect_deck = self.suspect_deck[:]
    twin.lead_deck = self.lead_deck[:]
    twin.lead_discard = self.lead_discard[:]
    twin.chase = self.chase[:]
    twin.switch_offered = self.switch_offered[:]
    twin.dice = self.dice[:]
    twin.faces_left = self.faces_left[:]
    twin.news = self.news[:]
    twin.alive = self.alive[:]
    twin.kills = self.kills[:]
    twin.cards_drawn = self.cards_drawn[:]
    twin.outside = self.outside[:]
    twin.apples = self.apples[:]
    twin.ryuk_used = self.ryuk_used[:]
    twin.ryuk_day = self.ryuk_day[:]
    twin.stars = self.stars[:]
    twin.intel_used = self.intel_used[:]
    twin.intel_day = self.intel_day[:]
    twin.history = self.history[:]
    twin.card_days = self.card_days[:]
    twin.intel_at = self.intel_at[:]
    twin.living = self.living.copy()
    twin.points_by_type = self.points_by_type.copy()
    twin.eliminated = self.eliminated.copy()
    return twin


def dealt(
    blank: ConfState, identity: int, suspect_deck: list[int], lead_deck: list[int]
) -> ConfState:
    """A new game's state: ``blank`` (a content's state before the deal, see
    ``rules.build_state``) with this deal. ``_fork`` for the start of a game (one per
    simulated game): the lists that are empty before the deal are made anew, not copied,
    and the decks are the ones given (a test checks it equals a fork with the deal)."""
    twin = object.__new__(ConfState)
    twin.tables = blank.tables
    twin.identity = identity
    twin.day = blank.day
    twin.phase = blank.phase
    twin.lead = blank.lead
    twin.switcher = blank.switcher
    twin.dicer = blank.dicer
    twin.regional_used = blank.regional_used
    twin.points = blank.points
    twin.chase_points = blank.chase_points
    twin.ryuk_points = blank.ryuk_points
    twin.quiet_nights = blank.quiet_nights
    twin.quiet_allowed = blank.quiet_allowed
    twin.apples_to_place = blank.apples_to_place
    twin.stars_to_place = blank.stars_to_place
    twin.apple_day = blank.apple_day
    twin.star_day = blank.star_day
    twin.result = None
    twin.suspect_deck = suspect_deck
    twin.lead_deck = lead_deck
    twin.lead_discard = []
    twin.chase = blank.chase[:]
    twin.switch_offered = blank.switch_offered[:]
    twin.dice = []
    twin.faces_left = []
    twin.news = []
    twin.alive = blank.alive[:]
    twin.kills = []
    twin.cards_drawn = []
    twin.outside = blank.outside[:]
    twin.apples = blank.apples[:]
    twin.ryuk_used = blank.ryuk_used[:]
    twin.ryuk_day = blank.ryuk_day[:]
    twin.stars = blank.stars[:]
    twin.intel_used = blank.intel_used[:]
    twin.intel_day = blank.intel_day[:]
    twin.history = []
    twin.card_days = []
    twin.intel_at = blank.intel_at[:]
    twin.living = blank.living.copy()
    twin.points_by_type = blank.points_by_type.copy()
    twin.eliminated = {}
    return twin
