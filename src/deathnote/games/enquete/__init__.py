"""Death Note: Le Jeu d'Enquête (4-8 players, one of them the Detective)."""

from deathnote.games.enquete.game import EnqueteGame

GAME = EnqueteGame()

__all__ = ["GAME", "EnqueteGame"]
