"""The reference's answer shapes: ``{kind, result, …}`` as structured content, the result's
prose (a message, a TSV table, outputs in order) as the text; and its errors as text.

Where the reference says a change is done, an answer here says whether it was applied or
waits for the person's review (``applied``, ``pending``, ``suggestionIds``).
"""

from __future__ import annotations

from typing import Any

from mcp import types
from pydantic import BaseModel, Field

from ...ops.notebook.edit import NotebookEditResult
from ...ops.notebook.outputs import OutputView


class Answer(BaseModel):
    kind: str = Field(description="What this result is ('cell.read', 'notebooks.list', …).")
    result: Any = Field(None, description="The answer: a message, a table's text, or outputs in order.")


class TableAnswer(Answer):
    columns: list[str] = Field(default_factory=list)
    items: list[dict[str, Any]] = Field(default_factory=list, description="One object per row, keyed by the header.")
    count: int = 0


class EditAnswer(Answer):
    applied: bool = Field(description="The change is in the notebook (else it waits for the person's review).")
    pending: bool = Field(description="The change is a suggestion waiting for the person's decision.")
    suggestionIds: list[str] = Field(default_factory=list)
    cellId: str | None = None
    cellIds: list[str] | None = None
    revision: str | None = None


class OutputsAnswer(Answer):
    outputs: list[Any] = Field(default_factory=list, description="Text as text, an image as a resource reference.")
    count: int = 0
    images: int = 0
    cellId: str | None = None
    applied: bool | None = None
    pending: bool | None = None
    suggestionIds: list[str] = Field(default_factory=list)


def tsv(headers: list[str], rows: list[list[Any]]) -> str:
    if not headers or not rows:
        return "No data to display"
    return "\n".join(["\t".join(headers), *("\t".join(str(c) for c in row) for row in rows)])


def table(kind: str, headers: list[str], rows: list[list[Any]], prefix: str = "") -> TableAnswer:
    items = [dict(zip(headers, (str(c) for c in row), strict=True)) for row in rows]
    return TableAnswer(kind=kind, result=prefix + tsv(headers, rows), columns=headers, items=items, count=len(items))


def output_entries(outs: list[OutputView]) -> list[Any]:
    """Outputs as the reference lists them: text as text, an image as its own object (here a
    resource to fetch, never inline base64), other rich data by its MIME keys."""
    entries: list[Any] = []
    for o in outs:
        images = [r for r in o.resources if r.mimeType.startswith("image/")]
        if images:
            entries.extend({"type": "image", "mimeType": r.mimeType, "uri": r.uri, "size": r.size} for r in images)
        elif o.text:
            entries.append(o.text)
        elif o.resources:
            mimes = [r.mimeType for r in o.resources]
            entries.append("[HTML Output]" if "text/html" in mimes else f"[{o.type} Data: keys={mimes}]")
    return entries


def outputs_answer(kind: str, head: list[str], outs: list[OutputView], **fields: Any) -> OutputsAnswer:
    entries = [*head, *output_entries(outs)]
    images = sum(1 for e in entries if isinstance(e, dict))
    return OutputsAnswer(kind=kind, result=entries, outputs=entries, count=len(entries), images=images, **fields)


def pending_note(r: NotebookEditResult, what: str) -> str:
    """What the agent must learn when its change was staged rather than made."""
    ids = ", ".join(r.suggestionIds or [])
    return (
        f"{what} is a suggestion ({ids}) waiting for the person's review in JupyterLab: NOT applied yet. "
        "The notebook is unchanged until they accept it; cell indexes stay as they are."
    )


def edit_answer(
    kind: str, r: NotebookEditResult, done: str, what: str, detail: str = "", sep: str = "\n\n"
) -> EditAnswer:
    pending = r.mode == "suggest" and bool(r.suggestionIds)
    if pending:
        text = pending_note(r, what)
    elif not r.changed:
        text = f"{done} - no changes detected"
    else:
        text = done + ("!" if not done.endswith((".", "!")) else "")
    return EditAnswer(
        kind=kind,
        result=text + (sep + detail if detail else ""),
        applied=r.applied,
        pending=pending,
        suggestionIds=r.suggestionIds or [],
        cellId=r.cellId,
        revision=r.revision,
    )


def _line(entry: Any) -> str:
    if isinstance(entry, dict):
        return f"[Image Output ({entry.get('mimeType')}): {entry.get('uri')}]"
    return str(entry)


def text_of(payload: Any) -> str:
    """The text content of an answer: its result as the reference words it."""
    result = payload.get("result") if isinstance(payload, dict) else payload
    if isinstance(result, list):
        return "\n".join(_line(e) for e in result)
    return str(result)


JUPYTER_CODE = "jupyter_message"  # an envelope detail: the message in the reference's words
_NO_NOTEBOOK = "No active notebook. Use the use_notebook tool to activate a notebook first."


def render_error(envelope: dict[str, Any]) -> types.CallToolResult:
    """An error as the reference's clients read it (a text), with the envelope as data."""
    code = envelope.get("error")
    message = envelope.get(JUPYTER_CODE) or envelope.get("message", "")
    if code == "INVALID_TAB" or (code == "INVALID_ARGUMENT" and "kind" in envelope):
        message = _NO_NOTEBOOK
    data = {k: v for k, v in envelope.items() if k != JUPYTER_CODE}
    text = f"Error: {message}" + (f" ({code})" if code else "")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=data, is_error=True
    )
