"""``Inspector``: the MCP Inspector in a notebook, for any server ``connect()`` reaches.

Server info and capabilities, the roots offered; tabs for Tools (the ``ToolBrowser``, shown
inside), Resources and templates, Prompts, Ping and the Log (server notifications and log
messages, live); and above them the server's pending requests (elicitation, sampling), live
as they arrive, answered from the widget. Every request to the server runs in the background
(``Tasks``); the browser sends ``{"do": ...}`` messages handled here.
"""

from __future__ import annotations

import time
from typing import Any

import anywidget
import traitlets as t
from ipywidgets import widget_serialization

from .base import Tasks, css, error_text, esm, static
from .form_values import coerce
from .inspect_data import (
    contents_json,
    expand,
    log_line,
    messages_json,
    prompt_json,
    resource_json,
    server_json,
    template_json,
)
from .pending import PendingForms
from .tool_form import ToolBrowser

LOG_LIMIT = 300
_LIST_CHANGED = ("notifications/resources/list_changed", "notifications/prompts/list_changed")


class Inspector(anywidget.AnyWidget):
    """Everything a server offers and asks, for ``lab`` (``lab.inspector()``)."""

    _esm = esm("loader.js", "inspector.js")
    _css = css("common.css", "form.css", "tool_form.css", "inspector.css")
    _form_js = t.Unicode(static("form.js").read_text(encoding="utf-8")).tag(sync=True)
    _tool_js = t.Unicode(esm("loader.js", "tool_form.js")).tag(sync=True)

    tools = t.Instance(ToolBrowser).tag(sync=True, **widget_serialization)
    server = t.Dict().tag(sync=True)
    tab = t.Unicode("tools").tag(sync=True)
    resources = t.List(t.Dict()).tag(sync=True)
    templates = t.List(t.Dict()).tag(sync=True)
    resource = t.Dict().tag(sync=True)  # the one read: {uri, contents} or {uri, error}
    prompts = t.List(t.Dict()).tag(sync=True)
    prompt = t.Dict().tag(sync=True)  # the one got: {name, arguments, description, messages} or {error}
    ping = t.Dict().tag(sync=True)  # {ms, time} or {error}
    log = t.List(t.Dict()).tag(sync=True)  # newest last
    pending = t.List(t.Dict()).tag(sync=True)
    pending_errors = t.Dict().tag(sync=True)
    form_errors = t.Dict().tag(sync=True)  # problems of a template's or a prompt's form, by its key
    busy = t.List(t.Unicode()).tag(sync=True)  # sections waiting on the server
    problems = t.Dict().tag(sync=True)  # a section's failure, in one line

    def __init__(self, lab: Any, **kwargs: Any) -> None:
        super().__init__(tools=ToolBrowser(lab, show_pending=False), **kwargs)
        self.lab = lab
        self.tasks = Tasks(on_error=lambda trace: self._problem("widget", trace))
        self.server = server_json(lab)
        self.log = [log_line(e) for e in lab.log][-LOG_LIMIT:]
        self._stop_log = lab.requests.listen(self._heard)
        self._pending = PendingForms(lab, self._set_pending)
        self.on_msg(self._on_msg)
        self.load()

    # --- loading -------------------------------------------------------------------------

    def load(self) -> None:
        """List resources, templates and prompts (what the server says it has), in the background."""
        caps = self.server.get("capabilities", {})
        if "resources" in caps:
            self._job(
                "resources",
                self.lab.resources,
                lambda items: setattr(self, "resources", [resource_json(r) for r in items]),
            )
            self._job("templates", self.lab.resource_templates, self._set_templates)
        if "prompts" in caps:
            self._job(
                "prompts", self.lab.prompts, lambda items: setattr(self, "prompts", [prompt_json(p) for p in items])
            )

    def _set_templates(self, items: list[Any]) -> None:
        self.templates = [template_json(item) for item in items]

    def _job(self, section: str, work: Any, then: Any) -> None:
        self.busy = [*self.busy, section]
        self.problems = {k: v for k, v in self.problems.items() if k != section}

        def run() -> Any:
            try:
                return then(work())
            except Exception as exc:
                self._problem(section, error_text(exc))
            finally:
                self.busy = [b for b in self.busy if b != section]

        self.tasks.run(run)

    def _problem(self, section: str, message: str) -> None:
        self.problems = {**self.problems, section: message}

    # --- what the person asks for -----------------------------------------------------------

    def read(self, uri: str) -> None:
        """Read one resource (shown in the Resources tab)."""
        self.resource = {"uri": uri, "loading": True}
        self._job("resource", lambda: self.lab.read_resource(uri), lambda r: self._show_resource(uri, r))

    def _show_resource(self, uri: str, result: Any) -> None:
        self.resource = {"uri": uri, "contents": contents_json(result)}

    def read_template(self, index: int, values: Any) -> None:
        """Fill template ``index``'s variables from its form and read the resulting URI."""
        template = self.templates[index]
        variables, errors = coerce(template["spec"], values)
        self.form_errors = {**self.form_errors, f"template:{index}": errors}
        if not errors:
            self.read(expand(template["uriTemplate"], variables))

    def get_prompt(self, name: str, values: Any) -> None:
        """Get a prompt with the arguments from its form (messages shown in the Prompts tab)."""
        prompt = next((p for p in self.prompts if p["name"] == name), None)
        if prompt is None:
            self._problem("prompt", f"no prompt {name!r}")
            return
        arguments, errors = coerce(prompt["spec"], values)
        self.form_errors = {**self.form_errors, f"prompt:{name}": errors}
        if errors:
            return
        self.prompt = {"name": name, "arguments": arguments, "loading": True}
        self._job(
            "prompt",
            lambda: self.lab.get_prompt(name, **arguments),
            lambda r: setattr(
                self,
                "prompt",
                {**self.prompt, "loading": False, "description": r.description or "", "messages": messages_json(r)},
            ),
        )

    def do_ping(self) -> None:
        """Ping the server; ``ping`` gets the round trip in milliseconds."""
        self._job(
            "ping",
            self.lab.ping,
            lambda seconds: setattr(self, "ping", {"ms": round(seconds * 1000, 2), "time": time.time()}),
        )

    def answer(self, request_id: int, action: str, values: Any = None) -> None:
        """Answer a pending request of the server (what its form's buttons do)."""
        errors = self._pending.answer(request_id, action, values)
        self.pending_errors = {**self.pending_errors, str(request_id): errors} if errors else {}

    def wait(self, timeout: float = 60) -> bool:
        """Wait for everything started from the widget (and its tool browser) to finish."""
        return self.tasks.wait(timeout) and self.tools.wait(timeout)

    # --- live: the server's log and requests ----------------------------------------------------

    def _heard(self, what: str, payload: Any) -> None:
        if what == "log":
            self.log = [*self.log, log_line(payload)][-LOG_LIMIT:]
            if payload.get("method") in _LIST_CHANGED:
                self.load()  # the server's resources or prompts changed: list them again

    def _set_pending(self, items: list[dict[str, Any]]) -> None:
        self.pending = items

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        action = content.get("do")
        if action == "read":
            self.read(str(content["uri"]))
        elif action == "read_template":
            self.read_template(int(content["index"]), content.get("values"))
        elif action == "get_prompt":
            self.get_prompt(str(content["name"]), content.get("values"))
        elif action == "ping":
            self.do_ping()
        elif action == "answer":
            self.answer(int(content["id"]), str(content["action"]), content.get("values"))
        elif action == "refresh":
            self.server = server_json(self.lab)
            self.load()
            self.tools.refresh()
        elif action == "clear_log":
            self.log = []

    def close(self) -> None:
        self._stop_log()
        self._pending.close()
        self.tools.close()
        super().close()
