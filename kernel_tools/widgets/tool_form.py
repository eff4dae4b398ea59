"""``ToolBrowser``: a server's tools as forms generated from their JSON Schemas, calls, history.

The browser holds the raw form values (``values``, see ``form_values``) and sends
``{"do": "call"}`` when the person presses Call; everything else (argument coercion,
validation, the call, the result's HTML, the code to copy) happens here, so the model is
tested without a browser through the same traitlets and messages. Calls run with
``lab.start`` and never block the kernel: ``status`` is ``running`` until the result arrives.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import time
from typing import Any

import anywidget
import traitlets as t
from mcp_types import Tool

from ..progress import ProgressBar
from ..results import ToolResult
from .base import Tasks, css, error_text, esm, lab_name, static
from .codegen import call_code
from .form_values import FormInvalid, check, coerce, defaults, to_raw
from .inspect_data import tool_json
from .pending import PendingForms
from .schema_form import Spec

HISTORY_LIMIT = 50


class _Progress(ProgressBar):
    """The SDK's progress callback, shown in the widget instead of a bar in some cell."""

    def __init__(self, widget: ToolBrowser, label: str) -> None:
        super().__init__(label)
        self.widget = widget

    def _show(self, progress: float, total: float | None, message: str | None) -> None:
        self.widget.progress = {"progress": progress, "total": total, "message": message or ""}

    def close(self) -> None:
        pass


