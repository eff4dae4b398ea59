"""The official MCP conformance suite against the ``conformance`` profile of a real server.

The suite (npm ``@modelcontextprotocol/conformance``) has no option for request headers;
``tests/js/auth-preload.mjs`` adds Jupyter's ``Authorization`` header to its requests to the
test server's origin and nowhere else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import LabServer, NodeTools, run_process

pytestmark = [
    pytest.mark.node,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

TOTAL_RE = re.compile(r"Total:\s*(\d+)\s+passed,\s*(\d+)\s+failed")


async def run_suite(node: NodeTools, server: LabServer, cwd: Path, *extra: str, token: str | None = None):
    cli = node.node_modules / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    return await run_process(
        node.node22,
        "--import",
        str(node.js_dir / "auth-preload.mjs"),
        str(cli),
        "server",
        "--url",
        server.mcp_url("conformance"),
        "--output-dir",
        str(cwd / "results"),
        *extra,
        cwd=cwd,
        env={
            "MCP_AUTH_HEADER": f"token {token or server.token}",
            "MCP_AUTH_ORIGIN": server.origin,
            "NO_COLOR": "1",
        },
        time_limit=240,
    )


def summary(output: str, results: Path | None = None) -> str:
    """The suite's own summary (one line per scenario, totals), then each failed check."""
    lines = output.strip().splitlines()
    marks = [i for i, line in enumerate(lines) if "=== SUMMARY ===" in line]
    report = lines[marks[-1] :] if marks else lines[-60:]
    failures = []
    for checks in sorted(results.glob("*/checks.json")) if results else ():
        for check in json.loads(checks.read_text()):
            if check.get("status") == "FAILURE":
                failures.append(f"  {checks.parent.name}: {check['id']}: {check.get('errorMessage', '')}")
    return "\n".join([*report, *(["failed checks:", *failures] if failures else [])])


@pytest.mark.parametrize(("extra", "minimum"), [((), 40), (("--suite", "all"), 42)], ids=["active", "all"])
async def test_conformance_suite_passes(
    node: NodeTools,
    mcp_lab: LabServer,
    tmp_path: Path,
    extra: tuple[str, ...],
    minimum: int,
) -> None:
    result = await run_suite(node, mcp_lab, tmp_path, *extra)
    output = result.stdout + result.stderr
    (tmp_path / "conformance.log").write_text(output)
    report = summary(output, tmp_path / "results")
    totals = TOTAL_RE.findall(output)
    assert totals, f"no 'Total:' line in the suite's output:\n{report}"
    passed, failed = (int(n) for n in totals[-1])
    assert (result.returncode, failed) == (0, 0), f"exit {result.returncode}\n{report}"
    assert passed >= minimum, f"only {passed} checks passed\n{report}"
    assert len(list((tmp_path / "results").glob("*/checks.json"))) >= 30, report


async def test_conformance_suite_fails_without_the_token(node: NodeTools, mcp_lab: LabServer, tmp_path: Path) -> None:
    """The suite is not passing by accident: with a wrong token nothing gets through."""
    result = await run_suite(node, mcp_lab, tmp_path, token="wrong-token")
    output = result.stdout + result.stderr
    report = summary(output, tmp_path / "results")
    assert result.returncode != 0, report
    totals = TOTAL_RE.findall(output)
    assert totals, report
    passed, failed = (int(n) for n in totals[-1])
    assert failed >= 25, report
    assert passed <= 1, report  # only "a foreign Host is refused" holds without the token
