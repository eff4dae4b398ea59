"""The reference's execution tools: execute_cell, insert_execute_code_cell, execute_code,
over ``notebook.execute`` (the notebook's Jupyter kernel). Running code is the person's call:
under the default policy they allow it in JupyterLab unless they granted you the notebook."""

from __future__ import annotations

from pydantic import Field

from ...core.errors import DomainError
from ...ops.context import OpContext
from ...ops.notebook import edit, execute, read
from ..adapter import adapter
from .answers import OutputsAnswer, outputs_answer, pending_note
from .cells import insert
from .target import CELL_ID, Strict, cell_ref

DEFAULT_TIMEOUT = 120  # seconds, the reference's default when timeout is 0
MAX_TIMEOUT = 3600

TIMEOUT = "Maximum seconds to wait for execution (0 = use config default)"
STREAM = "Enable streaming progress (including time indicator) updates for long-running cells"
INTERVAL = "Seconds between progress updates (MCP keepalive + optional stream log)"


def _seconds(timeout: int) -> float:
    return float(DEFAULT_TIMEOUT if timeout <= 0 else min(timeout, MAX_TIMEOUT))


def _pace(progress_interval: int, stream: bool = True) -> dict[str, object]:
    """The reference's progress_interval (0 or less: no periodic updates) and stream (the
    code's streamed text as log messages while it runs) as ``notebook.execute`` takes them."""
    return {"progressEvery": float(min(max(progress_interval, 0), MAX_TIMEOUT)), "logOutputs": stream}


def _timeline(r: execute.ExecuteResult, seconds: float) -> list[str]:
    if r.status == "timeout":
        return [f"[TIMEOUT ERROR: Cell execution exceeded {seconds:g} seconds and was interrupted]"]
    return []


async def _run(ctx: OpContext, kind: str, seconds: float, **fields: object) -> OutputsAnswer:
    r = await execute.execute(ctx, execute.ExecuteParams(timeout=seconds, **fields))
    assert isinstance(r, execute.ExecuteResult)
    answer = outputs_answer(kind, [], r.outputs, cellId=r.cellId)
    answer.outputs += _timeline(r, seconds)
    answer.result, answer.count = answer.outputs, len(answer.outputs)
    return answer


class ExecuteCellParams(Strict):
    cell_index: int | None = Field(
        None, ge=0, description="Index of the cell to execute (0-based). Omit when passing cell_id."
    )
    timeout: int = Field(0, description=TIMEOUT)
    stream: bool = Field(True, description=STREAM)
    progress_interval: int = Field(5, description=INTERVAL)
    cell_id: str | None = CELL_ID


@adapter(execute.execute, title="Execute Cell")
async def execute_cell(ctx: OpContext, params: ExecuteCellParams) -> OutputsAnswer:
    """Execute a cell from the currently activated notebook with timeout and return it's outputs.
    The person allows it in JupyterLab first unless they granted you the notebook; a cell with a
    pending suggestion runs once they decided."""
    seconds = _seconds(params.timeout)
    pace = _pace(params.progress_interval, params.stream)
    return await _run(ctx, "cell.execute", seconds, cell=cell_ref(params.cell_index, params.cell_id), **pace)


class InsertExecuteParams(Strict):
    cell_index: int = Field(ge=-1, description="Index of the cell to insert and execute (0-based)")
    cell_source: str = Field(description="Code source for the cell")
    timeout: int = Field(0, description=TIMEOUT)
    stream: bool = Field(True, description=STREAM)
    progress_interval: int = Field(5, description=INTERVAL)


@adapter(edit.edit, read.read, execute.execute, title="Insert and Execute Code Cell")
async def insert_execute_code_cell(ctx: OpContext, params: InsertExecuteParams) -> OutputsAnswer:
    """Insert a cell at specified index from the currently activated notebook and then execute it with timeout
    and return it's outputs. It is a shortcut tool for insert_cell and execute_cell tools. Under the default
    policy the new cell is a suggestion: it runs once the person accepted it (execute_cell then)."""
    r, at = await insert(ctx, None, params.cell_index, "code", params.cell_source)
    if not r.applied:
        note = pending_note(r, f"Cell insertion at index {at} (code)")
        text = f"{note} It was not executed: run it with execute_cell (cell_id={r.cellId!r}) once accepted."
        return OutputsAnswer(
            kind="cell.insert_execute",
            result=[text],
            outputs=[text],
            count=1,
            cellId=r.cellId,
            applied=False,
            pending=True,
            suggestionIds=r.suggestionIds or [],
        )
    pace = _pace(params.progress_interval, params.stream)
    answer = await _run(ctx, "cell.insert_execute", _seconds(params.timeout), cell=r.cellId, **pace)
    answer.applied, answer.pending = True, False
    return answer


class ExecuteCodeParams(Strict):
    code: str = Field(description="Code to execute (supports magic commands with %, shell commands with !)")
    timeout: int = Field(30, description=TIMEOUT)
    kernel_id: str | None = Field(
        None,
        description="The kernel must be the current notebook's (code runs in the kernel of its Jupyter session). "
        "If omitted, uses the current notebook's kernel.",
    )
    progress_interval: int = Field(
        5, description="Seconds between MCP progress keepalive updates during long-running execution"
    )


@adapter(execute.execute, execute.kernel, title="Execute Code")
async def execute_code(ctx: OpContext, params: ExecuteCodeParams) -> OutputsAnswer:
    """Execute code directly in the current notebook's kernel (not saved to notebook).

    Recommended for magic commands (`%timeit`, `%pip install xxx`), inspecting variables, quick
    calculations and shell commands (`!git xxx`). The person allows it in JupyterLab first unless
    they granted you the notebook."""
    if params.kernel_id is not None:
        listed = await execute.kernel(ctx, execute.KernelParams(kernel="list"))
        assert isinstance(listed, execute.KernelResult)
        mine = await read.read(ctx, read.ReadParams(view="outline"))
        assert isinstance(mine, read.NotebookRead)
        kernel = next((k for k in listed.kernels if k.id == params.kernel_id), None)
        if kernel is None or mine.path not in kernel.paths:
            raise DomainError(
                "NOT_IMPLEMENTED",
                f"kernel {params.kernel_id!r} is not the current notebook's: code runs in the kernel of the "
                "notebook you use (use_notebook), the one JupyterLab shows for it.",
                argument="kernel_id",
            )
    pace = _pace(params.progress_interval)
    return await _run(ctx, "code.execute", _seconds(params.timeout), source=params.code, **pace)