class ToolBrowser(anywidget.AnyWidget):
    """The tools of ``lab``'s server; ``tool=`` opens one of them (``lab.form("document")``)."""

    _esm = esm("loader.js", "tool_form.js")
    _css = css("common.css", "form.css", "tool_form.css")
    _form_js = t.Unicode(static("form.js").read_text(encoding="utf-8")).tag(sync=True)

    tools = t.List(t.Dict()).tag(sync=True)
    selected = t.Unicode("").tag(sync=True)
    values = t.Any({}).tag(sync=True)  # the raw form values of the selected tool
    errors = t.List(t.Dict()).tag(sync=True)  # [{path, message}] of the last Call pressed
    code = t.Unicode("").tag(sync=True)  # the form as code, as the person would type it
    status = t.Unicode("idle").tag(sync=True)  # idle | running | done | error (of the last call)
    loading = t.Bool(False).tag(sync=True)  # the tool list is being fetched again
    progress = t.Dict().tag(sync=True)
    result = t.Dict().tag(sync=True)  # {tool, ok, html, code, message, elapsed, python}
    history = t.List(t.Dict()).tag(sync=True)  # newest first
    pending = t.List(t.Dict()).tag(sync=True)  # the server's requests waiting for the person
    pending_errors = t.Dict().tag(sync=True)
    compact = t.Bool(False).tag(sync=True)  # opened on one tool: the list folds away
    notice = t.Unicode("").tag(sync=True)

    def __init__(self, lab: Any, tool: str | None = None, *, show_pending: bool = True, **kwargs: Any) -> None:
        super().__init__(compact=tool is not None, **kwargs)
        self.lab = lab
        self.tasks = Tasks(on_error=self._failed)
        self._ids = itertools.count(1)
        self._specs: dict[str, Spec] = {}
        self._load(lab.tools())
        if tool is not None:
            if tool not in self._specs:
                raise ValueError(f"no tool {tool!r}; tools: {', '.join(self._specs)}")
            self.selected = tool
        self._pending = PendingForms(lab, self._set_pending) if show_pending else None
        self._stop_listening = lab.requests.listen(self._heard)
        self.on_msg(self._on_msg)

    # --- tools and the form ------------------------------------------------------------

    def _load(self, tools: list[Tool]) -> None:
        listed = [tool_json(tool) for tool in tools]
        self._specs = {item["name"]: item["spec"] for item in listed}
        self.tools = listed
        if self.selected and self.selected not in self._specs:
            self.selected = ""

    def refresh(self) -> None:
        """List the server's tools again (in the background)."""
        self.loading = True
        self.tasks.run(lambda: self.lab.tools(refresh=True), self._reloaded)

    def _heard(self, what: str, entry: Any) -> None:
        if what == "log" and entry.get("method") == "notifications/tools/list_changed":
            self.refresh()  # the server says its tools changed: list them again

    def _reloaded(self, tools: list[Tool]) -> None:
        self._load(tools)
        self.loading = False

    @property
    def spec(self) -> Spec | None:
        """The form spec of the selected tool."""
        return self._specs.get(self.selected)

    @t.observe("selected")
    def _selected(self, change: dict[str, Any]) -> None:
        spec = self.spec
        self.errors = []
        self.values = defaults(spec) if spec else {}
        self._update_code()

    @t.observe("values")
    def _values(self, change: dict[str, Any]) -> None:
        self._update_code()

    def _update_code(self) -> None:
        spec = self.spec
        if spec is None:
            self.code = ""
            return
        args, _ = coerce(spec, self.values)
        self.code = call_code(self.selected, args if isinstance(args, dict) else {}, lab_name(self.lab))

    def arguments(self) -> dict[str, Any]:
        """The selected tool's arguments from the form; ``FormInvalid`` names what is wrong."""
        spec = self.spec
        if spec is None:
            raise FormInvalid([{"path": "", "message": "choose a tool first"}])
        value, errors = coerce(spec, self.values)
        if errors:
            raise FormInvalid(errors)
        return value if isinstance(value, dict) else {}

    # --- calls ---------------------------------------------------------------------------

    def submit(self) -> concurrent.futures.Future[Any] | None:
        """The Call button: check the form, then call (in the background); ``None`` if invalid."""
        try:
            args = self.arguments()
        except FormInvalid as exc:
            self.errors = exc.errors
            self.status = "idle"
            return None
        return self.call(self.selected, args)

    def call(self, tool: str, arguments: dict[str, Any]) -> concurrent.futures.Future[Any]:
        """Call ``tool`` without waiting; the result, the history and ``status`` follow."""
        problems = check(self._specs[tool], arguments) if tool in self._specs else []
        if problems:
            raise FormInvalid(problems)
        self.errors = []
        self.status, self.progress = "running", {}
        started = time.monotonic()
        future = self.lab.start(tool, arguments, progress=_Progress(self, tool))
        return self.tasks.after(future, lambda f: self._finished(tool, arguments, f, time.monotonic() - started))

    def _finished(self, tool: str, args: dict[str, Any], future: concurrent.futures.Future[Any], took: float) -> None:
        python = call_code(tool, args, lab_name(self.lab))
        entry: dict[str, Any] = {"tool": tool, "arguments": args, "python": python, "elapsed": round(took, 3)}
        try:
            result: ToolResult = future.result()
        except BaseException as exc:  # the session failed, the tool is unknown, …
            entry.update(ok=False, code="CLIENT_ERROR", message=error_text(exc), html="")
        else:
            entry.update(ok=not result.is_error, html=result._repr_html_())
            if result.is_error:
                code = result.get("error")
                entry.update(code=code if isinstance(code, str) else "TOOL_ERROR")
                entry.update(message=str(result.get("message") or result.text or "the tool failed"))
        entry.update(id=next(self._ids), time=time.time())
        self.result = entry
        summary = {k: v for k, v in entry.items() if k != "html"}
        self.history = [summary, *self.history][:HISTORY_LIMIT]
        self.status = "done" if entry["ok"] else "error"

    def replay(self, entry_id: int) -> concurrent.futures.Future[Any] | None:
        """Re-fill the form from a history entry and call again."""
        entry = next((e for e in self.history if e["id"] == entry_id), None)
        if entry is None:
            self.notice = f"no history entry {entry_id}"
            return None
        self.fill(entry["tool"], entry["arguments"])
        return self.submit()

    def fill(self, tool: str, arguments: dict[str, Any]) -> None:
        """Show ``tool``'s form filled with ``arguments``."""
        if tool not in self._specs:
            raise ValueError(f"no tool {tool!r}")
        self.selected = tool
        self.values = to_raw(self._specs[tool], arguments)

    def wait(self, timeout: float = 60) -> bool:
        """Wait until the calls started from the widget are done (for cells and tests)."""
        return self.tasks.wait(timeout)

    # --- the browser's messages -------------------------------------------------------------

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        action = content.get("do")
        if action == "call":
            if isinstance(content.get("values"), dict):
                self.values = content["values"]  # the form as the person left it (see tool_form.js)
            self.submit()
        elif action == "replay":
            self.replay(int(content["id"]))
        elif action == "refresh":
            self.refresh()
        elif action == "answer" and self._pending is not None:
            self.answer(int(content["id"]), str(content["action"]), content.get("values"))

    def answer(self, request_id: int, action: str, values: Any = None) -> None:
        """Answer a pending request of the server (what its form's buttons do)."""
        assert self._pending is not None
        errors = self._pending.answer(request_id, action, values)
        self.pending_errors = {**self.pending_errors, str(request_id): errors} if errors else {}

    def _set_pending(self, items: list[dict[str, Any]]) -> None:
        self.pending = items

    def _failed(self, trace: str) -> None:
        self.notice = trace
        self.status, self.loading = "error", False

    def close(self) -> None:
        self._stop_listening()
        if self._pending is not None:
            self._pending.close()
        super().close()
