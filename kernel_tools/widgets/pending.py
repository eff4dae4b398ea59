"""The server's requests (elicitation, sampling) as forms in a widget, answered from there.

Both the tool browser (a call it started may ask the person something) and the inspector
show them. ``PendingForms`` keeps a widget's ``pending`` traitlet in step with
``lab.requests`` (live: it listens) and answers a request from the widget's message, checking
the form with the same rules as a tool's arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..requests import PendingRequest
from .form_values import coerce, defaults, prepare
from .schema_form import SchemaError, form_spec

ANSWERS = ("accept", "decline", "cancel")


def request_json(request: PendingRequest) -> dict[str, Any]:
    """What the widget shows of a request: its JSON, the form spec of its answer, the form's start."""
    data = request.to_json()
    try:
        spec = prepare(form_spec(request.schema))
    except SchemaError as exc:
        spec = {"kind": "json", "object": True, "name": "", "label": "answer", "help": str(exc), "required": True}
        spec.update(nullable=False, actions=None)
    data["spec"] = spec
    data["values"] = defaults(spec)
    return data


class PendingForms:
    """Follows ``lab.requests`` for one widget; ``publish(list)`` gets the pending requests' JSON."""

    def __init__(self, lab: Any, publish: Callable[[list[dict[str, Any]]], None]) -> None:
        self.lab = lab
        self._publish = publish
        self._specs: dict[int, dict[str, Any]] = {}
        self._stop = lab.requests.listen(self._heard)
        self.refresh()

    def _heard(self, what: str, _payload: Any) -> None:
        if what in ("request", "answered"):
            self.refresh()

    def refresh(self) -> None:
        items = [request_json(r) for r in self.lab.pending]
        self._specs = {item["id"]: item["spec"] for item in items}
        self._publish(items)

    def answer(self, request_id: int, action: str, raw: Any = None) -> list[dict[str, str]]:
        """Answer one request: ``accept`` with the form's raw values, or ``decline`` / ``cancel``.

        Returns the form's problems (nothing is sent then); an empty list once answered.
        """
        if action not in ANSWERS:
            raise ValueError(f"an answer is one of {', '.join(ANSWERS)}, not {action!r}")
        request = next((r for r in self.lab.pending if r.id == request_id), None)
        if request is None:
            return [{"path": "", "message": "this request was already answered or withdrawn"}]
        if action != "accept":
            request.respond(action=action)
            return []
        spec = self._specs.get(request_id) or request_json(request)["spec"]
        content, errors = coerce(spec, raw if raw is not None else defaults(spec))
        if errors:
            return errors
        if request.kind == "sampling":
            request.respond(str((content or {}).get("text", "")))
        else:
            request.respond(content if isinstance(content, dict) else {})
        return []

    def close(self) -> None:
        self._stop()
