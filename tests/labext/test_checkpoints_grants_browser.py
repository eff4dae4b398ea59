"""Trust grants and checkpoints in the panel, in a real JupyterLab in headless Chromium.

A person grants an agent (by its MCP client name, the official Python SDK client) direct
apply on the document open in JupyterLab; the agent's next edit applies at once and shows
in Checkpoints; the person reverts it there, sees a revert refused when a later edit touched
the same text, and revokes the grant; the agent's next edit waits for review again. Revert
and Revoke ask first, in a dialog whose Cancel has the focus (Enter changes nothing). A
notebook's accepted cell change shows in Checkpoints by cell. A button Tabbed to keeps the
focus when its section redraws (one JupyterLab for the module).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.labext.conftest import Lab, browser, open_panel, start_lab
from tests.ops.notebook.notebooks import rich, write

DOC = "notes.md"
TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"
AGENT = "grant-test-agent"
NOTEBOOK = "cells.ipynb"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with start_lab(tmp_path_factory.mktemp("checkpoints-grants"), "--MCPLabApp.approval=suggest") as running:
        yield running


def edit(
    lab: Lab, text: str, replacement: str, rationale: str = "", *, path: str = DOC, agent: str = AGENT
) -> dict[str, Any]:
    """The agent's edit (it asks to apply; the server's policy decides); its structured result."""
    arguments: dict[str, Any] = {
        "action": "edit",
        "path": path,
        "edits": [{"op": "anchored", "text": text, "replacement": replacement}],
    }
    if rationale:
        arguments["rationale"] = rationale
    result = lab.agent_call("document", arguments, client_name=agent)
    assert not result.is_error, result
    return result.structured_content


def pending(lab: Lab) -> list[dict]:
    return lab.api("GET", "suggestions")["suggestions"]


def decline_news(page: Any) -> None:
    """Answer JupyterLab's "notified about news?" toast, as a person would: it covers the
    bottom of the side panel."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    toast = page.locator(".Toastify__toast", has_text="official Jupyter news")
    try:
        toast.get_by_role("button", name="No", exact=True).click(timeout=10_000)
    except PlaywrightTimeout:
        return  # not asked (yet): nothing covers the panel
    toast.wait_for(state="detached", timeout=10_000)


def confirm(page: Any, title: str, action: str, shots: Any = None, shot: str = "") -> None:
    """The confirmation dialog ``title`` is open with Cancel focused; go ahead with ``action``."""
    from playwright.sync_api import expect

    dialog = page.locator(".jp-Dialog")
    expect(dialog.locator(".jp-Dialog-header")).to_have_text(title, timeout=10_000)
    cancel = dialog.get_by_role("button", name="Cancel")
    expect(cancel).to_be_focused()
    if shots is not None:
        shots.save(shot)
    dialog.get_by_role("button", name=action, exact=True).click()
    expect(dialog).to_have_count(0, timeout=10_000)


def refuse(page: Any, title: str) -> None:
    """The confirmation dialog ``title`` is open; Enter (on the focused Cancel) closes it."""
    from playwright.sync_api import expect

    dialog = page.locator(".jp-Dialog")
    expect(dialog.locator(".jp-Dialog-header")).to_have_text(title, timeout=10_000)
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0, timeout=10_000)


