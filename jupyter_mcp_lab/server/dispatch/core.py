"""The dispatcher: one place where a surface's tool is called, whoever the caller is.

The MCP binding, resources, plain-HTTP routes and any in-process caller hand it a tool
name, the arguments as sent, the ``Caller`` and a ``Reporter`` (how progress and log
messages get back to the caller, if at all). It checks the arguments, refuses a write on a
read-only server, runs the operation, keeps the response within the budget, turns every
failure into the profile's error envelope and records the call in the activity log. It
returns plain JSON values: the transport decides how they travel.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import to_json

from ...core.activity import summarize_arguments
from ...core.activity_text import error_summary, full_arguments, later_summary
from ...core.errors import ArgumentError, DomainError
from ...ops.context import Caller, OpContext, Services
from ...surfaces.base import Surface, SurfaceResource
from .tools import ToolBinding, compile_tool

Summary = str | Callable[[], str]  # an activity entry's answer, or what makes it

log = logging.getLogger(__name__)


async def _no_progress(progress: float, total: float | None, message: str | None) -> None:
    return None


async def _no_log(level: str, message: str) -> None:
    return None


@dataclass(frozen=True)
class Reporter:
    """How an operation reports back while it runs (MCP: progress and log notifications)."""

    progress: Callable[[float, float | None, str | None], Awaitable[None]] = _no_progress
    log: Callable[[str, str], Awaitable[None]] = _no_log
    protocol_version: str | None = None
    ask: Callable[[str, type[BaseModel]], Awaitable[BaseModel | None]] | None = None  # see OpContext.ask
    follows: bool = False  # the caller asked for this call's progress (see OpContext.follows)


SILENT = Reporter()


@dataclass(frozen=True)
class Outcome:
    """A call's answer: the result (``payload``, JSON-ready) or the profile's rendering of an
    error envelope (``is_error``); ``text`` is the payload as JSON, for transports that send text."""

    payload: Any
    is_error: bool = False
    text: str | None = None


def default_render(envelope: dict[str, Any]) -> dict[str, Any]:
    return envelope


class Dispatcher:
    """A surface's tools and resources, callable from any transport."""

    def __init__(self, surface: Surface, services: Services) -> None:
        self.surface = surface
        self.services = services
        self._tools: dict[str, ToolBinding] | None = None
        self.resources: dict[str, SurfaceResource] = {r.uri: r for r in surface.resources}
        self._render = surface.render_error or default_render
        # The last frozen result, its payload, JSON and (text, log summary): see _encoded.
        self._last: tuple[BaseModel, Any, bytes, tuple[str, Summary] | None] | None = None

    @property
    def tools(self) -> dict[str, ToolBinding]:
        # Compiled on first use: generating a profile's schemas takes a few ms per tool (the
        # vmark profile ~0.3 s), which a server start need not wait for.
        if self._tools is None:
            self._tools = {spec.name: compile_tool(spec, self.surface) for spec in self.surface.tools}
        return self._tools

    def refusal(self, envelope: dict[str, Any]) -> Outcome:
        return Outcome(self._render(envelope), is_error=True)

    async def call(self, tool: str, arguments: dict[str, Any], caller: Caller, reporter: Reporter = SILENT) -> Outcome:
        binding = self.tools.get(tool)
        if binding is None:
            return self.refusal(ArgumentError(f"unknown tool {tool!r}", argument="name").envelope())
        try:
            invocation = binding.bind(arguments)
        except ArgumentError as exc:
            # Refused before anything ran: not an operation call, so not in the activity log.
            return self.refusal(exc.envelope())
        started = time.perf_counter()
        status = "ok"
        answered: Summary = ""  # what the activity log keeps of the answer (see later_summary)
        op = invocation.op
        try:
            if op.mutating and self.services.settings.read_only:
                raise DomainError("READ_ONLY", "This server is read-only: no document can be changed.")
            try:
                # Strict: "12" is not 12, 1 or "yes" not true, 3.0 not 3 (an agent that sends
                # the wrong type learns it, instead of the server guessing).
                params = op.params.model_validate(invocation.fields, strict=True)
            except ValidationError as exc:
                raise _argument_error(exc, invocation.fields, invocation.published) from None
            ctx = OpContext(
                services=self.services,
                caller=caller,
                protocol_version=reporter.protocol_version,
                report_progress=reporter.progress,
                log=reporter.log,
                ask=reporter.ask,
                follows=reporter.follows,
            )
            result = await op(ctx, params)
            payload, encoded = self._encoded(result)
            limit = self.services.settings.max_response_bytes
            size = len(encoded)
            if size > limit:
                raise DomainError(
                    "RESPONSE_TOO_LARGE",
                    f"The result is {size} bytes, over this server's limit of {limit}: "
                    "ask for less (a section, a line range, a page with offset/limit).",
                    bytes=size,
                    limit=limit,
                )
            text, answered = self._texts(result, payload, encoded)
            return Outcome(payload, text=text)
        except DomainError as exc:
            status = exc.code
            envelope = exc.envelope()
            answered = error_summary(envelope)
            return self.refusal(envelope)
        except Exception:
            status = "INTERNAL"
            log.exception("tool %s failed", invocation.label)
            envelope = {
                "error": "INTERNAL",
                "message": f"{invocation.label} failed unexpectedly; the server log has details.",
            }
            answered = error_summary(envelope)
            return self.refusal(envelope)
        finally:
            self.services.activity.record(
                profile=self.surface.name,
                tool=invocation.label,
                client=caller.client_name,
                label=caller.client_label,
                user=caller.username,
                session_id=caller.session_id,
                arguments=summarize_arguments(invocation.arguments),
                full_arguments=full_arguments(invocation.arguments),
                result=answered,
                status=status,
                duration_ms=round((time.perf_counter() - started) * 1000, 3),
            )

    def _encoded(self, result: BaseModel) -> tuple[Any, bytes]:
        """The result's JSON values and their JSON. A frozen result the operation returned
        before (the same object: an operation's per-revision cache, e.g. an outline's
        structure) reuses the last call's, as its value cannot have changed."""
        hit = self._last
        if hit is not None and hit[0] is result:
            return hit[1], hit[2]
        payload = result.model_dump(mode="json", by_alias=True)
        # pydantic's serializer: the same compact JSON as json.dumps(ensure_ascii=False), 7x faster.
        encoded = to_json(payload)
        if result.model_config.get("frozen"):
            self._last = (result, payload, encoded, None)
        return payload, encoded

    def _texts(self, result: BaseModel, payload: Any, encoded: bytes) -> tuple[str, Summary]:
        """The answer's text and the activity log's summary of it (kept with a reused result)."""
        hit = self._last
        if hit is not None and hit[0] is result and hit[3] is not None:
            return hit[3]
        text = encoded.decode()
        answered = later_summary(payload, text)
        # A profile whose reference answers in prose sends that as the text (the JSON stays
        # the structured content).
        texts = (self.surface.text(payload) if self.surface.text else text, answered)
        if hit is not None and hit[0] is result:
            self._last = (result, payload, encoded, texts)
        return texts

    async def read_resource(self, uri: str, caller: Caller, reporter: Reporter = SILENT) -> str:
        """A resource's JSON text for ``caller``; a ``DomainError`` when it cannot be read."""
        resource = self.resources.get(uri)
        if resource is None:
            raise DomainError("NOT_FOUND", f"Unknown resource {uri}")
        ctx = OpContext(services=self.services, caller=caller, protocol_version=reporter.protocol_version)
        return json.dumps(await resource.reader(ctx), ensure_ascii=False)


