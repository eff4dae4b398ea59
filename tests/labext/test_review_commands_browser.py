"""The review's commands, undo, the activity log and both themes' contrast, in a real
JupyterLab driven in Debian's headless Chromium (one JupyterLab for the module, a workspace of its own per test).

An agent (the official Python SDK client) stages suggestions on a file open in the editor;
a person walks them with the palette's "Go to Next Suggestion", accepts one with the
palette's "Accept Suggestion" and rejects one with its key (Ctrl+Alt+Backspace), then
takes the rejection back with the toast's Undo; in the panel, Escape rejects and Undo puts
the suggestion back. The activity log keeps whole arguments (a filter for ``find_replace``
finds every such call, however long its arguments), opens an entry to its arguments and
result, and lists the person's decisions as theirs. axe-core finds no colour-contrast
violation in the panel, with cards, diffs and activity open, in the light and dark themes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.labext.conftest import ARTIFACTS, Lab, browser, open_panel, start_lab
from tests.labext.test_review_panel_browser import use_theme

DOC = "notes.md"
TEXT = "# Notes\n\nFirst: alpha.\n\nSecond: beta.\n\nThird: gamma.\n"
AGENT = "browser-test-agent"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with start_lab(tmp_path_factory.mktemp("review-commands"), "--MCPLabApp.approval=suggest") as running:
        yield running


def pending(lab: Lab, path: str = DOC) -> list[dict]:
    return lab.api("GET", "suggestions", params={"path": path})["suggestions"]


def stage(lab: Lab, words: list[str], path: str = DOC, rationale: str = "Louder.") -> list[str]:
    """An agent stages one suggestion per word (the word in capitals); their ids."""
    edits = [{"op": "anchored", "text": w, "replacement": w.upper()} for w in words]
    result = lab.agent_call("document", {"action": "edit", "path": path, "edits": edits, "rationale": rationale})
    assert not result.is_error, result
    return [str(i) for i in result.structured_content["suggestionIds"]]


def palette(page: Any, label: str) -> None:
    """Run a command from the command palette by its label, as a person would."""
    from playwright.sync_api import expect

    page.keyboard.press("Control+Shift+C")
    page.keyboard.type(label)
    active = page.locator(".lm-CommandPalette-item.lm-mod-active .lm-CommandPalette-itemLabel")
    expect(active).to_have_text(label, timeout=10_000)
    page.keyboard.press("Enter")


def cursor(page: Any) -> tuple[int, int]:
    """(line, column) as JupyterLab's status bar shows them."""
    from playwright.sync_api import expect

    item = page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^Ln \d+, Col \d+$"))
    expect(item).to_have_count(1, timeout=10_000)
    line, column = re.fullmatch(r"Ln (\d+), Col (\d+)", item.inner_text().strip()).groups()  # type: ignore[union-attr]
    return int(line), int(column)


def undo_toast(page: Any, text: str = "Rejected") -> Any:
    """The toast offering Undo for a rejection (a dismissed one may still be sliding out)."""
    from playwright.sync_api import expect

    toast = page.locator(".Toastify__toast:not([class*='exit'])", has_text=text)
    expect(toast).to_be_visible(timeout=10_000)
    return toast


