"""A notebook run in real JupyterLab, in Debian's headless Chromium, for the widgets' browser tests.

Usage (a test module)::

    from tests.kernel_tools.notebook_browser import BROWSER, notebook_lab, open_notebook  # noqa: F401

    pytestmark = BROWSER  # marked ``browser``; skipped without /usr/bin/chromium


    def test_widget(notebook_lab):
        cells = ["from kernel_tools import connect", "lab = connect()\\nlab.form('document')"]
        with open_notebook(notebook_lab, "form.ipynb", cells, prefix="form", wait_for=".mcpw-tools") as nb:
            nb.page.locator(".mcpw-tools select").first.select_option("read")
            nb.shots.save("filled")                       # test-artifacts/form-filled.png
            print(nb.run("print(lab.pending)"))           # a new cell, run; its output text

``notebook_lab`` (module-scoped fixture) is ``tests.labext.conftest.start_lab`` with
``approval=suggest`` and JupyterLab's app exposed to the page (``window.jupyterapp``), so
the helpers can read the kernel's state. The kernel inherits the server's environment
(its ``JUPYTER_RUNTIME_DIR``), so ``connect()`` in a cell finds this server by itself.

``open_notebook`` writes the notebook (nbformat, python3 kernel) into the root, opens it
(``/lab/tree/<name>``; ``app="notebook"``: Notebook 7's ``/notebooks/<name>``), runs every
cell as a person does (menu Run → Run All Cells), waits for the kernel to be idle, fails with
the traceback if a cell raised, and waits for ``wait_for`` (a CSS selector) inside a cell's
output. It yields a ``NotebookPage``. A failed step leaves
``test-artifacts/<prefix>-<step>-failed.png`` (``nb.shots.at(step)`` names it).
``serve_notebooks(tmp, app)`` is that server for a fixture of one's own (``app="notebook"``:
Jupyter Notebook 7, whose page has the same notebook panel, menus and API, so the rest holds).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.labext.conftest import CHROMIUM, Lab, Shots, browser, start_lab

BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (scripts/test installs it)"),
]

# The open notebook panel, through JupyterLab's own API (exposed by the fixture's server option).
_PANEL_JS = """(path) => {
    for (const w of window.jupyterapp.shell.widgets('main')) {
        if (w.context && w.context.path === path && w.content && w.content.model) return w;
    }
    return null;
}"""

_STATE_JS = (
    """(path) => {
    const find = """
    + _PANEL_JS
    + """;
    const panel = find(path);
    if (!panel) return null;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = [];
    for (const cell of panel.content.model.cells) {
        const json = cell.toJSON();
        cells.push({ type: json.cell_type, count: json.execution_count ?? null, outputs: json.outputs || [] });
    }
    return { kernel: kernel ? kernel.status : null, cells };
}"""
)


@dataclass
class NotebookPage:
    """An open, executed notebook: ``page`` (Playwright), ``shots``, the server ``lab``, its ``path``."""

    page: Any
    shots: Shots
    lab: Lab
    path: str

    @property
    def outputs(self) -> Any:
        """The notebook's output areas (a Playwright locator)."""
        return self.page.locator(".jp-NotebookPanel:visible .jp-OutputArea-output")

    def output(self, selector: str) -> Any:
        """Elements matching ``selector`` inside the cells' outputs."""
        return self.page.locator(f".jp-NotebookPanel:visible .jp-OutputArea-output {selector}")

    def state(self) -> dict[str, Any]:
        """The kernel's status and every cell's type, execution count and outputs (nbformat JSON)."""
        state = self.page.evaluate(_STATE_JS, self.path)
        assert state is not None, f"{self.path} is not open in JupyterLab"
        return dict(state)

    def wait_idle(self, timeout: float = 120) -> dict[str, Any]:
        """Wait until the kernel is idle and every code cell has run; raise on a cell's error."""
        deadline = time.monotonic() + timeout
        state = self.state()
        while time.monotonic() < deadline:
            state = self.state()
            code = [c for c in state["cells"] if c["type"] == "code"]
            if state["kernel"] == "idle" and all(c["count"] is not None for c in code):
                break
            time.sleep(0.25)
        else:
            raise AssertionError(f"the kernel did not finish in {timeout:g}s: {json.dumps(state)[:2000]}")
        for cell in state["cells"]:
            for out in cell["outputs"]:
                if out.get("output_type") == "error":
                    trace = "\n".join(out.get("traceback", []))
                    raise AssertionError(f"a cell raised {out.get('ename')}: {out.get('evalue')}\n{trace}")
        return state

    def run_all(self, timeout: float = 120) -> None:
        """Menu Run → Run All Cells, as a person does; then wait for the kernel."""
        self.page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        self.page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        time.sleep(0.5)  # let the first cell leave the idle state before waiting for idle
        self.wait_idle(timeout)

    def run(self, code: str, timeout: float = 60) -> str:
        """Append a code cell with ``code``, run it, wait; its text output (stdout and results)."""
        self.page.evaluate(
            """([path, code]) => {
                const find = """
            + _PANEL_JS
            + """;
                const panel = find(path);
                const model = panel.content.model;
                model.sharedModel.insertCell(model.cells.length, { cell_type: 'code', source: code });
                panel.content.activeCellIndex = model.cells.length - 1;
            }""",
            [self.path, code],
        )
        self.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")
        time.sleep(0.3)
        state = self.wait_idle(timeout)
        outputs = state["cells"][-1]["outputs"]
        texts = []
        for out in outputs:
            if out.get("output_type") == "stream":
                texts.append(out.get("text", ""))
            elif "data" in out:
                texts.append(out["data"].get("text/plain", ""))
        return "".join(t if isinstance(t, str) else "".join(t) for t in texts)

    def wait_for_output(self, selector: str, timeout: float = 60) -> Any:
        """The first element matching ``selector`` in an output, once it is visible."""
        found = self.output(selector).first
        found.wait_for(state="visible", timeout=timeout * 1000)
        return found


