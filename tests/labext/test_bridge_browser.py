"""The lab bridge in a real JupyterLab in Debian's headless Chromium: an agent (the official
Python SDK client) sees the browser, opens a file in it, lists and runs JupyterLab
commands and types into a terminal, with the person allowing (or denying) the powerful
ones in a dialog, as the ``suggest`` policy asks."""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from tests.labext.conftest import Lab, browser

DOC = "notes.md"
# 😀 is one code point and two UTF-16 units: the bridge must report code points.
TEXT = "# Notes 😀\n\nline three\nline four\n"

# Sets ``window.__mcpLabPaletteOpened`` once JupyterLab's command palette is shown (it is in
# the page from the start, hidden through its modal wrapper's class).
PALETTE_WATCH = """() => {
  const node = document.querySelector('#command-palette');
  window.__mcpLabPaletteOpened = false;
  new MutationObserver(() => {
    if (node.checkVisibility()) window.__mcpLabPaletteOpened = true;
  }).observe(document.body, { attributes: true, attributeFilter: ['class'], subtree: true });
}"""
LINE3 = TEXT.index("line three")  # in code points


def lab_call(lab: Lab, action: str, **arguments: Any) -> dict[str, Any]:
    """An agent calls the lab tool; the structured result (the envelope when it failed)."""
    result = lab.agent_call("lab", {"action": action, **arguments})
    content = result.structured_content
    assert content is not None, result
    return {**content, "_error": bool(result.is_error)}


def until(check: Any, seconds: float = 20) -> Any:
    """``check()``'s value once it is truthy (JupyterLab reports presence asynchronously)."""
    deadline = time.monotonic() + seconds
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(0.2)
        value = check()
    return value


def the_client(lab: Lab) -> dict[str, Any] | None:
    clients = lab_call(lab, "clients")["clients"]
    return clients[0] if clients else None


def test_an_agent_drives_jupyterlab_through_the_bridge(lab: Lab) -> None:
    from playwright.sync_api import expect

    (lab.root / DOC).write_text(TEXT, encoding="utf-8")
    assert lab_call(lab, "clients")["count"] == 0
    assert lab_call(lab, "open", path=DOC)["error"] == "NO_LAB_CLIENT"

    with browser(lab, "bridge") as (page, shots), ThreadPoolExecutor(1) as background:
        # The agent sees this JupyterLab as a window.
        shots.at("connected")
        client = until(lambda: the_client(lab))
        assert client, "the browser never connected to the lab bridge"
        assert client["window"] == "lab-1" and "Chrome" in client["userAgent"]

        # Open a file at a line: a JupyterLab tab shows it, the cursor on that line.
        shots.at("open")
        opened = lab_call(lab, "open", path=DOC, line=3)
        assert not opened["_error"], opened
        assert opened["window"] == "lab-1" and opened["tabId"]
        tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=DOC)
        expect(tab).to_be_visible(timeout=20_000)
        editor = page.locator(".jp-FileEditor .cm-content").first
        expect(editor).to_contain_text("line three")
        client = until(lambda: (c := the_client(lab)) and c["active"] == DOC and c["selection"] and c)
        assert client, the_client(lab)
        assert client["selection"] == {"path": DOC, "anchor": LINE3, "head": LINE3}
        assert {"path": DOC, "kind": "markdown", "dirty": False, "tabId": opened["tabId"]} in client["documents"]

        # The person selects the rest of the line: the agent sees it, in code points.
        editor.click()
        page.keyboard.press("Control+Home")
        for _ in range(2):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Shift+End")

        def selected() -> Any:
            c = the_client(lab)
            return c if c and c["selection"] and c["selection"]["head"] != c["selection"]["anchor"] else None

        client = until(selected)
        assert client, the_client(lab)
        assert client["selection"] == {"path": DOC, "anchor": LINE3, "head": LINE3 + len("line three")}
        shots.save("open")

        # The commands JupyterLab has.
        listed = lab_call(lab, "commands", query="command palette", limit=10)
        assert "apputils:activate-command-palette" in [c["id"] for c in listed["commands"]], listed

        # A command under approval=suggest: the person is asked; Deny refuses it.
        shots.at("deny")
        pending: Future[dict[str, Any]] = background.submit(
            lab_call, lab, "run_command", command="apputils:activate-command-palette"
        )
        dialog = page.locator(".jp-Dialog")
        expect(dialog).to_contain_text("browser-test-agent", timeout=20_000)
        expect(dialog).to_contain_text("apputils:activate-command-palette")
        dialog.get_by_role("button", name="Deny").click()
        denied = pending.result(timeout=30)
        assert denied["_error"] and denied["error"] == "APPROVAL_REQUIRED" and denied["decision"] == "denied"
        expect(page.locator("#command-palette")).not_to_be_visible()

        # Allow runs it: the command palette opens.
        shots.at("allow")
        pending = background.submit(lab_call, lab, "run_command", command="apputils:activate-command-palette")
        expect(dialog).to_contain_text("Activate Command Palette", timeout=20_000)
        shots.save("confirm")
        # The palette is modal and closes as soon as anything else takes the focus (a toast
        # of JupyterLab's own, the dialog handing the focus back): record that it opened.
        page.evaluate(PALETTE_WATCH)
        dialog.get_by_role("button", name="Allow").click()
        ran = pending.result(timeout=30)
        assert not ran["_error"], ran
        assert ran["approvedBy"] == "person" and ran["label"] == "Activate Command Palette"
        page.wait_for_function("window.__mcpLabPaletteOpened === true", timeout=5_000)
        page.keyboard.press("Escape")

        # A terminal command: allowed, typed into a new terminal, run by the shell.
        shots.at("terminal")
        command = "echo bridge-ok-$((6*7)) > terminal-out.txt"
        pending = background.submit(lab_call, lab, "terminal", command=command)
        expect(dialog.locator("pre")).to_have_text(command, timeout=20_000)
        dialog.get_by_role("button", name="Allow").click()
        term = pending.result(timeout=30)
        assert not term["_error"], term
        assert term["terminal"] and term["approvedBy"] == "person"
        expect(page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text="Terminal")).to_be_visible()
        out = lab.root / "terminal-out.txt"
        until(lambda: out.exists() and "bridge-ok-42" in out.read_text())
        assert out.read_text().strip() == "bridge-ok-42"  # the shell ran it: $((6*7)) is 42
        shots.save("terminal")
