"""Every rule id in docs/rules/*.md is unique and names tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = re.compile(r"^### ([A-Z]+-[A-Z0-9]+-\d+)\b", re.M)
TESTS = re.compile(r"^Tests:\s*(.+)$", re.M)


def entries() -> list[tuple[str, str, str]]:
    found = []
    for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = doc.read_text()
        heads = list(HEADING.finditer(text))
        for i, head in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
            found.append((doc.name, head.group(1), text[head.start() : end]))
    return found


def node_exists(node: str) -> bool:
    path, _, rest = node.partition("::")
    file = ROOT / path
    if not file.is_file() or not rest:
        return False
    name = rest.split("::")[-1].split("[")[0]
    return re.search(rf"^\s*(async\s+)?def {re.escape(name)}\(", file.read_text(), re.M) is not None


def test_rule_ids_are_unique_and_tested() -> None:
    seen: dict[str, str] = {}
    problems = []
    for doc, rule_id, body in entries():
        if rule_id in seen:
            problems.append(f"{rule_id} in {doc} duplicates one in {seen[rule_id]}")
        seen[rule_id] = doc
        match = TESTS.search(body)
        if not match:
            problems.append(f"{doc} {rule_id}: no Tests: line")
            continue
        for node in re.split(r"[,\s]+", match.group(1).strip()):
            if node and not node_exists(node):
                problems.append(f"{doc} {rule_id}: test {node} does not exist")
    assert not problems, "\n".join(problems)


def test_checker_catches_a_missing_test() -> None:
    assert node_exists("tests/test_rules_docs.py::test_rule_ids_are_unique_and_tested")
    assert not node_exists("tests/test_rules_docs.py::test_no_such_thing")
    assert not node_exists("tests/nope.py::test_x")
