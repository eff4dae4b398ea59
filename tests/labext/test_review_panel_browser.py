"""The panel's review in a real JupyterLab, driven in Debian's headless Chromium (one JupyterLab
for the module, a workspace and a document of its own per test).

An agent stages suggestions through the MCP endpoint (the official Python SDK client); a
person reviews them as in jupyterlab-git, nbdime or GitHub: the suggestions come first
(the connection card is one line), each card shows its lines of context with the changed
words marked, a click puts the editor's cursor on the change, Compare opens both texts side
by side with Accept per change, and a suggestion the person typed over shows as a conflict
at once, with what it suggested, where it would go now, Re-apply and Dismiss; conflicts
and decisions are still listed after a reload. Screenshots at 1366x768, light and dark.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.labext.conftest import ARTIFACTS, Lab, browser, open_panel, start_lab

TEXT = "# Notes\n\nThe quick brown fox.\n\nA lazy dog sleeps.\n"
NOTE = """# Week

Meeting on Monday.
Lunch with Ann on Tuesday.

## Plans

- Write the report.
- Call the bank.
- Book the train to Lyon.

## Ideas

A long line that goes on and on to see how the card wraps it instead of scrolling sideways, with more words after.
The last line.
"""
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with start_lab(tmp_path_factory.mktemp("review-panel"), "--MCPLabApp.approval=suggest") as running:
        yield running


def suggest(lab: Lab, path: str, edits: list[tuple[str, str]], rationale: str = "Clearer.") -> list[str]:
    """An agent stages anchored edits (suggestions under approval=suggest); their ids."""
    ops = [{"op": "anchored", "text": a, "replacement": b} for a, b in edits]
    result = lab.agent_call("document", {"action": "edit", "path": path, "edits": ops, "rationale": rationale})
    assert not result.is_error, result
    return [str(i) for i in result.structured_content["suggestionIds"]]


def pending(lab: Lab, path: str) -> list[dict]:
    return lab.api("GET", "suggestions", params={"path": path})["suggestions"]


def start_clean(lab: Lab) -> None:
    """Each test starts with nothing waiting: an earlier test's suggestions are rejected."""
    ids = [s["id"] for s in lab.api("GET", "suggestions", params={"status": "open"})["suggestions"]]
    if ids:
        lab.api("POST", "suggestions/reject-all", json={"ids": ids})


def palette(page: Any, label: str) -> None:
    """Run a command from the command palette by its label, as a person would."""
    from playwright.sync_api import expect

    page.keyboard.press("Control+Shift+C")
    page.keyboard.type(label)
    active = page.locator(".lm-CommandPalette-item.lm-mod-active .lm-CommandPalette-itemLabel")
    expect(active).to_have_text(label, timeout=10_000)
    page.keyboard.press("Enter")


