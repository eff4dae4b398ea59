"""Running code in a notebook's kernel: the Jupyter server's kernel for the notebook's
session (the one JupyterLab shows), started with the notebook's kernelspec when none runs.

Running code can do anything the person can, so under the ``suggest`` policy the person
allows it in JupyterLab first (a dialog naming the agent, the notebook and the code), unless
the agent holds a grant on that notebook (or the workspace); under ``auto`` nobody is asked.
Interrupting or restarting a kernel stops the person's work too: the same rule applies.
A cell with a pending suggestion is not run before the person accepts it.

A cell's outputs are stored back into the notebook (the live shared document when it is open
in JupyterLab, where the person sees them arrive while the code runs) and returned as text
with resources to fetch; code that is not a cell returns
its outputs as text only. While code runs the agent gets progress notifications and its
streamed text as log messages; at the timeout the kernel is interrupted and what came is kept.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from pydantic import BaseModel, Field

from ...core.content import NotebookContent
from ...core.documents import OpenDocument
from ...core.errors import DomainError
from ...core.kernels import ExecutionStatus, KernelInfo, Kernels
from ...core.storage import LiveCells, OutputSink
from ..base import operation
from ..context import OpContext
from ..documents import DocumentTarget, resolve_target
from ..lab.bridge import lab_of
from ..review.gate import allowed_by
from . import outputs as nb_outputs
from .read import CELL, notebook_of

Approval = Literal["auto", "grant", "person"]
TICK = 2.0  # seconds between progress notifications while the code runs (by default)
LOG_LIMIT = 2_000  # characters of one streamed text sent as a log message
STREAM_AFTER = 0.25  # seconds into a run after which its printed text streams to a caller not following it


class ExecuteParams(DocumentTarget):
    cell: str | int | None = CELL
    source: str | None = None
    timeout: float = Field(60, gt=0, le=3600)  # seconds, then the kernel is interrupted
    progressEvery: float = Field(
        TICK, ge=0, le=3600, description="Seconds between progress notifications while it runs (0: none)."
    )
    logOutputs: bool = Field(True, description="Send its streamed text (stdout, stderr) as log messages.")


class KernelParams(DocumentTarget):
    kernel: Literal["list", "interrupt", "restart"] = "list"


class KernelView(BaseModel):
    id: str
    name: str
    state: str
    connections: int = 0
    lastActivity: str | None = None
    paths: list[str] = Field(default_factory=list, description="Notebooks whose sessions use it.")
    displayName: str = ""
    language: str = ""
    env: dict[str, str] = Field(default_factory=dict, description="Its kernelspec's environment variables.")


class ExecuteResult(BaseModel):
    path: str | None
    cellId: str | None = Field(None, description="The cell run (None: code given as source).")
    status: ExecutionStatus = Field(description="ok, error (the code raised), timeout (interrupted).")
    executionCount: int | None = None
    outputs: list[nb_outputs.OutputView]
    stored: bool = Field(description="Whether the outputs were stored in the cell.")
    revision: str = Field(description="The notebook's revision (after storing the outputs).")
    kernel: KernelView
    kernelStarted: bool = Field(description="Whether a kernel was started for this run.")
    approvedBy: Approval


class KernelResult(BaseModel):
    path: str | None = Field(None, description="The notebook whose kernel was interrupted or restarted.")
    kernels: list[KernelView]
    count: int
    approvedBy: Approval | None = None


def kernel_view(k: KernelInfo) -> KernelView:
    return KernelView(
        id=k.id,
        name=k.name,
        state=k.state,
        connections=k.connections,
        lastActivity=k.last_activity,
        paths=k.paths,
        displayName=k.display_name,
        language=k.language,
        env=k.env,
    )


def kernels_of(ctx: OpContext) -> Kernels:
    kernels = ctx.services.kernels
    if kernels is None:
        raise DomainError(
            "NOT_IMPLEMENTED",
            "Running code needs a Jupyter server: this server runs standalone, without kernels. Serve the "
            "workspace with `jupyter lab` and connect to its MCP endpoint.",
            needs="jupyter",
        )
    return kernels


async def _approve(ctx: OpContext, doc: OpenDocument, what: str, question: dict[str, Any]) -> Approval:
    """Whether this agent may run ``what`` now: the policy, its grant on the notebook, or the
    person's Allow in JupyterLab (APPROVAL_REQUIRED when they deny or do not answer)."""
    rule = allowed_by(ctx, doc.key)
    if rule is not None:
        return rule
    lab = lab_of(ctx)
    try:
        window = lab.pick(None)
    except DomainError as exc:
        raise DomainError(
            "NO_LAB_CLIENT",
            f"To {what} in {doc.key!r} the person allows it in JupyterLab, and no JupyterLab is connected: ask "
            "them to open JupyterLab, or to grant you this notebook.",
            **{k: v for k, v in exc.details.items() if k == "labUrl"},
            path=doc.key,
        ) from None
    await ctx.report_progress(0, None, f"waiting for the person to allow this in JupyterLab ({window})")
    agent = ctx.caller.client_name or "an agent"
    answer = await lab.ask(window, {"agent": agent, "user": ctx.caller.username, "path": doc.key, **question})
    if answer == "allow":
        return "person"
    said = "denied it" if answer == "deny" else "did not answer in time"
    raise DomainError(
        "APPROVAL_REQUIRED",
        f"The person {said} in JupyterLab ({window}). Do not retry at once: ask them, or ask for a grant on "
        "this notebook.",
        decision="denied" if answer == "deny" else "timeout",
        window=window,
        path=doc.key,
    )


