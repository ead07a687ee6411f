"""The terminal renderer draws every phase from views alone."""

from __future__ import annotations

import io

from rich.console import Console

from deathnote.agents import agent_rng, make_agent, observe
from deathnote.cli.render import render_view
from deathnote.engine import SPECTATOR, Match


def draw(view: dict[str, object]) -> str:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render_view(view))
    return console.export_text()


def test_renderer_draws_every_phase() -> None:
    for rules in ("light", "kira"):
        m = Match.create("icg", 5, 9, {"rules": rules, "shinigami_eyes": True})
        bots = [make_agent("icg", "heuristic", s) for s in range(5)]
        rngs = [agent_rng(9, s) for s in range(5)]
        phases = set()
        while m.outcome() is None:
            s = min(m.pending())
            phases.add(m.state.phase)
            text = draw(m.view(s))
            assert "Your cards" in text and "Identity:" in text
            assert "Your cards" not in draw(m.view(SPECTATOR))
            m.submit(s, bots[s].choose(observe(m, s, rngs[s])))
        assert {"investigate", "arrest", "dn_identity"} <= phases
        assert "Game over" in draw(m.view(SPECTATOR))