def _argument_error(exc: ValidationError, given: dict[str, Any], published: dict[str, str]) -> ArgumentError:
    """The first invalid argument, named as the tool publishes it (``published``: the key the
    operation's model validates -> the tool's argument) and as the client sent it (``given``):
    pydantic's location also names union members (``edits.0.insert.at``), which the client
    never wrote, so only the keys and indexes found in the arguments are kept (``edits.0.at``)."""

    def where(loc: tuple[Any, ...]) -> str:
        parts: list[str] = []
        node: Any = given
        for i, part in enumerate(loc):
            key = isinstance(node, dict) and part in node
            index = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
            if key or index:
                node = node[part]
            elif isinstance(node, dict) and i == len(loc) - 1:
                node = None  # a missing or unknown key: named as it is
            else:
                continue  # a union member's label
            parts.append(published.get(part, part) if i == 0 and isinstance(part, str) else str(part))
        return ".".join(parts)

    def got(e: Any) -> str:
        # A wrong type says what came, so "12" for a number reads as the string it was.
        if not e["type"].endswith("_type"):
            return ""
        value = e.get("input")
        kind = {bool: "a boolean", str: "a string", int: "an integer", float: "a number", list: "a list"}.get(
            type(value), "an object" if isinstance(value, dict) else "null" if value is None else type(value).__name__
        )
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, str | bool | int | float) else ""
        if len(shown) > 40:
            shown = shown[:37] + "..."
        return f", got {kind}{' ' + shown if shown else ''}"

    errors = exc.errors()
    msg = "; ".join(f"{where(e['loc']) or 'arguments'}: {e['msg']}{got(e)}" for e in errors)
    return ArgumentError(msg, argument=where(errors[0]["loc"]) or None)