def _runnable_cell(ctx: OpContext, doc: OpenDocument, nb: NotebookContent, ref: str | int) -> str:
    cell_id = nb.cell_id(ref)
    cell = nb.cell(cell_id)
    if cell["cell_type"] != "code":
        raise DomainError(
            "INVALID_ARGUMENT", f"cell {cell_id!r} is a {cell['cell_type']} cell: only code cells run", argument="cell"
        )
    waiting = [s.id for s in ctx.services.reviews.pending(doc.key) if s.part == cell_id]
    if waiting:
        raise DomainError(
            "CONFLICT",
            f"cell {cell_id!r} has a pending suggestion ({', '.join(waiting)}): it runs once the person has "
            "accepted or rejected it. Wait for their decision.",
            cellId=cell_id,
            suggestionIds=waiting,
        )
    return cell_id


def _store(doc: OpenDocument, cell_id: str, outs: list[dict[str, Any]], count: int | None) -> Any:
    def change(text: str) -> str:
        try:
            # Mostly the text already parsed (the notebook as read before the run): not again.
            nb = doc.content if text is doc.text else NotebookContent.parse("notebook", text)
            assert isinstance(nb, NotebookContent)
            return nb.set_outputs(cell_id, outs, count).serialize()
        except DomainError:
            raise _Gone from None  # deleted, or no longer a code cell, while its code ran

    return change


async def _live_outputs(ctx: OpContext, doc: OpenDocument, cell_id: str | None) -> OutputSink | None:
    storage = ctx.services.docs.storage
    if cell_id is None or doc.path is None or not isinstance(storage, LiveCells):
        return None
    return await storage.cell_outputs(doc.path, cell_id)


class _Gone(Exception):
    """The cell was deleted (or made markdown) while its code ran: nothing to store the outputs in."""


