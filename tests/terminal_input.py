"""Scripted answers to the terminal's prompts, for tests that play a whole game."""

from __future__ import annotations

import re


def first_key(prompt: str) -> str:
    """Answer a terminal prompt with its first choice (whatever kind of key it shows)."""
    if "nothing to decide" in prompt or "Pass the device" in prompt:
        return ""
    hint = prompt.split("choose ", 1)[1]
    if hint.startswith("the number or letter in brackets ("):
        return hint.split("(", 1)[1].split(",")[0]
    return re.split(r"[-, ]", hint)[0]
