"""A heuristic bot for every Role of Le Jeu d'Enquête, the Detective included.

It reads only ``obs.view`` and ``obs.legal`` (and draws from ``obs.rng``), and dispatches on
the decision's ``kind`` and ``data`` (the step, the card or Investigation, what is chosen),
never on prompt text. When it is asked in a window it answers the same way whether or not it
holds a playable card: it reads its hand from the view, never anything else about the
others. Where it has no preference it picks at random; it never hides its own errors.
"""

from __future__ import annotations

from typing import Any

from deathnote.agents.base import Agent, Observation
from deathnote.engine.actions import Action
from deathnote.engine.rng import choice as rng_choice

KIRA = ("light", "misa", "higuchi")
INVESTIGATORS = ("yagami", "matsuda", "aizawa", "mogi", "watari")

#: Investigations each Role would rather discard (from the player aids' advice).
DISCARD_WISH: dict[str, tuple[str, ...]] = {
    "light": ("execution", "frenzy", "resurrection", "conduct", "decision", "pact", "confession"),
    "misa": ("execution", "frenzy", "ally", "confession"),
    "higuchi": ("execution", "frenzy", "resurrection", "pact"),
    "yagami": ("rebirth",),
    "watari": ("rebirth", "conduct"),
    "matsuda": ("execution", "silence"),
    "mogi": ("execution",),
    "aizawa": (),
}
#: How much each Role likes to hold a card id (setup keep, discards, the Detective's gifts).
CARD_VALUE = {
    "death_note": 5,
    "page": 2,
    "rem": 4,
    "eyes": 5,
    "interrogation": 4,
    "denunciation": 5,
    "kira_supporter": 3,
    "alibi": 4,
    "search": 2,
    "wiretap": 3,
    "apples": 3,
    "theft": 2,
    "fake_dn": 3,
    "false_identity": 4,
    "staging": 3,
    "top_secret": 3,
    "blackmail": 3,
    "lie": 2,
    "cover_up": 3,
    "hostage": 2,
}
#: Cards the Detective prefers to give (least deadly first).
GIFT_ORDER = (
    "interrogation",
    "denunciation",
    "eyes",
    "kira_supporter",
    "wiretap",
    "fake_dn",
    "alibi",
    "cover_up",
    "lie",
    "top_secret",
    "false_identity",
    "staging",
    "search",
    "apples",
    "hostage",
    "theft",
    "blackmail",
    "rem",
    "page",
    "death_note",
)


