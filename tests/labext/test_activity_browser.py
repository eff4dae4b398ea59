"""The panel's Activity section and connection card in a real JupyterLab, in Debian's headless Chromium.

Agents (the official Python SDK client, each its own MCP session) call tools, one call
fails; the person sees every call with its status and duration, narrows the list with the
filter and the errors-only toggle, finds the agents on the connection card and copies a
client config that names the endpoint.
"""

from __future__ import annotations

import json
import re
from typing import Any

from jupyter_mcp_lab.server.client_config import KEY_PLACEHOLDER
from tests.labext.conftest import Lab, browser, open_panel

AGENT = "activity-test-agent"
LATE_AGENT = "late-agent"


def show_panel(page: Any) -> Any:
    """The panel, visible: ``open_panel`` again while the palette missed the keystrokes.

    Right after the shell loads, the palette sometimes is not ready for them; hidden, the
    panel would still hold rows (from the event stream) but never fetch or show them.
    """
    for _ in range(3):
        panel = open_panel(page)
        try:
            panel.wait_for(state="visible", timeout=5_000)
            return panel
        except Exception:
            page.keyboard.press("Escape")
    raise AssertionError("the MCP Lab panel did not open from the command palette")


def call(lab: Lab, tool: str, arguments: dict, client: str = AGENT, fails: bool = False) -> None:
    result = lab.agent_call(tool, arguments, client_name=client)
    assert result.is_error == fails, result


def test_activity_filter_agents_and_config_copy(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / "notes.md").write_text("# Notes\n\nSome text.\n")
    call(lab, "document", {"action": "read", "path": "notes.md"})
    call(lab, "document", {"action": "read", "path": "missing.md"}, fails=True)
    call(lab, "review", {"action": "list"})

    with browser(lab, "activity", height=1400) as (page, shots):
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=lab.base)
        panel = show_panel(page)
        section = panel.locator(".jp-McpLab-activity")
        rows = section.locator(".jp-McpLab-activityEntry")

        # Every call, newest first, with client, status, duration and time.
        shots.at("activity")
        expect(rows).to_have_count(3, timeout=20_000)
        expect(rows.locator(".jp-McpLab-activityTool")).to_have_text(["review.list", "document.read", "document.read"])
        expect(rows.locator(".jp-McpLab-activityClient")).to_have_text([AGENT] * 3)
        expect(rows.locator(".jp-McpLab-activityStatus")).to_have_text(["ok", "NOT_FOUND", "ok"])
        failed = rows.nth(1)
        expect(failed).to_have_class(re.compile(r"\bjp-mod-error\b"))
        expect(rows.nth(0)).not_to_have_class(re.compile(r"\bjp-mod-error\b"))
        expect(failed.locator(".jp-McpLab-activityArgs")).to_contain_text("path='missing.md'")
        for text in rows.locator(".jp-McpLab-activityDuration").all_inner_texts():
            assert re.fullmatch(r"[0-9][0-9,.]* ms", text), text
        for text in rows.locator(".jp-McpLab-activityTime").all_inner_texts():
            assert re.fullmatch(r"\d\d:\d\d:\d\d", text), text
        expect(section.locator(".jp-McpLab-sectionHeading")).to_have_text("Activity (3)")

        # A call made while the panel is open arrives on the event stream.
        shots.at("live")
        call(lab, "document", {"action": "read", "path": "notes.md"}, client=LATE_AGENT)
        expect(rows).to_have_count(4, timeout=15_000)
        expect(rows.first.locator(".jp-McpLab-activityClient")).to_have_text(LATE_AGENT)
        section.scroll_into_view_if_needed()
        shots.save("activity")

        # The filter matches tool, client and arguments; errors only keeps the failure.
        shots.at("filter")
        search = section.get_by_placeholder("Filter by tool, client, arguments")
        search.fill("missing")
        expect(rows).to_have_count(1)
        expect(rows.locator(".jp-McpLab-activityStatus")).to_have_text("NOT_FOUND")
        search.fill("late-AGENT")
        expect(rows).to_have_count(1)
        search.fill("review")
        expect(rows.locator(".jp-McpLab-activityTool")).to_have_text(["review.list"])
        search.fill("")
        expect(rows).to_have_count(4)
        errors_only = section.get_by_label("Errors only")
        errors_only.check()
        expect(rows).to_have_count(1)
        expect(section.locator(".jp-McpLab-sectionHeading")).to_have_text("Activity (1 of 4)")
        shots.save("errors-only")
        errors_only.uncheck()
        expect(rows).to_have_count(4)

        # The connection card lists the agents by client name; the late one arrived on its
        # own (the card follows the activity events), before any Refresh.
        shots.at("agents")
        panel.get_by_role("button", name="Connect an agent…").click()  # the card unfolds
        agent = panel.locator(f'.jp-McpLab-agent[data-client="{AGENT}"]')
        expect(agent).to_be_visible(timeout=15_000)
        # agent_call opens a session per call: the card counts the client once.
        expect(agent.locator(".jp-McpLab-agentCalls")).to_have_text("3 calls in 3 sessions")
        expect(agent.locator(".jp-McpLab-agentLast")).to_have_text(re.compile(r"just now|\d+ s ago"))
        expect(panel.locator(f'.jp-McpLab-agent[data-client="{LATE_AGENT}"]')).to_have_count(1, timeout=15_000)

        # A copy button puts a config naming this endpoint on the clipboard, with a place for an
        # agent key (never the server's token).
        shots.at("copy")
        endpoint = f"{lab.base}/mcp"
        client = panel.locator(".jp-McpLab-clientSelect")
        expect(client.locator("option")).to_have_text(["Claude Code", "Claude Desktop", "VS Code", "Cursor"])
        row = panel.locator('.jp-McpLab-endpoint[data-profile="lab"]')
        expect(row.locator(".jp-McpLab-endpointUrl")).to_have_text(endpoint)
        client.select_option("vscode")
        vscode = row.locator('.jp-McpLab-copyConfig[data-client="vscode"]')
        vscode.click()
        expect(vscode).to_have_text("Copied")
        copied = json.loads(page.evaluate("navigator.clipboard.readText()"))
        headers = {"Authorization": f"Bearer {KEY_PLACEHOLDER}"}
        assert copied == {"servers": {"jupyter-lab": {"type": "http", "url": endpoint, "headers": headers}}}
        expect(vscode).to_have_text("Config", timeout=5_000)  # the button says "Copied" only for a moment
        client.select_option("claude-code")
        row.locator('.jp-McpLab-copyConfig[data-client="claude-code"]').click()
        command = page.evaluate("navigator.clipboard.readText()")
        assert command.startswith("claude mcp add --transport http jupyter-lab ") and endpoint in command
        panel.locator(".jp-McpLab-rows").scroll_into_view_if_needed()
        shots.save("card")
