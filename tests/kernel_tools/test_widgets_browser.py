"""The tool form and the inspector in real JupyterLab, in Debian's headless Chromium.

A person opens a notebook whose cells connect and show the widgets, runs all cells, fills
the generated form (picks the action, types a path, adds an edit), presses Call and reads
the result, the history and its code; in the inspector they ping, and answer a stdio
server's elicitation from the widget. Screenshots: ``test-artifacts/widgets-*.png``, in the
light theme and the dark one.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from tests.kernel_tools.notebook_browser import BROWSER, NotebookPage, notebook_lab, open_notebook
from tests.kernel_tools.widget_helpers import SERVER
from tests.labext.conftest import ARTIFACTS, Lab

pytestmark = BROWSER
__all__ = ["notebook_lab"]  # the fixture, imported for this module's tests

HEIGHT = 2400  # tall enough that a widget's screenshot is not cut by the notebook's scrolling
NOTE = "# Notes\n\nThe first paragraph.\n\nThe second paragraph.\n"


def snap(nb: NotebookPage, locator: Any, name: str) -> None:
    """A screenshot of one widget (``test-artifacts/widgets-<name>.png``)."""
    locator.scroll_into_view_if_needed()
    locator.screenshot(path=str(ARTIFACTS / f"widgets-{name}.png"))


def theme(nb: NotebookPage, name: str) -> None:
    """Switch JupyterLab's theme (``JupyterLab Dark`` / ``JupyterLab Light``), as the Settings menu does."""
    light = "false" if "Dark" in name else "true"
    nb.page.evaluate("(name) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: name})", name)
    nb.page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=20_000)
    nb.page.wait_for_timeout(500)


def test_fill_and_call_the_document_form(notebook_lab: Lab) -> None:
    from playwright.sync_api import expect

    (notebook_lab.root / "notes.md").write_text(NOTE)
    cells = ["from kernel_tools import connect\nlab = connect()", 'lab.form("document")']
    with open_notebook(
        notebook_lab, "form.ipynb", cells, prefix="widgets-form", wait_for=".mcpw-tools", height=HEIGHT
    ) as nb:
        form = nb.output(".mcpw-tools").first
        call = form.locator("button.mcpw-call")

        # Call before choosing the action: the form says what is missing, nothing is called.
        nb.shots.at("missing-action")
        call.click()
        expect(form.locator(".mcpw-alert-error:visible")).to_contain_text("action is required")
        expect(form.locator(".mcpw-field.mcpw-invalid[data-field='action']")).to_be_visible()
        expect(form.locator(".mcpw-history")).to_be_hidden()

        # Read: pick the action, type the path, Call.
        nb.shots.at("read")
        form.locator("select[data-path='action']").select_option(label="read")
        expect(form.locator("[data-field='content']")).to_have_count(0)  # write's argument is not shown
        form.locator("input[data-path='path']").press_sequentially("notes.md")
        expect(form.locator(".mcpw-code pre")).to_have_text('lab.call("document", action="read", path="notes.md")')
        call.click()
        expect(form.locator(".mcpw-result-head")).to_contain_text("✓ Result", timeout=30_000)
        expect(form.locator(".mcpw-result-body")).to_contain_text("The second paragraph.")
        entry = form.locator(".mcpw-entry").first
        expect(entry.locator("pre")).to_have_text('lab.call("document", action="read", path="notes.md")')
        snap(nb, form, "form-read")
        nb.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=notebook_lab.base)
        entry.locator("button", has_text="Copy").click()
        expect(entry.locator("button.mcpw-copy")).to_have_text("Copied")
        assert nb.page.evaluate("() => navigator.clipboard.readText()") == entry.locator("pre").inner_text()

        # Edit: the form changes with the action; an edit is added and staged as a suggestion.
        nb.shots.at("edit")
        form.locator("select[data-path='action']").select_option(label="edit")
        expect(form.locator("[data-field='lineStart']")).to_have_count(0)
        form.locator("button[data-path='edits+']").click()
        form.locator("select[data-path='edits[0].op']").select_option(label="find_replace")
        form.locator("[data-field='edits[0]'] details.mcpw-more > summary").click()
        form.locator("input[data-path='edits[0].find']").fill("first paragraph")
        form.locator("input[data-path='edits[0].replace']").fill("opening paragraph")
        form.locator("textarea[data-path='rationale'], input[data-path='rationale']").fill("a better word")
        call.click()
        expect(form.locator(".mcpw-entry")).to_have_count(2, timeout=30_000)
        expect(form.locator(".mcpw-result-head")).to_contain_text("✓ Result")
        expect(form.locator(".mcpw-result-body")).to_contain_text("suggestionIds")
        code = form.locator(".mcpw-entry").first.locator("pre").inner_text()
        assert 'edits=[{"op": "find_replace", "find": "first paragraph", "replace": "opening paragraph"}]' in code
        pending = notebook_lab.api("GET", "suggestions?path=notes.md")["suggestions"]
        assert [s["rationale"] for s in pending] == ["a better word"]
        assert (notebook_lab.root / "notes.md").read_text() == NOTE  # waits for a person
        snap(nb, form, "form-edit")

        # Replay the read: the form shows its arguments again and the call is made again.
        nb.shots.at("replay")
        form.locator(".mcpw-entry").nth(1).locator("button", has_text="Replay").click()
        expect(form.locator(".mcpw-entry")).to_have_count(3, timeout=30_000)
        expect(form.locator("select[data-path='action']")).to_have_value(re.compile(r"^\d+$"))
        expect(form.locator("input[data-path='path']")).to_have_value("notes.md")
        expect(form.locator(".mcpw-result-body")).to_contain_text("The second paragraph.")

        # The kernel agrees with what the page shows.
        out = nb.run("w = _2\nprint(len(w.history), w.history[0]['python'])")
        assert out.strip() == '3 lab.call("document", action="read", path="notes.md")', out

        nb.shots.at("dark")
        theme(nb, "JupyterLab Dark")
        snap(nb, form, "form-dark")


