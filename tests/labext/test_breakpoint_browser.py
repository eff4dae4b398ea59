"""An agent toggles a debugger breakpoint in a real JupyterLab, in Debian's headless Chromium.

A notebook runs on the Python 3 kernel (ipykernel with debugpy); the person switches the
debugger on with the bug button of the notebook's toolbar and selects a cell; the agent
(the official Python SDK client) calls ``lab`` ``toggle_breakpoint``: the breakpoint shows
in the cell's gutter as if the person had clicked there, and running the cell stops on it
in the debugger (the kernel has it). Again, and it is gone. On a blank line the kernel
moves it, and the result says where. With the debugger off the agent gets a structured
error that says what the person has to do.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.labext.conftest import Lab, browser, start_lab

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("debugpy") is None, reason="needs debugpy (ipykernel debugging)"),
]

NB = "debug_me.ipynb"
CODE = 'a = 1\nb = a + 1\nc = b * 3\n\nprint("done", c)'
LINE = 3  # c = b * 3
BLANK = 4  # no code: the kernel does not stop there

# JupyterLab 4.6's debugger: the gutter's breakpoint marker (the gutter keeps a hidden
# spacer marker too, hence :visible), the highlighted current line when it is paused,
# the call stack's frames and the notice over the notebook.
GUTTER = ".cm-gutter.cm-breakpoint-gutter"
MARKER = f"{GUTTER} .cm-gutterElement .cm-breakpoint-icon"
PAUSED_LINE = ".jp-DebuggerEditor-highlight"
FRAME = ".jp-DebuggerCallstackFrame"
PAUSED = ".jp-DebuggerPausedOverlay"  # over the notebook: "Paused in Debugger", Continue


def lab_call(lab: Lab, action: str, **arguments: Any) -> dict[str, Any]:
    """An agent calls the lab tool; the structured result (the envelope when it failed)."""
    result = lab.agent_call("lab", {"action": action, **arguments})
    content = result.structured_content
    assert content is not None, result
    return {**content, "_error": bool(result.is_error)}


def write_notebook(root: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(CODE)]
    nbformat.write(nb, root / NB)


def test_an_agent_toggles_a_breakpoint_the_kernel_stops_on(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with start_lab(tmp_path, "--MCPLabApp.approval=auto") as lab:
        write_notebook(lab.root)
        with browser(lab, "breakpoint") as (page, shots):
            # The person opens the notebook; its kernel starts and goes idle.
            shots.at("kernel")
            page.goto(f"{lab.base}/lab/tree/{NB}")
            panel = page.locator(".jp-NotebookPanel:visible")
            toolbar = panel.locator(".jp-NotebookPanel-toolbar")
            expect(toolbar.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]')).to_be_visible(timeout=60_000)
            cell = panel.locator(".jp-CodeCell").first
            expect(cell.locator(".cm-content")).to_contain_text("print(")
            bug = toolbar.locator(".jp-DebuggerBugButton")  # a <jp-button>
            expect(bug).to_have_attribute("aria-disabled", "false", timeout=30_000)  # the kernel can debug
            expect(bug).to_have_attribute("aria-pressed", "false")

            # With the debugger off, the agent is told so, with what the person has to do.
            shots.at("off")
            cell.locator(".cm-content").click()
            off = lab_call(lab, "toggle_breakpoint", path=NB, line=LINE)
            assert off["_error"], off
            assert off["error"] == "NOT_IMPLEMENTED" and off["labError"] == "UNAVAILABLE", off
            assert "debugger is not running" in off["message"] and "bug icon" in off["message"], off
            expect(cell.locator(MARKER).filter(visible=True)).to_have_count(0)

            # The person switches the debugger on (the bug button) and selects the cell.
            shots.at("switch-on")
            bug.click()
            expect(bug).to_have_attribute("aria-pressed", "true", timeout=30_000)
            cell.locator(".cm-content").click()
            expect(cell.locator(GUTTER)).to_be_visible(timeout=30_000)

            # The agent sets a breakpoint: it shows in the cell's gutter, on that line.
            shots.at("set")
            on = lab_call(lab, "toggle_breakpoint", path=NB, line=LINE)
            assert not on["_error"], on
            assert (on["set"], on["line"], on["lines"], on["path"]) == (True, LINE, [LINE], NB), on
            markers = cell.locator(MARKER).filter(visible=True)
            expect(markers).to_have_count(1, timeout=15_000)
            assert gutter_lines(page) == [LINE]
            shots.save("set")

            # Running the cell stops on it: the debugger highlights the line, the call
            # stack shows the frame. Continue lets the cell finish.
            shots.at("paused")
            page.keyboard.press("Escape")  # command mode, the cell still selected
            page.keyboard.press("Control+Enter")
            highlight = cell.locator(PAUSED_LINE)
            expect(highlight).to_have_count(1, timeout=30_000)
            expect(highlight).to_contain_text("c = b * 3")
            expect(page.locator(PAUSED)).to_contain_text("Paused in Debugger", timeout=15_000)
            expect(page.locator(FRAME).first).to_contain_text(f":{LINE}", timeout=15_000)
            shots.save("paused")
            page.locator(f"{PAUSED} button[title='Continue']").click()
            expect(cell.locator(".jp-OutputArea-output")).to_contain_text("done 6", timeout=30_000)
            expect(highlight).to_have_count(0)

            # Again: the breakpoint is cleared, in the gutter as in the result.
            shots.at("clear")
            cell.locator(".cm-content").click()
            cleared = lab_call(lab, "toggle_breakpoint", path=NB, line=LINE)
            assert not cleared["_error"], cleared
            assert (cleared["set"], cleared["lines"]) == (False, []), cleared
            expect(markers).to_have_count(0, timeout=15_000)
            assert gutter_lines(page) == []

            # Cleared in the kernel too: the cell runs through.
            page.keyboard.press("Escape")
            page.keyboard.press("Control+Enter")
            expect(cell.locator(".jp-InputArea-prompt")).to_have_text(re.compile(r"\[2\]"), timeout=30_000)
            expect(highlight).to_have_count(0)
            shots.save("cleared")

            # A blank line: the kernel puts the breakpoint elsewhere (or nowhere). The result
            # says so, and names the lines the gutter shows, not the line asked for.
            shots.at("blank")
            moved = lab_call(lab, "toggle_breakpoint", path=NB, line=BLANK)
            assert not moved["_error"], moved
            assert moved["set"] is False and BLANK not in moved["lines"], moved
            expect(markers).to_have_count(len(moved["lines"]), timeout=15_000)
            assert gutter_lines(page) == moved["lines"]
            shots.save("blank")


def gutter_lines(page: Any) -> list[int]:
    """The 1-based lines of the breakpoint markers in the first cell's gutter (CodeMirror's view)."""
    return page.evaluate(
        """() => {
            const gutter = document.querySelector('.jp-NotebookPanel .jp-CodeCell .cm-gutter.cm-breakpoint-gutter');
            const lines = [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .cm-line')];
            const found = [];
            for (const el of gutter.querySelectorAll('.cm-gutterElement')) {
                if (!el.querySelector('.cm-breakpoint-icon') || el.style.visibility === 'hidden') continue;
                const top = el.getBoundingClientRect().top;
                const i = lines.findIndex(l => Math.abs(l.getBoundingClientRect().top - top) < 3);
                found.push(i + 1);
            }
            return found;
        }"""
    )