def decline_news(page: Any) -> None:
    """JupyterLab asks once whether to fetch its news; the answer is no (it would cover things)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    toast = page.locator(".Toastify__toast", has_text="official Jupyter news")
    try:
        toast.get_by_role("button", name="No", exact=True).click(timeout=5_000)
    except PlaywrightTimeout:
        return
    toast.wait_for(state="detached", timeout=10_000)


def use_theme(page: Any, theme: str) -> None:
    """Switch JupyterLab's theme (a setting of the server's user: it outlives the page)."""
    from playwright.sync_api import expect

    palette(page, f"Use Theme: {THEMES[theme]}")  # also when it is the one shown: the setting may still load
    expect(page.locator(f"body[data-jp-theme-name='{THEMES[theme]}']")).to_have_count(1, timeout=20_000)
    # JupyterLab covers the page with its splash while the theme loads: screenshots and axe
    # taken under it see the splash, not the panel.
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=20_000)


def axe_violations(page: Any, context: str) -> list[dict]:
    """axe-core's serious and critical violations inside ``context`` (a CSS selector)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=context, options={"resultTypes": ["violations"]})
    return [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    return "\n".join(f"{v['id']} {node['target']}: {node['failureSummary']}" for v in violations for node in v["nodes"])


# The file editor's CodeMirror view (its content element holds it).
VIEW = (
    "(() => { const c = document.querySelector('.jp-FileEditor .cm-content');"
    " return c && c.cmView && c.cmView.view; })()"
)


def editor_selection(page: Any) -> dict[str, Any]:
    """The file editor's selection (UTF-16 offsets), its text and the cursor's line, from CodeMirror."""
    return page.evaluate(
        f"""() => {{
          const view = {VIEW};
          if (!view) {{ return null; }}
          const range = view.state.selection.main;
          return {{from: range.from, to: range.to, line: view.state.doc.lineAt(range.head).number,
                   text: view.state.sliceDoc(range.from, range.to)}};
        }}"""
    )


def wait_for_selection(page: Any, text: str) -> dict[str, Any]:
    """The editor's selection once it is ``text``."""
    page.wait_for_function(
        f"""() => {{ const view = {VIEW}; if (!view) {{ return false; }}
          const r = view.state.selection.main; return view.state.sliceDoc(r.from, r.to) === {json.dumps(text)}; }}""",
        timeout=15_000,
    )
    return editor_selection(page)


# ---------------------------------------------------------------------------------- layout


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_suggestions_come_first_at_1366x768(lab: Lab, theme: str) -> None:
    from playwright.sync_api import expect

    start_clean(lab)
    path = f"week-{theme}.md"
    (lab.root / path).write_text(NOTE)
    suggest(lab, path, [("Monday.", "Monday 12 December.")], "Give the date.")
    suggest(lab, path, [("Tuesday", "Wednesday")], "Ann moved it.")
    suggest(lab, path, [("Call the bank.", "Call the bank about the loan.")], "More precise.")
    suggest(lab, path, [("to Lyon", "to Lyon and back")], "Return trip.")
    suggest(lab, path, [("scrolling sideways", "scrolling sideways at all")], "Emphasis.")
    assert len(pending(lab, path)) == 5

    with browser(lab, f"review-layout-{theme}", width=1366, height=768, path=f"lab/workspaces/layout-{theme}") as (
        page,
        shots,
    ):
        decline_news(page)
        use_theme(page, theme)
        panel = open_panel(page)
        cards = panel.locator(".jp-McpLab-suggestion")
        expect(cards).to_have_count(5, timeout=20_000)
        shots.at("layout")

        # The connection card is one line; the first suggestion is above the fold.
        line = panel.locator(".jp-McpLab-connectionLine")
        expect(line).to_contain_text("running · suggest")
        expect(panel.locator(".jp-McpLab-connectionDetails")).to_be_hidden()
        assert line.bounding_box()["height"] <= 32
        first = cards.first.bounding_box()
        assert first["y"] + 60 < 768, first
        # One scroll: nothing inside the panel scrolls by itself, nothing sticks out sideways.
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('#jupyter-mcp-lab-panel *')]
                 .filter(n => ['auto', 'scroll'].includes(getComputedStyle(n).overflowY)
                              && n.scrollHeight > n.clientHeight + 1)
                 .map(n => n.className)"""
        )
        assert boxes == [], boxes
        width = page.evaluate(
            "() => { const p = document.querySelector('#jupyter-mcp-lab-panel');"
            " return [p.scrollWidth, p.clientWidth]; }"
        )
        assert width[0] <= width[1], width

        # A card: its lines of context, the changed words marked, wrapped, no sideways scroll.
        card = cards.filter(has_text="Give the date.")
        expect(card.locator(".jp-McpLab-diffContext").first).to_contain_text("# Week")
        expect(card.locator(".jp-McpLab-diffAdd")).to_contain_text("+Meeting on Monday 12 December.")
        expect(card.locator("ins.jp-McpLab-diffWord")).to_have_text(" 12 December")
        expect(card.locator(".jp-McpLab-lines")).to_have_text("line 3")
        long_card = cards.filter(has_text="Emphasis.")
        diff = long_card.locator(".jp-McpLab-diffView")
        assert diff.evaluate("n => n.scrollWidth <= n.clientWidth"), "the diff scrolls sideways"
        added = long_card.locator(".jp-McpLab-diffAdd .jp-McpLab-diffText")
        assert added.bounding_box()["height"] > 30, "the long line did not wrap"
        page.mouse.move(0, 0)
        shots.save("panel")

        # At JupyterLab's default side-panel width, nothing sticks out either.
        panel_width = panel.bounding_box()["width"]
        assert 200 <= panel_width <= 420, panel_width
        for selector in (".jp-McpLab-suggestion", ".jp-McpLab-documentHeader", ".jp-McpLab-connectionLine"):
            overflow = panel.locator(selector).first.evaluate("n => n.scrollWidth - n.clientWidth")
            assert overflow <= 1, (selector, overflow)

        # "Connect an agent…" unfolds the endpoints: each URL on one line, cut, with Copy and Config.
        shots.at("connect")
        panel.get_by_role("button", name="Connect an agent…").click()
        details = panel.locator(".jp-McpLab-connectionDetails")
        expect(details).to_be_visible()
        url = details.locator(".jp-McpLab-endpoint").first.locator(".jp-McpLab-endpointUrl")
        expect(url).to_contain_text("/mcp")
        style = url.evaluate("n => [getComputedStyle(n).whiteSpace, getComputedStyle(n).textOverflow]")
        assert style == ["nowrap", "ellipsis"], style
        row = details.locator(".jp-McpLab-endpoint").first
        assert row.bounding_box()["height"] <= 32, "the endpoint row wraps"
        expect(row.get_by_role("button", name=re.compile("Copy the lab endpoint URL"))).to_be_visible()
        expect(row.locator(".jp-McpLab-copyConfig")).to_be_visible()
        shots.save("connect")

        violations = axe_violations(page, "#jupyter-mcp-lab-panel")
        (ARTIFACTS / f"review-layout-{theme}-axe.json").write_text(json.dumps(violations, indent=2))
        assert violations == [], describe(violations)


# ---------------------------------------------------------------------------------- decide


def test_accept_and_reject_in_the_panel(lab: Lab) -> None:
    from playwright.sync_api import expect

    start_clean(lab)
    path = "decide.md"
    doc = lab.root / path
    doc.write_text(TEXT)
    suggest(lab, path, [("quick brown fox", "quick red fox")], "Foxes here are red.")
    assert doc.read_text() == TEXT  # staged, not applied

    with browser(lab, "review", path="lab/workspaces/decide") as (page, shots):
        decline_news(page)
        panel = open_panel(page)
        shots.at("pending")
        item = panel.locator(".jp-McpLab-suggestion")
        expect(item).to_have_count(1, timeout=20_000)
        expect(panel.locator(".jp-McpLab-document")).to_have_attribute("data-path", path)
        expect(item.locator(".jp-McpLab-rationale")).to_have_text("Foxes here are red.")
        expect(item.locator(".jp-McpLab-lines")).to_have_text("line 3")
        expect(item.locator(".jp-McpLab-diffDel")).to_contain_text("-The quick brown fox.")
        expect(item.locator(".jp-McpLab-diffAdd")).to_contain_text("+The quick red fox.")
        expect(item.locator("del.jp-McpLab-diffWord")).to_have_text("brown")
        expect(item.locator("ins.jp-McpLab-diffWord")).to_have_text("red")
        tab = page.locator(".lm-TabBar-tab.jp-McpLab-hasPending")
        expect(tab).to_have_attribute("data-mcp-lab-pending", "1")
        shots.save("pending")

        shots.at("accept")
        item.get_by_role("button", name="Accept", exact=True).click()
        expect(item).to_have_count(0, timeout=15_000)
        accepted = lab.wait_for_file(path, lambda t: t != TEXT)
        assert accepted == TEXT.replace("quick brown fox", "quick red fox")
        expect(panel.locator(".jp-McpLab-review .jp-McpLab-empty")).to_be_visible()

        shots.at("reject")
        suggest(lab, path, [("lazy dog", "sleepy cat")], "Cats sleep more.")
        expect(item).to_have_count(1, timeout=15_000)
        item.get_by_role("button", name="Reject", exact=True).click()
        expect(item).to_have_count(0, timeout=15_000)
        expect(page.locator(".lm-TabBar-tab.jp-McpLab-hasPending")).to_have_count(0)

        # Both decisions are listed under "Decided", newest first, and after a reload.
        shots.at("decided")
        page.reload()
        page.wait_for_selector(".jp-LabShell", timeout=60_000)
        panel = open_panel(page)
        toggle = panel.locator(".jp-McpLab-decidedToggle")
        expect(toggle).to_have_text(re.compile(r"Decided \(\d+\)"), timeout=20_000)
        toggle.click()
        decided = panel.locator(".jp-McpLab-decidedItem")
        expect(decided.first).to_have_attribute("data-status", "rejected", timeout=15_000)
        expect(decided.first).to_contain_text("sleepy cat")
        expect(decided.nth(1)).to_have_attribute("data-status", "accepted")
        shots.save("decided")
    assert doc.read_text() == accepted


# ---------------------------------------------------------------------------------- card → text

CURSOR_DOC = "cursor.md"
CURSOR_TEXT = (
    "# Cursor\n\nThe quick brown fox.\n\n" + "".join(f"Line {n}.\n" for n in range(5, 60)) + "A lazy dog sleeps.\n"
)


def test_a_card_leads_to_its_text(lab: Lab) -> None:
    from playwright.sync_api import expect

    start_clean(lab)
    (lab.root / CURSOR_DOC).write_text(CURSOR_TEXT)
    fox, dog = suggest(lab, CURSOR_DOC, [("brown", "red"), ("lazy dog", "sleepy cat")], "Tidier.")
    dog_line = CURSOR_TEXT.count("\n", 0, CURSOR_TEXT.index("lazy dog")) + 1
    with browser(lab, "review-cursor", width=1366, height=768, path="lab/workspaces/cursor") as (page, shots):
        decline_news(page)
        panel = open_panel(page)
        cards = panel.locator(".jp-McpLab-suggestion")
        expect(cards).to_have_count(2, timeout=20_000)

        # "line N" opens the document (not open yet) with the change selected, in view, focused.
        shots.at("line-link")
        cards.nth(1).locator(".jp-McpLab-lines").click()
        expect(page.locator(".jp-FileEditor .cm-content")).to_contain_text("Cursor", timeout=30_000)
        selection = wait_for_selection(page, "lazy dog")
        assert selection["line"] == dog_line, selection
        line = page.locator(".jp-FileEditor .cm-line", has_text=re.compile(r"^A lazy dog"))
        expect(line).to_be_in_viewport()
        assert page.evaluate("() => document.activeElement.closest('.jp-FileEditor') !== null")
        shots.save("line-link")

        # A click on a card moves the cursor to its change; the panel keeps the keys.
        shots.at("card-click")
        cards.nth(0).locator(".jp-McpLab-rationale").click()
        assert wait_for_selection(page, "brown")["line"] == 3
        expect(page.locator(".jp-FileEditor .cm-line", has_text=re.compile(r"^The quick brown"))).to_be_in_viewport()
        expect(panel.get_by_role("group", name="Pending suggestions")).to_be_focused()
        expect(cards.nth(0)).to_have_attribute("aria-current", "true")
        page.mouse.move(0, 0)
        shots.save("card-click")

        # Enter right after the click accepts in the panel; nothing is typed into the file.
        page.keyboard.press("Enter")
        text = lab.wait_for_file(CURSOR_DOC, lambda t: t != CURSOR_TEXT)
        assert text == CURSOR_TEXT.replace("brown", "red")
        assert [s["id"] for s in pending(lab, CURSOR_DOC)] == [dog]
        assert fox not in [s["id"] for s in pending(lab, CURSOR_DOC)]


# ---------------------------------------------------------------------------------- focus

# The focused element: its focus key, text, and the card (suggestion id) it is in.
FOCUSED = """() => { const n = document.activeElement; const card = n.closest('.jp-McpLab-suggestion');
  return {key: n.dataset.focusKey ?? null, text: n.textContent.slice(0, 40), tag: n.tagName,
          label: n.getAttribute('aria-label'), card: card && card.dataset.id}; }"""
LONG_RATIONALE = "Foxes in this story are red, as the first chapter says. " * 5


def test_the_focus_stays_on_its_control_across_redraws(lab: Lab) -> None:
    """A keyboard user's button survives the panel's redraws (WCAG 2.4.3): Show more, a
    suggestion arriving from an agent; when its card is decided, the list takes the focus; a
    file name under "Decided" keeps it when another decision comes first."""
    from playwright.sync_api import expect

    start_clean(lab)
    path = "focus.md"
    (lab.root / path).write_text(TEXT)
    [fox] = suggest(lab, path, [("brown", "red")], LONG_RATIONALE)
    [dog] = suggest(lab, path, [("lazy dog", "sleepy cat")], "Cats sleep more.")
    other = "focus-other.md"  # a suggestion whose text changed since: a conflict
    (lab.root / other).write_text(TEXT)
    [cat] = suggest(lab, other, [("lazy dog", "tired cat")], "Tired.")
    (lab.root / other).write_text(TEXT.replace("lazy dog", "old dog"))
    with browser(lab, "review-focus", width=1366, height=768, path="lab/workspaces/focus") as (page, shots):
        decline_news(page)
        panel = open_panel(page)
        cards = panel.locator(".jp-McpLab-suggestion")
        expect(cards).to_have_count(2, timeout=20_000)
        listbox = panel.get_by_role("group", name="Pending suggestions")

        # A redraw that draws the list as it was (a conflict elsewhere dismissed) keeps its
        # cards: a click on one is not dropped. A mark in JavaScript, not in the DOM, tells.
        shots.at("unchanged")
        conflict = panel.locator(f'.jp-McpLab-conflict[data-id="{cat}"]')
        expect(conflict).to_have_attribute("data-kind", "changed", timeout=15_000)
        cards.nth(1).evaluate("n => { n.keptMark = true; }")
        lab.api("POST", f"suggestions/{cat}/reject")
        expect(conflict).to_have_count(0, timeout=15_000)
        assert cards.nth(1).evaluate("n => n.keptMark === true"), "the unchanged list was redrawn"

        # (a) Tab from the list to the first card's Show more, Enter: the focus is on its Show less.
        shots.at("show-more")
        listbox.focus()
        for _ in range(12):
            page.keyboard.press("Tab")
            if page.evaluate(FOCUSED)["text"] == "Show more":
                break
        assert page.evaluate(FOCUSED)["card"] == fox
        page.keyboard.press("Enter")
        expect(cards.nth(0).get_by_role("button", name="Show less")).to_have_attribute("aria-expanded", "true")
        focused = page.evaluate(FOCUSED)
        assert (focused["text"], focused["card"], focused["key"]) == ("Show less", fox, f"{fox}:more"), focused
        page.keyboard.press("Enter")
        expect(cards.nth(0).get_by_role("button", name="Show more")).to_be_focused()
        shots.save("show-more")

        # (b) On card 2's Accept, an agent stages another suggestion: the list redraws from the
        # server's event (the new card comes first), the focus stays on that Accept.
        shots.at("arrival")
        cards.nth(1).get_by_role("button", name="Accept", exact=True).focus()
        [today] = suggest(lab, path, [("# Notes", "# Notes today")], "Date the notes.")
        expect(cards).to_have_count(3, timeout=15_000)
        focused = page.evaluate(FOCUSED)
        assert (focused["text"], focused["card"], focused["key"]) == ("Accept", dog, f"{dog}:accept"), focused
        page.mouse.move(0, 0)
        shots.save("arrival")

        # (c) Enter accepts it: its card leaves, the list has the focus (not <body>), the keys go on.
        shots.at("decided")
        page.keyboard.press("Enter")
        assert lab.wait_for_file(path, lambda t: t != TEXT) == TEXT.replace("lazy dog", "sleepy cat")
        expect(cards).to_have_count(2, timeout=15_000)
        expect(listbox).to_be_focused()
        assert page.evaluate(FOCUSED)["label"] == "Pending suggestions"
        shots.save("decided")

        # (d) Under "Decided", on the accepted card's file name: another suggestion is rejected
        # elsewhere (REST), the list redraws with it first, the focus stays on that file name.
        shots.at("decided-list")
        toggle = panel.locator(".jp-McpLab-decidedToggle")
        toggle.click()
        item = panel.locator(f'.jp-McpLab-decidedItem[data-id="{dog}"]')
        item.get_by_role("button", name=path).focus()
        lab.api("POST", f"suggestions/{today}/reject")
        expect(panel.locator(".jp-McpLab-decidedItem").first).to_have_attribute("data-id", today, timeout=15_000)
        assert page.evaluate("() => document.activeElement.dataset.focusKey ?? null") == f"{dog}:open"
        shots.save("decided-list")


# ---------------------------------------------------------------------------------- side by side


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_compare_side_by_side(lab: Lab, theme: str) -> None:
    from playwright.sync_api import expect

    start_clean(lab)
    path = f"compare-{theme}.md"
    (lab.root / path).write_text(NOTE)
    suggest(lab, path, [("Monday.", "Monday 12 December.")], "Give the date.")
    suggest(lab, path, [("Tuesday", "Wednesday")], "Ann moved it.")
    suggest(lab, path, [("Call the bank.", "Call the bank about the loan.")], "More precise.")
    with browser(lab, f"review-compare-{theme}", width=1366, height=768, path=f"lab/workspaces/compare-{theme}") as (
        page,
        shots,
    ):
        decline_news(page)
        use_theme(page, theme)
        panel = open_panel(page)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(3, timeout=20_000)
        shots.at("open")
        panel.locator(".jp-McpLab-documentHeader").get_by_role("button", name="Compare", exact=True).click()
        view = page.locator(".jp-McpLab-compare")
        expect(view).to_be_visible(timeout=15_000)
        expect(view.locator(".jp-McpLab-compareTitle")).to_have_text(f"{path}: 3 pending suggestions", timeout=15_000)
        merge = view.locator(".cm-mergeView")
        expect(merge).to_be_visible()
        sides = merge.locator(".cm-editor")
        expect(sides).to_have_count(2)
        expect(sides.nth(0)).to_contain_text("Meeting on Monday.")
        expect(sides.nth(1)).to_contain_text("Meeting on Monday 12 December.")
        bars = view.locator(".jp-McpLab-compareActions")
        expect(bars).to_have_count(3)
        expect(bars.nth(1)).to_contain_text("Ann moved it.")
        page.mouse.move(0, 0)
        shots.save("open")
        violations = axe_violations(page, ".jp-McpLab-compare")
        (ARTIFACTS / f"review-compare-{theme}-axe.json").write_text(json.dumps(violations, indent=2))
        assert violations == [], describe(violations)

        # Accept one change: only it reaches the file; the view shows the two left.
        shots.at("accept-one")
        bars.nth(1).get_by_role("button", name=re.compile("^Accept")).click()
        text = lab.wait_for_file(path, lambda t: t != NOTE)
        assert text == NOTE.replace("Tuesday", "Wednesday")
        expect(view.locator(".jp-McpLab-compareTitle")).to_have_text(f"{path}: 2 pending suggestions", timeout=15_000)
        expect(bars).to_have_count(2)
        expect(sides.nth(0)).to_contain_text("Lunch with Ann on Wednesday.")

        # Keys: n goes to the next change, r rejects the one at the cursor.
        shots.at("keys")
        sides.nth(1).locator(".cm-content").click(position={"x": 5, "y": 5})
        # The server's event of the accept reloads the view after our own reload did: finding
        # nothing new, it must leave the cursor and focus where the person put them.
        page.wait_for_timeout(1_000)
        page.keyboard.press("n")
        page.keyboard.press("n")
        page.keyboard.press("r")
        expect(bars).to_have_count(1, timeout=15_000)
        [left] = pending(lab, path)  # from the top, n, n: the second change (the bank) is rejected
        assert "12 December" in left["new"], left
        shots.save("keys")
    assert (lab.root / path).read_text() == NOTE.replace("Tuesday", "Wednesday")


# ---------------------------------------------------------------------------------- conflicts


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_typed_over_suggestion_is_a_conflict_to_reapply(lab: Lab, theme: str) -> None:
    from playwright.sync_api import expect

    start_clean(lab)
    path = f"conflict-{theme}.md"
    doc = lab.root / path
    doc.write_text(TEXT)
    workspace = f"conflict-{theme}"
    with browser(lab, f"review-conflict-{theme}", width=1366, height=768, path=f"lab/workspaces/{workspace}") as (
        page,
        shots,
    ):
        decline_news(page)
        use_theme(page, theme)
        page.goto(f"{lab.base}/lab/workspaces/{workspace}/tree/{path}?token={lab.token}")
        content = page.locator(".jp-FileEditor .cm-content")
        expect(content).to_contain_text("lazy dog", timeout=30_000)
        panel = open_panel(page)
        [fox] = suggest(lab, path, [("quick brown fox", "quick red fox")], "Foxes here are red.")
        mark = content.locator(".jp-McpLab-inlineDel")
        expect(mark).to_have_text("brown", timeout=20_000)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(1, timeout=15_000)

        # The person types over the suggested word: a conflict in the panel at once, not pending.
        shots.at("typed")
        mark.dblclick()
        page.keyboard.type("green")
        conflict = panel.locator(".jp-McpLab-conflict")
        expect(conflict).to_have_attribute("data-kind", "typed", timeout=10_000)
        expect(panel.locator(".jp-McpLab-suggestion")).to_have_count(0)
        expect(conflict).to_contain_text("You typed over")
        expect(conflict.locator("ins.jp-McpLab-diffWord")).to_have_text("red")  # what it suggested
        page.mouse.move(0, 0)
        shots.save("typed")

        # Saved: the server finds the text changed too; the card shows where it would go now.
        shots.at("saved")
        content.click()
        page.keyboard.press("Control+s")
        assert lab.wait_for_file(path, lambda t: "green" in t) == TEXT.replace("brown", "green")
        expect(conflict).to_have_attribute("data-kind", "changed", timeout=15_000)
        preview = conflict.locator(".jp-McpLab-reapplyPreview")
        expect(preview).to_contain_text("line 3", timeout=15_000)
        expect(preview.locator("del.jp-McpLab-diffWord")).to_have_text("green")
        expect(preview.locator("ins.jp-McpLab-diffWord")).to_have_text("red")
        page.mouse.move(0, 0)
        shots.save("saved")
        violations = axe_violations(page, ".jp-McpLab-conflicts")
        (ARTIFACTS / f"review-conflict-{theme}-axe.json").write_text(json.dumps(violations, indent=2))
        assert violations == [], describe(violations)

        # Re-apply: a new pending suggestion on the current text (selected), the conflict gone.
        shots.at("reapply")
        conflict.get_by_role("button", name="Re-apply to the current text").click()
        expect(conflict).to_have_count(0, timeout=15_000)
        card = panel.locator(".jp-McpLab-suggestion")
        expect(card).to_have_count(1)
        expect(card).to_have_attribute("aria-current", "true")
        expect(card.locator("del.jp-McpLab-diffWord")).to_have_text("green")
        expect(card.locator("ins.jp-McpLab-diffWord")).to_have_text("red")
        old = lab.api("GET", f"suggestions/{fox}")
        assert old["status"] == "rejected" and card.get_attribute("data-id") in old["reason"]
        card.get_by_role("button", name="Accept", exact=True).click()
        assert lab.wait_for_file(path, lambda t: "red" in t) == TEXT.replace("brown", "red")
        shots.save("reapplied")

        # A conflict found by an accept stays listed after a reload, until dismissed.
        shots.at("reload")
        other = f"conflict-disk-{theme}.md"
        (lab.root / other).write_text(TEXT)
        [dog] = suggest(lab, other, [("lazy dog", "sleepy cat")], "Cats sleep more.")
        (lab.root / other).write_text(TEXT.replace("lazy dog", "tired dog"))
        assert lab.api("POST", f"suggestions/{dog}/accept")["status"] == "conflict"
        page.reload()
        page.wait_for_selector(".jp-LabShell", timeout=60_000)
        panel = open_panel(page)
        conflict = panel.locator(f'.jp-McpLab-conflict[data-id="{dog}"]')
        expect(conflict).to_have_attribute("data-kind", "conflict", timeout=20_000)
        expect(conflict.locator(".jp-McpLab-reapplyPreview")).to_contain_text("line 5", timeout=15_000)
        page.mouse.move(0, 0)
        shots.save("reload")
        conflict.get_by_role("button", name="Dismiss").click()
        expect(conflict).to_have_count(0, timeout=15_000)
        assert lab.api("GET", f"suggestions/{dog}")["status"] == "rejected"
        panel.locator(".jp-McpLab-decidedToggle").click()
        expect(panel.locator(f'.jp-McpLab-decidedItem[data-id="{dog}"]')).to_have_attribute("data-status", "rejected")
    assert (lab.root / other).read_text() == TEXT.replace("lazy dog", "tired dog")