def test_the_inspector_answers_an_elicitation(notebook_lab: Lab) -> None:
    from playwright.sync_api import expect

    cells = [
        "from kernel_tools import connect\nlab = connect()",
        "lab.inspector()",
        f"demo = connect({('stdio:' + sys.executable + ' ' + str(SERVER))!r})\ndemo.inspector()",
    ]
    with open_notebook(
        notebook_lab, "inspect.ipynb", cells, prefix="widgets-inspector", wait_for=".mcpw-inspector", height=HEIGHT
    ) as nb:
        theme(nb, "JupyterLab Light")  # the theme is the server's setting: the other test may have left it dark
        labs, demo = nb.output(".mcpw-inspector").first, nb.output(".mcpw-inspector").nth(1)
        expect(labs.locator(".mcpw-servername")).to_have_text("JupyterLab documents")
        expect(labs.locator(".mcpw-toolitem")).to_have_count(9)  # the tool browser, inside
        labs.locator("[data-tab='ping']").click()
        labs.locator(".mcpw-pane-ping button", has_text="Ping").click()
        expect(labs.locator(".mcpw-pingms")).to_contain_text("ms round trip", timeout=20_000)
        snap(nb, labs, "inspector-lab")

        # A stdio server's tool asks the person: the request shows live and is answered here.
        nb.shots.at("elicit")
        expect(demo.locator(".mcpw-servername")).to_have_text("widget-test-server")
        demo.locator(".mcpw-toolitem[data-tool='ask']").click()
        demo.locator("button.mcpw-call").click()
        request = demo.locator(".mcpw-request")
        expect(request).to_contain_text("Tell me about you", timeout=30_000)
        request.locator("button[data-answer='accept']").click()
        expect(request.locator(".mcpw-alert-error")).to_contain_text("name is required")
        request.locator("input[data-path='name']").fill("Ann")
        request.locator("select[data-path='color']").select_option(label="blue")
        snap(nb, demo, "inspector-elicitation")
        request.locator("button[data-answer='accept']").click()
        expect(request).to_have_count(0, timeout=30_000)
        expect(demo.locator(".mcpw-result-body")).to_contain_text(
            'accepted: {\\"name\\":\\"Ann\\",\\"age\\":30,\\"color\\":\\"blue\\"'
        )

        # Resources: read one; the log pane has the server's messages.
        nb.shots.at("resources")
        demo.locator("[data-tab='resources']").click()
        demo.locator(".mcpw-row[data-uri='img://pixel']").click()
        expect(demo.locator(".mcpw-contents img.mcpw-image")).to_be_visible(timeout=20_000)
        demo.locator(".mcpw-row[data-uri='info://readme']").click()
        expect(demo.locator(".mcpw-contents pre")).to_contain_text("# Widget server")
        snap(nb, demo, "inspector-resources")
        demo.locator("[data-tab='tools']").click()
        demo.locator(".mcpw-toolitem[data-tool='slow']").click()
        demo.locator("input[data-path='steps']").fill("3")
        demo.locator("button.mcpw-call").click()
        expect(demo.locator(".mcpw-result-head")).to_contain_text("slow", timeout=30_000)
        demo.locator("[data-tab='log']").click()
        expect(demo.locator(".mcpw-log")).to_contain_text("slow: starting 3 steps", timeout=20_000)
        nb.shots.at("dark")
        theme(nb, "JupyterLab Dark")
        snap(nb, demo, "inspector-log-dark")
