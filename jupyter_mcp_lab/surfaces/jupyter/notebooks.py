"""The reference's notebook management tools: use_notebook, list_notebooks, restart_notebook,
unuse_notebook, over the session's notebooks (``notebook.use``, ``list``, ``unuse``) and
``notebook.kernel``."""

from __future__ import annotations

from typing import Literal

import nbformat
from pydantic import Field

from ...ops.context import OpContext
from ...ops.document import text
from ...ops.notebook import execute, read, sessions
from ...ops.workspace import files
from ..adapter import adapter
from .answers import Answer, TableAnswer, table
from .reading import read_nb, tsv_brief
from .target import NoParams, Strict, not_connected_text, used

# ------------------------------------------------------------------ use / list / unuse


class UseParams(Strict):
    notebook_name: str = Field(description="Unique identifier for the notebook")
    notebook_path: str = Field(
        description="Path to the notebook file, relative to the Jupyter server root (e.g. 'notebook.ipynb')"
    )
    mode: Literal["connect", "create"] = Field(
        "connect",
        description="Notebook operation mode: 'connect' to connect to existing and activate it, 'create' to "
        "create new and activate it",
    )
    kernel_id: str | None = Field(
        None,
        description="Pass 'NEW' (or any id) to start the notebook's kernel now if none runs. Code runs in the "
        "kernel of the notebook's Jupyter session, the one JupyterLab shows; without it a kernel starts on "
        "first execution.",
    )


async def _create(ctx: OpContext, path: str) -> None:
    """A new empty notebook at ``path``: a new document of this agent's, saved there (refused
    when the file exists)."""
    tab = await files.new(ctx, files.NewParams(kind="notebook"))
    assert isinstance(tab, files.TabResult)
    empty = nbformat.writes(nbformat.v4.new_notebook())
    await text.write(ctx, text.WriteParams(tabId=tab.tabId, content=empty, mode="apply"))
    await files.save_as(ctx, files.SaveAsParams(tabId=tab.tabId, filePath=path))


@adapter(sessions.use, files.new, text.write, files.save_as, read.read, title="Use Notebook", destructive=False)
async def use_notebook(ctx: OpContext, params: UseParams) -> Answer:
    """Use a notebook and activate it for following cell operations (in this MCP session: other
    agents keep their own). All cell operations will be performed on the currently activated notebook.
    Activate new notebook will deactivate the previously activated notebook.
    Reactivate previously activated notebook using same notebook_name and notebook_path."""
    name, path = params.notebook_name, params.notebook_path
    names = await used(ctx)
    info: list[str] = []
    if name in names:
        if params.mode == "create":
            if names[name] == path:
                return Answer(
                    kind="notebook.use",
                    result=f"Notebook '{name}'(path: {path}) is already created. DO NOT CREATE AGAIN.",
                )
            return Answer(
                kind="notebook.use",
                result=f"Notebook '{name}' is already used. Use different notebook_name to create a new notebook "
                f"on {path}.",
            )
        if names[name] != path:
            return Answer(
                kind="notebook.use",
                result=f"The path '{path}' is not the correct path for notebook '{name}'. Do you mean connect to "
                f"'{names[name]}'?",
            )
        current = sessions.current_path(ctx)
        if current == path:
            return Answer(
                kind="notebook.use",
                result=f"Notebook '{name}' is already connected — no need to call use_notebook again.",
            )
        previous = next((n for n, p in names.items() if p == current), current)
        info.append(f"[INFO] Reactivating notebook '{name}' and deactivating '{previous}'.")
    elif params.mode == "create":
        await _create(ctx, path)
    start = params.kernel_id is not None or (params.mode == "create" and name not in names)
    r = await sessions.use(
        ctx, sessions.UseParams(path=path, name=name, startKernel=start and ctx.services.kernels is not None)
    )
    assert isinstance(r, sessions.UseResult)
    if name not in names:
        if r.kernel is not None:
            info.append(f"[INFO] Connected to kernel '{r.kernel.id}'.")
            if params.kernel_id not in (None, "NEW", r.kernel.id):
                info.append(
                    f"[WARNING] Existing Jupyter session for '{r.path}' uses kernel '{r.kernel.id}', not requested "
                    f"kernel '{params.kernel_id}'."
                )
        else:
            info.append(
                "[INFO] Notebook opened. No Jupyter session was found, so no kernel was created; a kernel is "
                "started on first execution."
            )
        info.append(f"[INFO] Successfully activate notebook '{name}'.")
    nb = await read_nb(ctx, r.path, view="brief", limit=20)
    shown = nb.cells or []
    info.append(f"\nNotebook has {nb.cellCount} cells.")
    info.append(f"Showing first {len(shown)} cells:\n")
    info.append(tsv_brief(shown))
    return Answer(kind="notebook.use", result="\n".join(info))


@adapter(sessions.list_, title="List Notebooks")
async def list_notebooks(ctx: OpContext, params: NoParams) -> TableAnswer:
    """List all notebooks that have been used via use_notebook tool (in this MCP session)"""
    r = await sessions.list_(ctx, sessions.ListParams(used=True, limit=1000))
    assert isinstance(r, sessions.NotebookList)
    if not r.notebooks:
        return TableAnswer(
            kind="notebooks.list", result="No managed notebooks. Use the use_notebook tool to manage notebooks first."
        )
    rows = [
        [
            e.name or e.path,
            e.path,
            e.kernel.id if e.kernel else "-",
            e.kernel.state if e.kernel else "-",
            "✓" if e.current else "",
        ]
        for e in sorted(r.notebooks, key=lambda e: e.name or e.path)
    ]
    return table("notebooks.list", ["Name", "Path", "Kernel_ID", "Kernel_Status", "Activate"], rows)


class NameParams(Strict):
    notebook_name: str = Field(description="Notebook identifier")


@adapter(execute.kernel, title="Restart Notebook")
async def restart_notebook(ctx: OpContext, params: NameParams) -> Answer:
    """Restart the kernel for a specific notebook. The person allows it in JupyterLab first
    unless they granted you the notebook."""
    names = await used(ctx)
    if params.notebook_name not in names:  # the reference answers this, as a result
        return Answer(kind="notebook.restart", result=not_connected_text(params.notebook_name, list(names)))
    r = await execute.kernel(ctx, execute.KernelParams(kernel="restart", path=names[params.notebook_name]))
    assert isinstance(r, execute.KernelResult)
    return Answer(
        kind="notebook.restart",
        result=f"Notebook '{params.notebook_name}' kernel restarted successfully. Memory state and imported "
        "packages have been cleared.",
    )


@adapter(sessions.unuse, title="Unuse Notebook", destructive=False)
async def unuse_notebook(ctx: OpContext, params: NameParams) -> Answer:
    """Unuse from a specific notebook (in this MCP session). Its kernel keeps running."""
    names = await used(ctx)
    name = params.notebook_name
    if name not in names:
        return Answer(
            kind="notebook.unuse",
            result=not_connected_text(name, list(names)),
        )
    r = await sessions.unuse(ctx, sessions.UnuseParams(path=names[name]))
    assert isinstance(r, sessions.UnuseResult)
    message = f"Notebook '{name}' unused successfully."
    if r.wasCurrent:
        now = next((n for n, p in names.items() if p == r.current and n != name), None)
        message += f" Current notebook switched to '{now}'." if now else " No notebooks remaining."
    return Answer(kind="notebook.unuse", result=message)
