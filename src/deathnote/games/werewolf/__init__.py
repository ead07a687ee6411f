"""Death Note 人狼 (Death Note Werewolf), 4-7 players."""

from deathnote.games.werewolf.game import WerewolfGame

GAME = WerewolfGame()

__all__ = ["GAME", "WerewolfGame"]
