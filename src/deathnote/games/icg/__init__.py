"""Death Note Investigation Card Game (4-8 players; Light rules, Kira rules, Shinigami Eyes)."""

from deathnote.games.icg.game import IcgGame

GAME = IcgGame()

__all__ = ["GAME", "IcgGame"]
