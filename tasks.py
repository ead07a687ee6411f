#!/usr/bin/env python3
"""Set-up and task runner for a fresh machine with only Python 3.11+.

    python3 tasks.py run     # the main job (see README)
    python3 tasks.py test    # ruff, mypy and the whole pytest suite

Each creates or reuses `.venv` beside this file and installs the project into it,
re-installing only when pyproject.toml changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("DEATHNOTE_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def ensure_venv() -> None:
    """Create the virtual environment and install the project with its dev, rl, cluster and
    scale extras (the test suite runs PettingZoo's and Gymnasium's own API tests, a Dask
    LocalCluster, and server processes sharing a Redis)."""
    if sys.version_info < (3, 11):  # noqa: UP036  (a clear message on an old Python)
        sys.exit("deathnote needs Python 3.11 or newer")
    if not PY.exists():
        print(f"creating virtual environment in {VENV}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = VENV / ".deathnote-installed"
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("installing deathnote and its dependencies", file=sys.stderr)
    subprocess.run([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run(
        [str(PY), "-m", "pip", "install", "-q", "-e", f"{ROOT}[dev,rl,cluster,scale]"], check=True
    )
    stamp.write_text(digest)


def run(*cmd: str) -> int:
    """Run a command from the project root and return its exit code."""
    print("$", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


TASKS = {
    "run": "the web app (deathnote serve); extra arguments go to it",
    "test": "ruff, mypy and the whole pytest suite; extra arguments go to pytest",
    "play": "play in the terminal (default: Confrontation against the bot)",
    "shell": "any deathnote command, e.g. python3 tasks.py shell simulate icg --games 10",
}


def usage() -> str:
    """What the tasks are."""
    lines = ["usage: python3 tasks.py [TASK] [ARGS...]", "", "tasks:"]
    lines += [f"  {name:<6} {text}" for name, text in TASKS.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    task = argv[0] if argv else "run"
    rest = argv[1:]
    if task in ("-h", "--help", "help"):
        print(usage())
        return 0
    if task not in TASKS:
        print(f"unknown task {task!r}\n\n{usage()}", file=sys.stderr)
        return 2
    ensure_venv()
    if task == "run":
        # The web app; it prints the address to open.
        return run(str(BIN / "deathnote"), "serve", *rest)
    if task == "play":
        return run(str(BIN / "deathnote"), "play", *(rest or ["confrontation"]))
    if task == "test":
        for step in (
            [str(BIN / "ruff"), "check", "src", "tests", "tasks.py"],
            [str(BIN / "ruff"), "format", "--check", "src", "tests", "tasks.py"],
            [str(BIN / "mypy")],
        ):
            code = run(*step)
            if code:
                return code
        return run(str(PY), "-m", "pytest", "-n", os.environ.get("DEATHNOTE_TEST_JOBS", "2"), *rest)
    if task == "shell":
        return run(str(BIN / "deathnote"), *rest)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