def test_grant_checkpoint_revert_and_revoke_in_the_panel(lab: Lab) -> None:
    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)
    write(lab.root, NOTEBOOK, rich())
    # The agent has been at work: the panel offers its client name.
    assert not lab.agent_call("session", {"action": "get_state"}, client_name=AGENT).is_error

    with browser(lab, "grants") as (page, shots):
        # The person has the document open: the grant form proposes it as the scope.
        shots.at("open document")
        # Once JupyterLab restored its layout (it opens the launcher), open the document.
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        decline_news(page)
        page.locator(".jp-DirListing-item", has_text=DOC).dblclick(timeout=20_000)
        expect(page.locator(".jp-MainAreaWidget .jp-FileEditor")).to_be_visible(timeout=20_000)
        panel = open_panel(page)
        grants = panel.locator(".jp-McpLab-grants")
        checkpoints = panel.locator(".jp-McpLab-checkpoints")
        scope = grants.locator("input.jp-McpLab-grantScope")
        expect(scope).to_have_value(DOC, timeout=20_000)
        expect(grants.locator(f'datalist option[value="{AGENT}"]')).to_have_count(1, timeout=10_000)
        expect(grants.locator(".jp-McpLab-empty")).to_contain_text("No active grants")
        expect(checkpoints.locator(".jp-McpLab-empty")).to_be_visible()

        # The server's validation message shows in the form; nothing is granted.
        shots.at("invalid grant")
        grants.locator("input.jp-McpLab-grantAgent").fill(AGENT)
        scope.fill("../outside")
        grants.get_by_role("button", name="Grant", exact=True).click()
        expect(grants.locator(".jp-McpLab-grantError")).to_contain_text("'..'", timeout=10_000)
        assert lab.api("GET", "grants")["grants"] == []
        shots.save("invalid")

        # Grant the agent direct apply on the document for 15 minutes.
        shots.at("grant")
        scope.fill(DOC)
        grants.locator("select.jp-McpLab-grantDuration").select_option(label="15 minutes")
        grants.get_by_role("button", name="Grant", exact=True).click()
        row = grants.locator(".jp-McpLab-grant")
        expect(row).to_have_count(1, timeout=10_000)
        expect(row.locator(".jp-McpLab-author")).to_have_text(AGENT)
        expect(row.locator(".jp-McpLab-scope")).to_have_text(DOC)
        expect(row.locator(".jp-McpLab-timeLeft")).to_have_text("15 min left")  # rounded to the minute
        expect(grants.locator(".jp-McpLab-grantError")).to_be_hidden()
        [grant] = lab.api("GET", "grants", params={"active": "true"})["grants"]
        assert (grant["agent"], grant["agentKind"], grant["scope"]) == (AGENT, "client", DOC)
        assert grant["expires"] - grant["created"] == pytest.approx(15 * 60)
        shots.save("granted")

        # The agent's next edit applies directly, and shows in Checkpoints.
        shots.at("applied")
        result = edit(lab, "quick brown fox", "quick red fox", "Foxes here are red.")
        assert (result["mode"], result["applied"]) == ("apply", True)
        applied = TEXT.replace("brown", "red")
        assert lab.wait_for_file(DOC, lambda t: t == applied) == applied
        assert pending(lab) == []
        cp = checkpoints.locator(f'.jp-McpLab-checkpoint[data-id="{result["checkpointId"]}"]')
        expect(cp).to_be_visible(timeout=15_000)
        expect(cp.locator(".jp-McpLab-source")).to_have_text("grant")
        expect(cp.locator(".jp-McpLab-path")).to_have_text(DOC)
        expect(cp.locator(".jp-McpLab-author")).to_have_text(AGENT)
        expect(cp.locator(".jp-McpLab-lines")).to_have_text("line 3")
        expect(cp.locator(".jp-McpLab-cpTime")).to_have_text("just now")
        expect(cp.locator(".jp-McpLab-original")).to_have_text("brown")
        expect(cp.locator(".jp-McpLab-new")).to_have_text("red")
        cp.get_by_role("button", name="Diff").click()
        expect(cp.locator(".jp-McpLab-diffAdd")).to_contain_text("+The quick red fox.", timeout=10_000)
        expect(cp.locator(".jp-McpLab-diffDel")).to_contain_text("-The quick brown fox.")
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(0)
        shots.save("applied")

        # Revert asks first; Enter keeps the change (Cancel has the focus).
        shots.at("revert refused")
        cp.get_by_role("button", name="Revert").click()
        refuse(page, "Revert this change?")
        page.wait_for_timeout(500)
        assert doc.read_text() == applied
        expect(cp.locator(".jp-McpLab-revertedTag")).to_have_count(0)

        # Revert in the panel: the file is back, the row says reverted, the revert is listed.
        shots.at("revert")
        cp.get_by_role("button", name="Revert").click()
        confirm(page, "Revert this change?", "Revert", shots, "revert-dialog")
        assert lab.wait_for_file(DOC, lambda t: t == TEXT) == TEXT
        expect(cp.locator(".jp-McpLab-revertedTag")).to_have_text("reverted", timeout=10_000)
        expect(cp.get_by_role("button", name="Revert")).to_have_count(0)
        expect(checkpoints.locator(".jp-McpLab-checkpoint").first).to_have_attribute("data-source", "revert")
        shots.save("reverted")

        # A change a later edit touched: the revert is refused on its row, nothing changes.
        shots.at("conflict")
        older = edit(lab, "lazy dog", "sleepy dog")["checkpointId"]  # "laz" became "sleep"
        edit(lab, "sleepy dog", "tired dog")  # and that "sleep" is gone again
        later = TEXT.replace("lazy dog", "tired dog")
        assert lab.wait_for_file(DOC, lambda t: t == later) == later
        cp = checkpoints.locator(f'.jp-McpLab-checkpoint[data-id="{older}"]')
        expect(cp).to_be_visible(timeout=15_000)
        cp.get_by_role("button", name="Revert").click()
        confirm(page, "Revert this change?", "Revert")
        error = cp.locator(".jp-McpLab-cpError.jp-mod-conflict")
        expect(error).to_contain_text("Conflict: nothing was changed.", timeout=10_000)
        expect(error).to_contain_text("The checkpoint's change was edited since")
        expect(cp.locator(".jp-McpLab-revertedTag")).to_have_count(0)
        assert doc.read_text() == later
        shots.save("conflict")

        # Revoke: the grant leaves the list, and the agent's next edit is staged again.
        shots.at("revoke")
        grants.locator(".jp-McpLab-grant").get_by_role("button", name="Revoke").click()
        refuse(page, "Revoke this grant?")
        expect(grants.locator(".jp-McpLab-grant")).to_have_count(1)
        assert len(lab.api("GET", "grants", params={"active": "true"})["grants"]) == 1
        grants.locator(".jp-McpLab-grant").get_by_role("button", name="Revoke").click()
        confirm(page, "Revoke this grant?", "Revoke", shots, "revoke-dialog")
        expect(grants.locator(".jp-McpLab-grant")).to_have_count(0, timeout=10_000)
        expect(grants.locator(".jp-McpLab-empty")).to_contain_text("No active grants")
        assert lab.api("GET", "grants", params={"active": "true"})["grants"] == []
        result = edit(lab, "quick brown fox", "quick grey fox")
        assert (result["mode"], result["applied"]) == ("suggest", False)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(1, timeout=15_000)
        assert doc.read_text() == later
        shots.save("revoked")

        # A notebook's checkpoint is told by cell, as a pending cell suggestion's card is.
        shots.at("notebook checkpoint")
        staged = lab.agent_call(
            "notebook",
            {"action": "edit", "path": NOTEBOOK, "op": "replace", "cell": "load", "old": "math", "new": "cmath"},
            client_name=AGENT,
        ).structured_content
        lab.api("POST", f"suggestions/{staged['suggestionIds'][0]}/accept")
        newest = lab.api("GET", "checkpoints", params={"path": NOTEBOOK})["checkpoints"][0]["id"]
        cp = checkpoints.locator(f'.jp-McpLab-checkpoint[data-id="{newest}"]')
        expect(cp.locator(".jp-McpLab-cellTitle")).to_have_text("Cell 2 (code): source, line 1", timeout=15_000)
        expect(cp.locator(".jp-McpLab-lines")).to_have_text("cell 2")
        expect(cp.locator(".jp-McpLab-diffAdd")).to_contain_text("import cmath")
        expect(cp.locator(".jp-McpLab-original")).to_have_count(0)  # not the notebook's JSON
        shots.save("notebook-checkpoint")

    assert [s["new"] for s in pending(lab)] == ["grey"]


