"""MatchEnv is the PettingZoo AEC environment under its old name."""

from __future__ import annotations

import subprocess
import sys

from deathnote.interop import MatchEnv
from deathnote.interop.pettingzoo import DeathNoteAECEnv


def test_match_env_is_the_pettingzoo_aec_env() -> None:
    assert MatchEnv is DeathNoteAECEnv
    env = MatchEnv("confrontation")
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1"]


def test_interop_package_imports_without_the_learning_libraries() -> None:
    code = (
        "import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
        "sys.modules['pyspiel'] = None\n"
        "import deathnote.interop, deathnote.engine\n"
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_learning_libraries_are_an_extra_not_a_main_dependency() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    main = " ".join(project["project"]["dependencies"])
    extras = project["project"]["optional-dependencies"]
    for name in ("pettingzoo", "gymnasium", "open_spiel"):
        assert name not in main
        assert any(dep.startswith(name) for dep in extras["rl"])


def test_each_adapter_needs_only_its_own_library() -> None:
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "import deathnote.interop.gymnasium, deathnote.interop.openspiel\n"
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
