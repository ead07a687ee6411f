"""The terminal table draws every viewer's view."""

from __future__ import annotations

from rich.console import Console

from deathnote.cli.render import render_view
from deathnote.engine import SPECTATOR

from .helpers import new
from .test_views import play_random


def test_renderer_draws_views() -> None:
    m = new(7, 5)
    for seat, action in play_random(7, 5, first_player=0)[:40]:
        m.submit(seat, action)
    console = Console(width=120, record=True)
    for viewer in (0, 3, SPECTATOR):
        console.print(render_view(m.view(viewer)))
    text = console.export_text()
    assert "Death Note Werewolf" in text and "Discard pile" in text