class HeuristicAgent(Agent):
    """Plays any seat from its view."""

    name = "heuristic"

    def choose(self, obs: Observation) -> Action:
        """Pick one legal action."""
        legal = list(obs.legal)
        if len(legal) == 1:
            return legal[0]
        view = obs.view
        st = view["state"]
        decision = view["decision"]
        me = st["me"]
        choice = self._choose(st, me, decision["kind"], decision["data"], legal, obs)
        return choice if choice is not None else choice_of(obs, legal)

    # -- beliefs -------------------------------------------------------------------------------
    def suspicion(self, st: dict[str, Any], me: dict[str, Any], seat: int) -> float:
        """How much this seat looks like Light / a Kira to me (higher: more)."""
        info = st["seats"][seat]
        known = me["known_roles"].get(f"p{seat}") or info["role"]
        if known:
            if known == "light":
                return 100.0
            if known in KIRA:
                return 50.0
            return -50.0
        score = 2.0 * info["discards"] - 0.5 * info["keeps"] + 1.5 * info["ryuk_plays"]
        score += 0.7 * info["suspicions"] + (1.0 if info["pawn"] else 0.0)
        return score

    def role_of(self, st: dict[str, Any], me: dict[str, Any], seat: int) -> str | None:
        """A Role I know for a seat (revealed or looked at)."""
        role = st["seats"][seat]["role"]
        return role or me["known_roles"].get(f"p{seat}")

    def friendly(self, st: dict[str, Any], me: dict[str, Any], seat: int) -> bool:
        """A seat I know to be on my side."""
        role = self.role_of(st, me, seat)
        if role is None or seat == me["seat"]:
            return seat == me["seat"]
        mine = me["role"]
        if mine in KIRA:
            return role in KIRA
        if mine == "detective":
            return role in INVESTIGATORS
        return role in INVESTIGATORS

    # -- decisions --------------------------------------------------------------------------------
    def _choose(
        self,
        st: dict[str, Any],
        me: dict[str, Any],
        kind: str,
        data: dict[str, Any],
        legal: list[Action],
        obs: Observation,
    ) -> Action | None:
        role = me["role"]
        hand = {c["number"]: c for c in me["hand"]}
        values = [a.get("v") for a in legal]
        if kind == "respond":
            return self.respond(st, me, data, legal, hand, obs)
        if kind == "setup_keep":
            cards = data["cards"]
            return max(legal, key=lambda a: CARD_VALUE.get(cards[str(a.get("v"))], 2))
        if kind == "investigate":
            tile = me["looking"] or {}
            wants = tile.get("id") in DISCARD_WISH.get(role, ())
            if "discard" in values and wants:
                pawn = st["seats"][me["seat"]]["pawn"]
                if role != "light" or pawn or obs.rng.random() < 0.6:
                    return pick(legal, "discard")
            return pick(legal, "keep")
        if kind == "give_card":
            order = {cid: i for i, cid in enumerate(GIFT_ORDER)}
            return min(legal, key=lambda a: order.get(hand[a.get("v")]["id"], 99))
        if kind == "give_to":
            return min(legal, key=lambda a: self.suspicion(st, me, a.get("v")) + obs.rng.random())
        if kind == "give_suspicion":
            return max(legal, key=lambda a: self.detective_score(st, me, a.get("v")))
        if kind == "detective":
            return self.detective_pick(st, me, data, legal, obs)
        if kind == "target":
            return self.target(st, me, data, legal, obs)
        if kind == "name_role":
            known = me["known_roles"].get(data["ref"])
            return pick(legal, known) if known else None
        if kind == "mode":
            return pick(legal, "look" if role in KIRA else "reveal")
        if kind in ("rebirth", "overcast", "confession", "matsuda"):
            return self.reveal_choice(st, me, kind, legal, obs)
        if kind == "vote":
            return max(
                legal,
                key=lambda a: self.suspicion(st, me, a.get("v")) * (-1 if role in KIRA else 1),
            )
        if kind in ("discard", "give_action"):
            return min(legal, key=lambda a: CARD_VALUE.get(hand[a.get("v")]["id"], 2))
        if kind == "tactic":
            if role == "watari":
                for a in legal:
                    v = a.get("v")
                    if v and hand[v]["ryuk"]:
                        return a
            return pick(legal, 0)
        if kind == "expedient":
            wants = role in INVESTIGATORS or not any(c["ryuk"] for c in me["hand"])
            return pick(legal, "draw" if wants else "no")
        if kind in ("dn_play", "force"):
            return None
        return None

    def detective_score(self, st: dict[str, Any], me: dict[str, Any], seat: int) -> float:
        """The Detective concentrates Suspicions on the most suspect, nearly revealed player."""
        info = st["seats"][seat]
        return self.suspicion(st, me, seat) + 0.8 * info["suspicions"]

    def detective_pick(
        self,
        st: dict[str, Any],
        me: dict[str, Any],
        data: dict[str, Any],
        legal: list[Action],
        obs: Observation,
    ) -> Action | None:
        if data["choose"] != "seat":
            return None  # Ally's Roles, Gaze's discard, Performance's pair: no preference
        low = data["tile"] in ("rebirth", "overcast", "silence")

        def key(a: Action) -> float:
            v = a.get("v")
            if not isinstance(v, int) or isinstance(v, bool) or v >= len(st["seats"]):
                return obs.rng.random()
            s = self.detective_score(st, me, v)
            return -s if low else s

        return max(legal, key=key)

    def target(
        self,
        st: dict[str, Any],
        me: dict[str, Any],
        data: dict[str, Any],
        legal: list[Action],
        obs: Observation,
    ) -> Action | None:
        what = data.get("card") or data["step"]
        role = me["role"]
        seats = [
            a for a in legal if isinstance(a.get("v"), int) and not isinstance(a.get("v"), bool)
        ]
        refs = [a for a in legal if isinstance(a.get("v"), str)]
        if what in ("interrogation", "denunciation"):
            if role in KIRA:
                return min(
                    seats, key=lambda a: self.suspicion(st, me, a.get("v")) - 0.1 * obs.rng.random()
                )
            return max(
                seats, key=lambda a: self.suspicion(st, me, a.get("v")) + 0.1 * obs.rng.random()
            )
        if what == "alibi":
            return pick(legal, me["seat"]) or None
        if what == "page":
            known = [a for a in refs if a.get("v") in me["known_roles"]]
            known = [a for a in known if not self.page_friend(me, me["known_roles"][a.get("v")])]
            return choice_of(obs, known or refs)
        if what in ("death_note", "rem", "silence_target") and seats + refs:
            pool = seats or refs
            return max(pool, key=lambda a: self.kill_value(st, me, a.get("v"), obs))
        if what in ("eyes", "wiretap", "wager_target"):
            unknown = [a for a in seats if self.role_of(st, me, a.get("v")) is None]
            return choice_of(obs, unknown or seats)
        return None

    def kill_value(self, st: dict[str, Any], me: dict[str, Any], v: Any, obs: Observation) -> float:
        """How much I want this seat (int) or Role reference (str) dead."""
        role = me["role"]
        if isinstance(v, str):
            known = me["known_roles"].get(v)
            if v.startswith("i"):
                return 5.0 if role == "mogi" else 0.0 + obs.rng.random()
            seat = int(v[1:])
        else:
            seat = v
            known = self.role_of(st, me, seat)
        if role == "higuchi" and known == "matsuda":
            return 100.0
        if role in KIRA:
            return (-50.0 if known in KIRA else 10.0 if known else 0.0) + obs.rng.random()
        return (
            20.0 if known in KIRA else -20.0 if known else self.suspicion(st, me, seat)
        ) + obs.rng.random()

    def reveal_choice(
        self,
        st: dict[str, Any],
        me: dict[str, Any],
        kind: str,
        legal: list[Action],
        obs: Observation,
    ) -> Action | None:
        role = me["role"]
        values = [a.get("v") for a in legal]
        if kind == "rebirth":
            return pick(legal, "keep")
        if kind == "overcast":
            return pick(legal, "reveal" if role in ("yagami", "aizawa") else "silent")
        if kind == "confession":
            eager = role in ("yagami", "aizawa") or (role == "matsuda" and st["round"] >= 4)
            return pick(legal, "reveal" if eager else "suspicions")
        if kind == "matsuda":
            if "reveal" in values and st["round"] >= 4:
                return pick(legal, "reveal")
            return pick(legal, "no")
        return None

    def respond(
        self,
        st: dict[str, Any],
        me: dict[str, Any],
        data: dict[str, Any],
        legal: list[Action],
        hand: dict[int, dict[str, Any]],
        obs: Observation,
    ) -> Action:
        role = me["role"]
        passing = legal[0]
        plays = {a.get("card"): a for a in legal[1:]}
        by_id: dict[str, Action] = {}
        for n, a in plays.items():
            by_id.setdefault(hand[n]["id"], a)
        mine = st["seats"][me["seat"]]
        limit = st["suspicion_limit"]
        danger = not mine["revealed"] and mine["suspicions"] >= limit - 2
        window = data["window"]
        if window == "death":
            for cid in (
                ("top_secret", "false_identity", "staging")
                if role != "matsuda"
                else ("false_identity", "staging", "top_secret")
            ):
                if cid in by_id:
                    return by_id[cid]
            if "fake_dn" in by_id and role in ("matsuda", "watari", "mogi"):
                return by_id["fake_dn"]
            return passing
        if window == "lie":
            tile = data.get("tile")
            if "lie" in by_id and (
                (role in KIRA and tile in ("decision", "resurrection", "ally"))
                or (tile == "pursuit" and role in INVESTIGATORS)
            ):
                return by_id["lie"]
            return passing
        ryuk_cards = [c for c in me["hand"] if c["ryuk"]]
        late = st["round"] >= 5
        for cid, a in by_id.items():
            card = hand[a.get("card")]
            if role == "light" and card["ryuk"] and late and len(ryuk_cards) <= 1:
                continue
            if role == "watari" and not card["ryuk"] and late:
                pass
            if cid == "alibi" and danger and window == "detective":
                return a
            if cid == "cover_up" and mine["suspicions"] > 0:
                return a
            if cid in (
                "interrogation",
                "denunciation",
                "eyes",
                "wiretap",
                "kira_supporter",
                "apples",
                "search",
            ):
                return a
            if cid in (
                "death_note",
                "rem",
                "page",
                "blackmail",
                "theft",
                "hostage",
            ) and self.wants_aggression(st, me, obs):
                if cid == "page" and not self.known_targets(st, me):
                    continue
                return a
        return passing

    def wants_aggression(self, st: dict[str, Any], me: dict[str, Any], obs: Observation) -> bool:
        """Whether this Role plays killing cards now."""
        role = me["role"]
        if role in ("misa", "higuchi", "aizawa", "mogi"):
            return True
        if role == "matsuda":
            return False
        return obs.rng.random() < 0.3

    def page_friend(self, me: dict[str, Any], role: str) -> bool:
        """A Role a Page of Death Note should spare."""
        return role in KIRA if me["role"] in KIRA else role not in KIRA

    def known_targets(self, st: dict[str, Any], me: dict[str, Any]) -> bool:
        """Whether I know a Role I could name with a Page of Death Note."""
        return any(not self.page_friend(me, r) for r in me["known_roles"].values())


def pick(legal: list[Action], value: Any) -> Action | None:
    """The legal action with this value, if any."""
    for a in legal:
        if a.get("v") == value:
            return a
    return None


def choice_of(obs: Observation, options: list[Action]) -> Action:
    """A uniformly random one of ``options`` (drawn through the engine's generator)."""
    return rng_choice(obs.rng, options)