def write_notebook(lab: Lab, name: str, cells: list[str]) -> str:
    """A notebook of code cells (markdown cells when they start with ``# %% md``) in the root."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    for source in cells:
        if source.startswith("# %% md\n"):
            nb.cells.append(nbformat.v4.new_markdown_cell(source.removeprefix("# %% md\n")))
        else:
            nb.cells.append(nbformat.v4.new_code_cell(source))
    path = lab.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return name


@contextmanager
def open_notebook(
    lab: Lab,
    name: str,
    cells: list[str],
    *,
    prefix: str,
    wait_for: str | None = None,
    timeout: float = 120,
    width: int = 1400,
    height: int = 900,
    app: str = "lab",
) -> Iterator[NotebookPage]:
    """Write ``cells`` as notebook ``name``, open it in Chromium, Run All, wait; a ``NotebookPage``.

    ``wait_for``: a CSS selector that must appear in a cell's output (a widget's root class).
    Screenshots go to ``test-artifacts/<prefix>-*.png``. ``app``: the server's front end,
    ``lab`` (JupyterLab, the notebook opened in its shell) or ``notebook`` (Notebook 7, the
    notebook's own page).
    """
    write_notebook(lab, name, cells)
    if app not in _APP_CLASS:
        raise ValueError(f"app must be one of {', '.join(_APP_CLASS)}, not {app!r}")
    # Notebook 7 opens a notebook as a page of its own; JupyterLab opens its shell first.
    own_page = {"path": f"notebooks/{name}", "ready": ".jp-NotebookPanel"} if app == "notebook" else {}
    with browser(lab, prefix, width=width, height=height, **own_page) as (page, shots):
        shots.at("open-notebook")
        if app == "lab":
            page.goto(f"{lab.base}/lab/tree/{name}")
        page.locator(".jp-NotebookPanel:visible .jp-Cell").first.wait_for(timeout=60_000)
        nb = NotebookPage(page, shots, lab, name)
        shots.at("kernel-start")
        _wait_kernel(nb, timeout)
        shots.at("run-all")
        nb.run_all(timeout)
        if wait_for is not None:
            shots.at("wait-output")
            nb.wait_for_output(wait_for, timeout)
        shots.at("test")
        yield nb


def _wait_kernel(nb: NotebookPage, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if nb.page.evaluate(_STATE_JS, nb.path) and nb.state()["kernel"] == "idle":
            return
        time.sleep(0.25)
    raise AssertionError(f"the notebook's kernel did not start in {timeout:g}s")


# The class whose ``expose_app_in_browser`` puts the front end's app on ``window.jupyterapp``.
_APP_CLASS = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}


@contextmanager
def serve_notebooks(tmp: Path, app: str = "lab") -> Iterator[Lab]:
    """``start_lab`` for ``app`` (``lab`` or ``notebook``): approval=suggest, the app exposed to the page."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium")
    # No "get Jupyter news?" toast over the screenshots.
    settings = tmp / "config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false", "checkForUpdates": false}')
    expose = f"--{_APP_CLASS[app]}.expose_app_in_browser=True"
    with start_lab(tmp, "--MCPLabApp.approval=suggest", expose, app=app) as running:
        yield running


@pytest.fixture(scope="module")
def notebook_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab (approval=suggest, app exposed to the page) shared by a test module."""
    with serve_notebooks(tmp_path_factory.mktemp("notebook-lab")) as running:
        yield running


__all__ = ["BROWSER", "NotebookPage", "notebook_lab", "open_notebook", "serve_notebooks", "write_notebook"]