@operation("notebook.execute", title="Run notebook code", destructive=True)
async def execute(ctx: OpContext, params: ExecuteParams) -> ExecuteResult:
    """Run a code cell (by id or index) or code given as source in the notebook's kernel,
    starting one with its kernelspec if none runs. Needs the person's Allow under 'suggest'."""
    doc, _ = await resolve_target(ctx, params)
    nb = notebook_of(doc)
    if (params.cell is None) == (params.source is None):
        raise DomainError("INVALID_ARGUMENT", "execute takes a cell or source (code), one of them", argument="cell")
    kernels = kernels_of(ctx)
    cell_id = _runnable_cell(ctx, doc, nb, params.cell) if params.cell is not None else None
    code = nb.cell(cell_id).get("source", "") if cell_id else str(params.source)
    approved = await _approve(ctx, doc, "run code", {"action": "execute", "command": code, "cell": cell_id})
    spec = (nb.nb.get("metadata") or {}).get("kernelspec") or {}
    kernel, started = await kernels.ensure(doc.key, spec.get("name"))

    began = time.monotonic()
    sent = 0.0

    async def progress(message: str) -> None:
        nonlocal sent
        sent = max(sent + 0.001, time.monotonic() - began)  # strictly increasing
        await ctx.report_progress(round(sent, 3), params.timeout, message)

    seen = 0
    # The person sees a cell's outputs arrive in the notebook they have open.
    live = await _live_outputs(ctx, doc, cell_id)

    async def on_output(out: dict[str, Any] | None, outputs: list[dict[str, Any]]) -> None:
        nonlocal seen
        if live is not None:
            live.show(outputs)
        if out is None:
            return
        seen += 1
        await progress(f"running: {seen} output{'s' if seen > 1 else ''} so far")
        if params.logOutputs and out.get("output_type") == "stream":
            text = str(out.get("text", ""))[:LOG_LIMIT]
            if streaming:
                await ctx.log("info", text)
            else:
                held.append(text)

    # Printed text goes out as log messages while the code runs: from the start for a caller
    # that follows the call's progress, else once the run has gone on for STREAM_AFTER
    # seconds (what it printed before comes first). A quick run's text is in its answer
    # alone: its log messages would only repeat it, at a cost to both sides.
    streaming = ctx.follows
    held: list[str] = []

    async def stream_later() -> None:
        nonlocal streaming
        await asyncio.sleep(STREAM_AFTER)
        while held:
            await ctx.log("info", held.pop(0))
        streaming = True  # no await since the last look: nothing is left behind in held

    async def tick(every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await progress(f"running for {time.monotonic() - began:.0f} s of {params.timeout:g} s")

    await progress(f"running in kernel {kernel.name} ({kernel.id[:8]})")
    ticker = asyncio.create_task(tick(params.progressEvery)) if params.progressEvery > 0 else None
    later = asyncio.create_task(stream_later()) if params.logOutputs and not streaming else None
    if live is not None:
        live.open()
    try:
        run = await kernels.execute(kernel.id, code, params.timeout, on_output)
    finally:
        if ticker is not None:
            ticker.cancel()
        if later is not None:
            later.cancel()
        if live is not None:
            live.close()
    stored = False
    if cell_id is not None:
        try:
            await ctx.services.docs.commit(
                doc, _store(doc, cell_id, run.outputs, run.execution_count), save=True, label="notebook execute"
            )
            stored = True
        except _Gone:
            pass
    path = doc.path or doc.key
    if cell_id is not None and stored:
        shown = [nb_outputs.view(path, cell_id, i, o) for i, o in enumerate(run.outputs)]
    else:  # not in the notebook: no resource to point at
        shown = []
        for o in run.outputs:
            v = nb_outputs.view(path, "", 0, o)
            v.text = v.text if v.text is not None else nb_outputs.summary([o])
            v.resources = []
            shown.append(v)
    now = await kernels.find(doc.key)
    return ExecuteResult(
        path=doc.path,
        cellId=cell_id,
        status=run.status,
        executionCount=run.execution_count,
        outputs=shown,
        stored=stored,
        revision=doc.revision,
        kernel=kernel_view(now or kernel),
        kernelStarted=started,
        approvedBy=approved,
    )


@operation("notebook.kernel", title="Notebook kernels", destructive=True)
async def kernel(ctx: OpContext, params: KernelParams) -> KernelResult:
    """The server's running kernels (list), or interrupt or restart the notebook's kernel (its
    variables are lost); interrupt and restart need the person's Allow under 'suggest'."""
    kernels = kernels_of(ctx)
    if params.kernel == "list":
        found = [kernel_view(k) for k in await kernels.list()]
        return KernelResult(kernels=found, count=len(found))
    doc, _ = await resolve_target(ctx, params)
    notebook_of(doc)
    running = await kernels.find(doc.key)
    if running is None:
        raise DomainError("NOT_FOUND", f"no kernel runs for {doc.key!r}", path=doc.key)
    what = params.kernel
    approved = await _approve(ctx, doc, f"{what} its kernel", {"action": "kernel", "command": what})
    await (kernels.interrupt if what == "interrupt" else kernels.restart)(running.id)
    now = await kernels.find(doc.key)
    return KernelResult(path=doc.path, kernels=[kernel_view(now or running)], count=1, approvedBy=approved)
