"""The person's own decisions in the activity log, beside the agents' tool calls.

A route that decides (accept, reject, undo a reject, revert, grant, revoke) is marked
``@person_decision("suggestion.{action}")`` (the name formatted with the route's path
parameters): when it has answered, the log gets an entry with
``actor="person"``, the person's name as client and user, the route's arguments (its path
parameters and JSON body) and what it answered, or the error it refused with. The lab
bridge records the person's Allow and Deny the same way (``record_person``).
"""

from __future__ import annotations

import functools
import inspect
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from tornado import web

from ...core.activity import ActivityLog, summarize_arguments
from ...core.activity_text import error_summary, full_arguments, result_summary
from ...core.errors import DomainError
from .. import json_input

H = TypeVar("H", bound=web.RequestHandler)
Method = Callable[..., Awaitable[None] | None]


def record_person(
    log: ActivityLog,
    tool: str,
    user: str,
    name: str,
    arguments: dict[str, Any],
    *,
    status: str = "ok",
    answer: dict[str, Any] | None = None,
    duration_ms: float = 0.0,
) -> None:
    """One decision of the person ``user`` (shown as ``name``) in the activity log."""
    log.record(
        profile="",
        tool=tool,
        client=name,
        user=user,
        session_id="",
        arguments=summarize_arguments(arguments),
        status=status,
        duration_ms=round(duration_ms, 3),
        actor="person",
        full_arguments=full_arguments(arguments),
        result=_answered(answer, status),
    )


def _answered(answer: dict[str, Any] | None, status: str) -> str:
    if answer is None:
        return ""
    if status != "ok":
        return error_summary(answer)
    return result_summary(answer, json.dumps(answer, ensure_ascii=False, separators=(", ", ": ")))


def _body(handler: web.RequestHandler) -> dict[str, Any]:
    """The request's JSON object body, for the log (the route itself validates it)."""
    try:
        data = json_input.loads(handler.request.body or b"null")
    except json_input.JSONInputError:  # not JSON, or nested too deeply: the route refuses it
        return {}
    return data if isinstance(data, dict) else {}


def person_decision(tool: str) -> Callable[[Method], Callable[..., Awaitable[None]]]:
    """Record the decorated route's decision in the activity log once it has answered."""

    def decorate(method: Method) -> Callable[..., Awaitable[None]]:
        @functools.wraps(method)
        async def run(self: Any, *args: Any, **kwargs: Any) -> None:
            started = time.perf_counter()
            answered: dict[str, Any] = {}
            reply = self.reply

            def capture(body: BaseModel, status: int = 200) -> None:
                answered.update(body.model_dump(mode="json"))
                reply(body, status)

            self.reply = capture  # this request's handler only
            status, answer = "ok", None
            try:
                result = method(self, *args, **kwargs)
                if inspect.isawaitable(result):
                    await result
                answer = answered
            except DomainError as exc:
                status, answer = exc.code, exc.envelope()
                raise
            except web.HTTPError as exc:
                status = "HTTP_ERROR"
                answer = {"error": status, "message": exc.log_message or str(exc.status_code)}
                raise
            except Exception:
                status, answer = "INTERNAL", {"error": "INTERNAL", "message": "failed unexpectedly"}
                raise
            finally:
                user, name = self.person()
                record_person(
                    self.services.activity,
                    tool.format(**kwargs),
                    user,
                    name,
                    {**kwargs, **_body(self)},
                    status=status,
                    answer=answer,
                    duration_ms=(time.perf_counter() - started) * 1000,
                )

        return run

    return decorate