# ---------------------------------------------------------------------------------- focus

FOCUS_DOC = "focus.md"
FOCUS_AGENT = "focus-test-agent"

# The focused element: its focus key, its text, and the row it is in (a checkpoint's or a
# grant's id, an activity entry's seq).
FOCUSED = """() => { const n = document.activeElement; const row = n.closest('[data-id], [data-seq]');
  return {key: n.dataset.focusKey ?? null, text: n.textContent.slice(0, 40),
          row: row && (row.dataset.id ?? row.dataset.seq)}; }"""


def test_a_focused_button_stays_focused_when_its_section_redraws(lab: Lab) -> None:
    """WCAG 2.4.3: a keyboard user on a checkpoint's, a grant's or an activity entry's button
    keeps the focus when an agent's call or a grant redraws the section; when the row
    leaves, the section's heading takes it (never <body>)."""
    from playwright.sync_api import expect

    (lab.root / FOCUS_DOC).write_text(TEXT)
    grant = lab.api(
        "POST", "grants", json={"scope": FOCUS_DOC, "agent": FOCUS_AGENT, "agentKind": "client", "minutes": 15}
    )
    first = edit(lab, "quick brown fox", "quick red fox", path=FOCUS_DOC, agent=FOCUS_AGENT)["checkpointId"]
    with browser(lab, "focus", path="lab/workspaces/focus") as (page, shots):
        expect(page.locator(".jp-LabShell")).to_be_visible(timeout=30_000)
        decline_news(page)
        panel = open_panel(page)
        checkpoints = panel.locator(".jp-McpLab-checkpoints")
        row = checkpoints.locator(f'.jp-McpLab-checkpoint[data-id="{first}"]')
        expect(row).to_be_visible(timeout=15_000)

        # (a) On a checkpoint's Diff, the agent applies another change: its row comes first,
        # the focus stays on that Diff; Enter opens the diff, the focus is on its Hide diff.
        shots.at("checkpoint")
        row.get_by_role("button", name="Diff").focus()
        second = edit(lab, "lazy dog", "sleepy dog", path=FOCUS_DOC, agent=FOCUS_AGENT)["checkpointId"]
        expect(checkpoints.locator(".jp-McpLab-checkpoint").first).to_have_attribute("data-id", second, timeout=15_000)
        assert page.evaluate(FOCUSED) == {"key": f"{first}:diff", "text": "Diff", "row": first}
        page.keyboard.press("Enter")
        expect(row.locator(".jp-McpLab-diffAdd")).to_contain_text("+The quick red fox.", timeout=10_000)
        assert page.evaluate(FOCUSED) == {"key": f"{first}:diff", "text": "Hide diff", "row": first}
        shots.save("checkpoint")

        # (b) On a grant's Revoke, another grant is made (REST): the list redraws, the focus
        # stays; the grant revoked elsewhere leaves, the section's heading takes the focus.
        shots.at("grant")
        grants = panel.locator(".jp-McpLab-grants")
        grant_row = grants.locator(f'.jp-McpLab-grant[data-id="{grant["id"]}"]')
        grant_row.get_by_role("button", name="Revoke").focus()
        other = lab.api(
            "POST", "grants", json={"scope": "", "agent": FOCUS_AGENT, "agentKind": "client", "minutes": 60}
        )
        expect(grants.locator(f'.jp-McpLab-grant[data-id="{other["id"]}"]')).to_be_visible(timeout=15_000)
        assert page.evaluate(FOCUSED) == {"key": f"{grant['id']}:revoke", "text": "Revoke", "row": grant["id"]}
        lab.api("DELETE", f"grants/{grant['id']}")
        expect(grant_row).to_have_count(0, timeout=15_000)
        heading = grants.locator(".jp-McpLab-sectionHeading")
        expect(heading).to_be_focused()
        lab.api("DELETE", f"grants/{other['id']}")
        shots.save("grant")

        # (c) On an activity entry's tool, an agent calls a tool: a new entry comes first, the
        # focus stays on that entry's tool.
        shots.at("activity")
        entries = panel.locator(".jp-McpLab-activity .jp-McpLab-activityEntry")
        seq = entries.first.get_attribute("data-seq")
        # Pinned to its seq: the person's revokes above may still be arriving as entries, and
        # `entries.first` would then be another entry by the time it is focused.
        tool = panel.locator(f'.jp-McpLab-activity .jp-McpLab-activityEntry[data-seq="{seq}"] .jp-McpLab-activityTool')
        label = tool.text_content()
        tool.focus()
        assert not lab.agent_call("session", {"action": "get_state"}, client_name=FOCUS_AGENT).is_error
        newest = entries.first.locator(".jp-McpLab-activityTool")
        expect(newest).to_contain_text("session.get_state", timeout=15_000)
        assert page.evaluate(FOCUSED) == {"key": f"{seq}:details", "text": label, "row": seq}
        shots.save("activity")
