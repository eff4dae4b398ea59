"""The rules that keep operations few and surfaces thin (jupyter_mcp_lab/surfaces/README.md).

Every capability is an operation listed by its package, reachable from the default ``lab``
profile; surfaces hold operations and adapters as objects; an adapter uses only registered
operations; shared code never names a tool of one profile in what it says to an agent.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import jupyter_mcp_lab
from jupyter_mcp_lab.ops import PACKAGES, registry
from jupyter_mcp_lab.ops.base import Operation
from jupyter_mcp_lab.surfaces import PROFILES
from jupyter_mcp_lab.surfaces.adapter import Adapter
from jupyter_mcp_lab.surfaces.base import CompositeTool, FlatTool, ToolSpec

PACKAGE = Path(jupyter_mcp_lab.__file__).parent
# The target of the architecture issue: about 40 capabilities for lab, vmark and vmark2; notebook
# sessions and workspace files (issue 15) and outline edits (issue 16) came since.
MAX_OPERATIONS = 50


def _targets(spec: ToolSpec) -> list[Operation | str]:
    return [spec.op] if isinstance(spec, FlatTool) else list(spec.actions.values())


def _operations_used(profile: str) -> set[str]:
    used: set[str] = set()
    for spec in PROFILES[profile].tools:
        for target in _targets(spec):
            assert isinstance(target, Operation)
            used.update(u.name for u in (target.uses if isinstance(target, Adapter) else (target,)))
    return used


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_tools_hold_operations_as_objects(profile: str) -> None:
    named = [spec.name for spec in PROFILES[profile].tools if any(isinstance(t, str) for t in _targets(spec))]
    assert named == [], f"{profile}: tools that name their operation by string: {named}"


def test_every_operation_is_reachable_from_the_lab_profile() -> None:
    missing = sorted(set(registry.names()) - _operations_used("lab"))
    assert missing == [], f"operations the lab profile cannot reach: {missing}"


def test_the_reference_profiles_need_no_operation_of_their_own() -> None:
    """Every operation vmark and vmark2 use is one lab uses too: their differences are shapes."""
    for profile in ("vmark", "vmark2"):
        assert _operations_used(profile) <= _operations_used("lab"), profile


def test_operations_are_few_and_listed_by_their_package() -> None:
    assert len(registry) <= MAX_OPERATIONS, f"{len(registry)} operations: fold one-off ones into a capability"
    listed = [op for package in PACKAGES for op in package.OPERATIONS]
    assert len(listed) == len(set(listed)) == len(registry)
    for package in PACKAGES:
        area = package.__name__.rsplit(".", 1)[-1]
        for op in package.OPERATIONS:
            assert op.handler.__module__.startswith(package.__name__ + "."), (area, op.name)


def test_adapters_use_only_registered_operations() -> None:
    for profile, surface in PROFILES.items():
        for spec in surface.tools:
            for target in _targets(spec):
                if isinstance(target, Adapter):
                    assert target.handler.__module__.startswith(f"jupyter_mcp_lab.surfaces.{profile}"), (
                        f"{profile}.{spec.name}: its adapter belongs in the profile's package"
                    )
                    for used in target.uses:
                        assert used.name in registry and registry.get(used.name) is used, (spec.name, used.name)
                else:
                    assert registry.get(target.name) is target, (profile, spec.name)


def _profile_phrases() -> list[str]:
    """Names only one profile knows: flat tool names with an underscore (suggestion_list) and
    the lab profile's "tool action" pairs (review wait)."""
    phrases = set()
    for profile, surface in PROFILES.items():
        if profile == "conformance":
            continue
        for spec in surface.tools:
            if isinstance(spec, FlatTool) and "_" in spec.name:
                phrases.add(spec.name)
            if isinstance(spec, CompositeTool) and profile == "lab":
                phrases.update(f"{spec.name} {action}" for action in spec.actions)
    return sorted(phrases)


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_shared_code_never_names_a_tool_of_one_profile() -> None:
    """What ops/ and core/ say to an agent (messages, field descriptions) must hold for every
    profile: a VMark agent told to "use review wait" has no such tool. Docstrings, which only
    developers read, may name tools."""
    files = [path for folder in ("ops", "core") for path in sorted((PACKAGE / folder).rglob("*.py"))]
    strings = [(path, line, text) for path in files for line, text in _strings(path)]
    # A name that is itself a value of a capability (the edit kind "move_section") is vocabulary
    # every profile may use.
    vocabulary = {text for _, _, text in strings}
    phrases = [p for p in _profile_phrases() if p not in vocabulary]
    pattern = re.compile(r"\b(" + "|".join(re.escape(p) for p in phrases) + r")\b")
    found = []
    for path, line, text in strings:
        match = pattern.search(text)
        if match:
            found.append(f"{path.relative_to(PACKAGE)}:{line}: {match.group(0)!r} in {text[:80]!r}")
    assert found == [], "\n".join(found)
