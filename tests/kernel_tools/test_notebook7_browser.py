"""The notebook widgets in Jupyter Notebook 7, not only JupyterLab 4, in Debian's headless Chromium.

`jupyter notebook` runs as a person starts it (approval=suggest); an agent (the official SDK)
stages a suggestion; a notebook that connects and shows the document form, the review widget
and the document view is opened on Notebook 7's own page (``/notebooks/<name>``) and run with
Run → Run All Cells. The widgets render there, styled, and work: Accept on the review card
changes the file on disk, the card goes and the document view follows; the form reads the
file. Screenshots: ``test-artifacts/nb7-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.kernel_tools.notebook_browser import BROWSER, open_notebook, serve_notebooks
from tests.kernel_tools.test_review_widget import TEXT, stage
from tests.labext.conftest import ARTIFACTS, Lab

pytestmark = BROWSER

DOC = "note.md"
CELLS = [
    "from kernel_tools import connect\nlab = connect()",
    'lab.form("document")',
    f"lab.review_widget({DOC!r})",
    f"lab.document_view({DOC!r})",
]
TRANSPARENT = "rgba(0, 0, 0, 0)"
HEIGHT = 1800  # tall enough that the form, its result and its history fit in one screenshot
# The perceived lightness (0-255) of an element's text colour, to tell the themes apart.
_LIGHTNESS_JS = """e => {
    const [r, g, b] = getComputedStyle(e).color.match(/\\d+/g).map(Number);
    return 0.299 * r + 0.587 * g + 0.114 * b;
}"""


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """`jupyter notebook` (Notebook 7) with jupyter-mcp-lab, shared by this module."""
    with serve_notebooks(tmp_path_factory.mktemp("notebook7"), app="notebook") as running:
        yield running


def test_the_widgets_render_and_work_in_notebook_7(notebook7: Lab) -> None:
    from playwright.sync_api import expect

    # The server is Jupyter Notebook's: its front page is the file tree, not JupyterLab.
    front = httpx.get(f"{notebook7.base}/", headers=notebook7.headers, follow_redirects=False, timeout=15)
    assert front.headers.get("location", "").split("?")[0] == "/tree", front.headers
    (notebook7.root / DOC).write_text(TEXT)
    fox = stage(notebook7, DOC, "quick brown fox", "quick red fox", "Foxes here are red.")

    with open_notebook(
        notebook7, "widgets.ipynb", CELLS, prefix="nb7", wait_for=".mcpw-card", app="notebook", height=HEIGHT
    ) as nb:
        page, shots = nb.page, nb.shots
        assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        form, review, document = nb.output(".mcpw-tools"), nb.output(".mcpw-review"), nb.output(".mcpw-document")
        for widget in (form, review, document):
            expect(widget).to_have_count(1)
            expect(widget).to_be_visible()
        # Styled: the widgets' stylesheets reached Notebook 7's page (a bare button is transparent).
        call = form.locator("button.mcpw-call")
        assert call.evaluate("b => getComputedStyle(b).backgroundColor") != TRANSPARENT
        card = review.locator(f'.mcpw-card[data-id="{fox}"]')
        expect(card.locator(".mcpw-author")).to_have_text("agent-a")
        expect(card.locator(".mcpw-rationale")).to_have_text("Foxes here are red.")
        expect(card.locator("del.mcpw-del")).to_have_text("brown")
        expect(review.locator(".mcpw-review-counts")).to_have_text("1 pending")
        expect(document.locator(f'ins.mcpw-ins[data-id="{fox}"]')).to_have_text("red")
        shots.save("rendered")

        # Accept on the card: the file changes on disk, the card goes, the document view follows.
        shots.at("accept")
        accept = card.get_by_role("button", name="Accept", exact=True)
        assert accept.evaluate("b => getComputedStyle(b).backgroundColor") != TRANSPARENT
        accept.click()
        assert notebook7.wait_for_file(DOC, lambda t: "red fox" in t) == TEXT.replace("brown", "red")
        expect(card).to_have_count(0, timeout=15_000)
        expect(review.locator(".mcpw-review-counts")).to_have_text("0 pending")
        expect(document.locator("ins.mcpw-ins")).to_have_count(0, timeout=15_000)
        expect(document.locator(".mcpw-document-body")).to_contain_text("The quick red fox.")
        shots.save("accepted")

        # The form: choose read, type the path, Call; the result is shown.
        shots.at("form")
        form.locator("select[data-path='action']").select_option(label="read")
        form.locator("input[data-path='path']").press_sequentially(DOC)
        expect(form.locator(".mcpw-code pre")).to_have_text(f'lab.call("document", action="read", path="{DOC}")')
        call.click()
        expect(form.locator(".mcpw-result-head")).to_contain_text("✓ Result", timeout=30_000)
        expect(form.locator(".mcpw-result-body")).to_contain_text("The quick red fox.")
        expect(form.locator(".mcpw-entry").locator("pre")).to_have_text(
            f'lab.call("document", action="read", path="{DOC}")'
        )
        shots.save("form-read")
        form.screenshot(path=str(ARTIFACTS / "nb7-form.png"))

        # Notebook 7's dark theme (Settings → Theme): the widgets follow its colours.
        shots.at("dark")
        assert review.evaluate(_LIGHTNESS_JS) < 128
        page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=20_000)
        page.wait_for_timeout(500)
        assert review.evaluate(_LIGHTNESS_JS) > 128
        shots.save("dark")
