"""Game modules, one subpackage per game, each exposing GAME."""