def decline_news(page: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    toast = page.locator(".Toastify__toast", has_text="official Jupyter news")
    try:
        toast.get_by_role("button", name="No", exact=True).click(timeout=5_000)
    except PlaywrightTimeout:
        return
    toast.wait_for(state="detached", timeout=10_000)


def test_commands_accept_reject_and_undo_in_an_editor(lab: Lab) -> None:
    from playwright.sync_api import expect

    doc = lab.root / DOC
    doc.write_text(TEXT)
    with browser(lab, "commands") as (page, shots):
        shots.at("open")
        page.goto(f"{lab.base}/lab/tree/{DOC}?token={lab.token}")
        content = page.locator(".jp-FileEditor .cm-content")
        expect(content).to_contain_text("gamma", timeout=30_000)
        decline_news(page)
        _, beta, gamma = stage(lab, ["alpha", "beta", "gamma"])
        marks = content.locator(".jp-McpLab-inlineDel")
        expect(marks).to_have_text(["alpha", "beta", "gamma"], timeout=20_000)

        # The cursor at the top; "Go to Next Suggestion" puts it on the first one, then the second.
        shots.at("next")
        content.locator(".cm-line").first.click()
        page.keyboard.press("Control+Home")
        assert cursor(page) == (1, 1)
        palette(page, "Go to Next Suggestion")
        expect(page.locator(".jp-StatusBar-TextItem", has_text="Ln 3, Col 8")).to_have_count(1, timeout=10_000)
        palette(page, "Go to Next Suggestion")
        expect(page.locator(".jp-StatusBar-TextItem", has_text="Ln 5, Col 9")).to_have_count(1, timeout=10_000)
        palette(page, "Go to Previous Suggestion")
        expect(page.locator(".jp-StatusBar-TextItem", has_text="Ln 3, Col 8")).to_have_count(1, timeout=10_000)
        shots.save("next")

        # The palette's "Accept Suggestion" accepts the one at the cursor, and only it.
        shots.at("accept")
        palette(page, "Accept Suggestion")
        expected = TEXT.replace("alpha", "ALPHA")
        assert lab.wait_for_file(DOC, lambda t: t == expected) == expected
        assert [s["id"] for s in pending(lab)] == [beta, gamma]
        expect(marks).to_have_text(["beta", "gamma"], timeout=15_000)
        shots.save("accepted")

        # Its key rejects the next one; the toast offers Undo, which puts it back, pending.
        shots.at("reject")
        palette(page, "Go to Next Suggestion")
        expect(page.locator(".jp-StatusBar-TextItem", has_text="Ln 5, Col 9")).to_have_count(1, timeout=10_000)
        page.locator(".jp-FileEditor .cm-content").focus()
        page.keyboard.press("Control+Alt+Backspace")
        toast = undo_toast(page, 'Rejected "beta" → "BETA" (notes.md, line 5)')
        assert [s["id"] for s in pending(lab)] == [gamma]
        expect(marks).to_have_text(["gamma"], timeout=15_000)
        assert lab.api("GET", f"suggestions/{beta}")["status"] == "rejected"
        shots.save("rejected")
        toast.get_by_role("button", name="Undo").click()
        expect(marks).to_have_text(["beta", "gamma"], timeout=15_000)
        assert [s["id"] for s in pending(lab)] == [beta, gamma]
        assert doc.read_text() == expected  # a rejection and its undo never touch the file
        shots.save("undone")

        # The command undoes the last rejection too (Ctrl+Alt+Z), once.
        shots.at("undo command")
        inline_reject = content.locator(f'[data-suggestion-id="{gamma}"]').get_by_role(
            "button", name="Reject suggestion"
        )
        inline_reject.click()
        undo_toast(page, 'Rejected "gamma"')
        expect(marks).to_have_text(["beta"], timeout=15_000)
        page.keyboard.press("Control+Alt+Z")
        expect(marks).to_have_text(["beta", "gamma"], timeout=15_000)
        assert [s["status"] for s in pending(lab)] == ["pending", "pending"]


def test_escape_then_undo_in_the_panel(lab: Lab) -> None:
    from playwright.sync_api import expect

    for earlier in {s["path"] for s in lab.api("GET", "suggestions")["suggestions"]}:
        lab.api("POST", "suggestions/reject-all", json={"path": earlier})  # this test's are the first listed
    (lab.root / "panel.md").write_text("One: red.\n\nTwo: green.\n")
    red, green = stage(lab, ["red", "green"], path="panel.md")
    with browser(lab, "undo", path="lab/workspaces/undo") as (page, shots):
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        decline_news(page)
        panel = open_panel(page)
        listbox = panel.get_by_role("group", name="Pending suggestions")
        option = listbox.locator(f'[role="article"][data-id="{red}"]')
        expect(option).to_have_count(1, timeout=20_000)

        shots.at("escape")
        listbox.focus()  # selects the first one
        expect(listbox).to_be_focused()
        expect(option).to_have_attribute("aria-current", "true")
        page.keyboard.press("Escape")
        toast = undo_toast(page)
        expect(option).to_have_count(0, timeout=10_000)
        assert [s["id"] for s in pending(lab, "panel.md")] == [green]
        shots.save("rejected")

        shots.at("undo")
        toast.get_by_role("button", name="Undo").click()
        expect(option).to_have_count(1, timeout=10_000)
        assert {s["id"]: s["status"] for s in pending(lab, "panel.md")} == {red: "pending", green: "pending"}
        assert (lab.root / "panel.md").read_text() == "One: red.\n\nTwo: green.\n"
        shots.save("undone")

    # The undo window is the server's too: once it is undone there is nothing left to undo.
    r = lab.api("GET", f"suggestions/{red}")
    assert r["status"] == "pending" and r["decided"] is None


def test_activity_keeps_whole_arguments_and_the_persons_decisions(lab: Lab) -> None:
    from playwright.sync_api import expect

    phrase = "one two three four five. " * 8  # 200 characters
    (lab.root / "long.md").write_text("# Long\n\n" + phrase * 2 + "\n")
    long_rationale = "Why: " + "because it reads better " * 20
    for word in ("one", "two", "three", "four", "five"):
        # The op last, after a long find text: a one-line summary of the call cuts it off.
        new = phrase.replace(word, word.upper())
        edit = {"find": phrase, "replace": new, "match": "first", "op": "find_replace"}
        result = lab.agent_call(
            "document", {"action": "edit", "path": "long.md", "rationale": long_rationale, "edits": [edit]}
        )
        assert not result.is_error, result
    entries = lab.api("GET", "activity")["entries"]
    edits = [e for e in entries if e["tool"] == "document.edit" and "long.md" in e["fullArguments"]]
    assert len(edits) == 5
    assert all("find_replace" not in e["arguments"] for e in edits)  # the summary cut it...
    assert all("find_replace" in e["fullArguments"] for e in edits)  # ...the full arguments keep it
    assert all(json.loads(e["fullArguments"])["edits"][0]["op"] == "find_replace" for e in edits)
    assert all('"suggestionIds"' in e["result"] for e in edits)

    with browser(lab, "activity", height=1000, path="lab/workspaces/activity") as (page, shots):
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        decline_news(page)
        panel = open_panel(page)
        activity = panel.locator(".jp-McpLab-activity")
        rows = activity.locator(".jp-McpLab-activityEntry")
        expect(rows.first).to_be_visible(timeout=20_000)

        shots.at("filter")
        activity.locator("input.jp-McpLab-activityFilter").fill("find_replace")
        expect(rows).to_have_count(5, timeout=10_000)
        row = rows.first
        tool = row.locator("button.jp-McpLab-activityTool")
        expect(tool).to_have_attribute("aria-expanded", "false")
        tool.click()
        expect(tool).to_have_attribute("aria-expanded", "true")
        full = row.locator(".jp-McpLab-activityFull")
        expect(full).to_contain_text('"op": "find_replace"')
        expect(full).to_contain_text("because it reads better because it reads better")
        expect(row.locator(".jp-McpLab-activityResult")).to_contain_text("suggestionIds")
        shots.save("expanded")

        # The person's decisions of the other tests, as theirs: accept, reject, undo.
        shots.at("person")
        activity.locator("input.jp-McpLab-activityFilter").fill("suggestion.")
        person = activity.locator('.jp-McpLab-activityEntry[data-actor="person"]')
        expect(person.first).to_be_visible(timeout=10_000)
        tools = [t.strip() for t in person.locator(".jp-McpLab-activityTool").all_inner_texts()]
        assert {"suggestion.accept", "suggestion.reject", "suggestion.reopen"} <= set(tools), tools
        expect(person.first.locator(".jp-McpLab-activityActor")).to_have_text("you")
        shots.save("person")

        # A long rationale shows its first lines in the card, the rest on Show more.
        shots.at("rationale")
        card = panel.locator(".jp-McpLab-suggestion", has_text="because it reads better").first
        rationale = card.locator(".jp-McpLab-rationale")
        more = card.get_by_role("button", name="Show more")
        expect(more).to_have_attribute("aria-expanded", "false", timeout=15_000)
        folded = rationale.evaluate("p => [p.clientHeight, p.scrollHeight]")
        assert folded[0] < folded[1], folded  # cut off
        more.click()
        less = card.get_by_role("button", name="Show less")
        expect(less).to_have_attribute("aria-expanded", "true")
        opened = rationale.evaluate("p => [p.clientHeight, p.scrollHeight]")
        assert opened[0] == opened[1] and opened[0] > folded[0], (folded, opened)
        shots.save("rationale")
        less.click()
        expect(card.get_by_role("button", name="Show more")).to_be_visible()
    decided = [e for e in lab.api("GET", "activity")["entries"] if e["actor"] == "person"]
    assert decided and all(e["user"] and e["session"] == "" for e in decided)


THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
# The colours the panel had before (an error row: white on light red in the dark theme,
# 1.35:1): put back over the panel, axe must find them, or the check proves nothing.
OLD_COLOURS = """
.jp-McpLab-panel .jp-McpLab-activityEntry.jp-mod-error { background: var(--jp-error-color3) !important; }
.jp-McpLab-panel .jp-McpLab-activityEntry.jp-mod-error * { color: var(--jp-ui-font-color1) !important; }
"""


def contrast_violations(page: Any) -> list[dict]:
    """axe-core's colour-contrast violations in the panel; fails when axe checked no text."""
    from axe_playwright_python.sync_playwright import Axe

    # JupyterLab's body is 0 px high (its shell is positioned absolutely) and hides its
    # overflow: axe would take every element as clipped away and check nothing.
    page.evaluate("() => { document.body.style.height = '100vh'; }")
    results = Axe().run(
        page,
        context="#jupyter-mcp-lab-panel",
        options={"runOnly": {"type": "rule", "values": ["color-contrast"]}},
    )
    checked = sum(len(v["nodes"]) for v in results.response["passes"] + results.response["violations"])
    assert checked > 50, f"axe checked {checked} elements of the panel: it sees the panel as hidden"
    return list(results.response["violations"])


def describe(violations: list[dict]) -> str:
    return "\n".join(
        f"{node['target']}: {node['any'][0]['message'] if node['any'] else ''}"
        for v in violations
        for node in v["nodes"]
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_panel_contrast_in_both_themes(lab: Lab, theme: str) -> None:
    from playwright.sync_api import expect

    (lab.root / "theme.md").write_text("# Theme\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n")
    _, lazy = stage(lab, ["brown", "lazy"], path="theme.md", rationale="Contrast check.")
    lab.api("POST", f"suggestions/{lazy}/accept")  # a checkpoint, whose diff is shown below
    failed = lab.agent_call("document", {"action": "read", "path": "missing.md"})  # an error row
    assert failed.is_error
    with browser(lab, f"contrast-{theme}", width=1400, height=2200, path=f"lab/workspaces/{theme}") as (
        page,
        shots,
    ):
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        decline_news(page)
        if theme == "dark":
            use_theme(page, "dark")
        panel = open_panel(page)
        expect(panel.locator(".jp-McpLab-suggestion").first).to_be_visible(timeout=20_000)
        checkpoint = panel.locator(".jp-McpLab-checkpoint").first
        checkpoint.get_by_role("button", name="Diff").click()
        expect(checkpoint.locator(".jp-McpLab-diffAdd").first).to_be_visible(timeout=10_000)
        activity = panel.locator(".jp-McpLab-activity")
        error_row = activity.locator(".jp-McpLab-activityEntry.jp-mod-error").first
        expect(error_row).to_be_visible(timeout=10_000)
        error_row.locator("button.jp-McpLab-activityTool").click()
        expect(error_row.locator(".jp-McpLab-activityResult")).to_contain_text("NOT_FOUND")
        page.mouse.move(0, 0)  # no hover colours
        shots.save("panel")

        violations = contrast_violations(page)
        (ARTIFACTS / f"contrast-{theme}-axe.json").write_text(json.dumps(violations, indent=2))
        assert violations == [], describe(violations)

        # The control: the old colours back, axe sees them.
        if theme == "dark":
            page.add_style_tag(content=OLD_COLOURS)
            old = contrast_violations(page)
            flagged = [str(node["target"]) for v in old for node in v["nodes"]]
            assert any("jp-McpLab-activity" in target for target in flagged), flagged


# A property, not an attribute: the probe must not change the HTML the panel compares.
PROBE = """sel => { document.querySelectorAll(sel).forEach(n => { n.mcpProbe = 'kept'; }); }"""
KEPT = """sel => [...document.querySelectorAll(sel)].map(n => n.mcpProbe === 'kept')"""


def test_a_refresh_with_nothing_new_keeps_the_panels_nodes(lab: Lab) -> None:
    """A refresh that brings nothing new leaves the sections' DOM alone: a button replaced
    between the press and release of a click drops the click (the Diff of a checkpoint
    stayed shut on a busy machine while replayed events refreshed the list)."""
    from playwright.sync_api import expect

    (lab.root / "kept.md").write_text("# Kept\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n")
    brown, lazy = stage(lab, ["brown", "lazy"], path="kept.md", rationale="Kept nodes.")
    lab.api("POST", f"suggestions/{lazy}/accept")
    with browser(lab, "kept-nodes", width=1400, height=2200, path="lab/workspaces/kept") as (page, shots):
        expect(page.locator(".jp-Launcher")).to_be_visible(timeout=30_000)
        decline_news(page)
        panel = open_panel(page)
        checkpoints = ".jp-McpLab-checkpoint button"
        activity = ".jp-McpLab-activityEntry"
        expect(panel.locator(".jp-McpLab-checkpoint").first).to_contain_text("kept.md", timeout=20_000)
        expect(panel.locator(activity).first).to_be_visible(timeout=20_000)
        page.wait_for_timeout(1_500)  # the stream's replay and its refreshes are over
        for sel in (checkpoints, activity):
            page.evaluate(PROBE, sel)
        panel.get_by_role("button", name="Refresh", exact=True).click()
        page.wait_for_timeout(1_500)
        shots.save("refreshed")
        for sel in (checkpoints, activity):
            kept = page.evaluate(KEPT, sel)
            assert kept and all(kept), (sel, kept)

        # Something new is drawn: the accept's checkpoint row is a new node at the top.
        lab.api("POST", f"suggestions/{brown}/accept")
        page.wait_for_function(
            "() => document.querySelector('.jp-McpLab-checkpoint button').mcpProbe === undefined", timeout=15_000
        )
