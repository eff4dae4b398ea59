"""The base of every REST route: Jupyter auth, JSON in and out, errors mapped in one place.

Every answer is a response model (``models``), serialised by ``reply``; each handler names
the model each of its methods answers (``responses``), which the tests hold against the
schema openapi.yaml documents for that route.

Every error body is the domain envelope ``{error: CODE, message, ...details}``, whatever
raised it (a DomainError from the review service, Tornado's HTTPError for auth, routing
and methods, or a bug): the UIs show ``message`` and branch on ``error``. A traceback
only ever goes to the server log, never into a response.
"""

from __future__ import annotations

import json
import os
import re
from http.client import responses
from types import TracebackType
from typing import Any, ClassVar, TypeVar

from jupyter_server.base.handlers import APIHandler
from pydantic import BaseModel, ValidationError
from tornado import web

from ...core.diffs import unified
from ...core.errors import ArgumentError, DomainError
from ...core.paths import resolve_in_root, root_relative, to_api_path
from ...ops.context import Services
from .. import json_input
from ..auth import AuthHandler
from ..endpoints import MCPEndpoints

M = TypeVar("M", bound=BaseModel)

# Domain codes a client can act on, by HTTP status; any other code is a server fault (500).
STATUS_OF_CODE: dict[str, int] = {
    "INVALID_ARGUMENT": 400,
    "INVALID_PATH": 400,
    "INVALID_PATCH": 400,
    "APPROVAL_REQUIRED": 403,
    "READ_ONLY": 403,
    "NOT_FOUND": 404,
    "CONFLICT": 409,
    "STALE": 409,
}
# Tornado/Jupyter HTTP errors get a code in the same style as the domain ones.
CODE_OF_STATUS: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
}
INTEGER = re.compile(r"-?[0-9]{1,18}")
# Query arguments Jupyter itself reads on any request (token auth, XSRF, activity tracking).
JUPYTER_QUERY = frozenset({"token", "_xsrf", "no_track_activity"})


def status_of(exc: BaseException) -> int:
    if isinstance(exc, web.HTTPError):
        return exc.status_code
    if isinstance(exc, DomainError):
        return STATUS_OF_CODE.get(exc.code, 500)
    return 500


class ApiHandler(AuthHandler, APIHandler):
    """Jupyter-authenticated JSON route below ``{base_url}mcp-lab/api/``."""

    # Suggestions, checkpoints and grants are about workspace documents: Jupyter's authorizer
    # decides with the "contents" resource (read for GET, write for POST/DELETE).
    auth_resource = "contents"
    # The query arguments each method reads; any other is refused (a misspelled filter
    # silently ignored would answer the wrong question).
    query_args: ClassVar[dict[str, frozenset[str]]] = {}
    # The model each method answers on success (openapi.yaml documents the same one).
    responses: ClassVar[dict[str, type[BaseModel]]] = {}

    def initialize(self, services: Services, endpoints: MCPEndpoints) -> None:
        self.services = services
        self.mcp = endpoints

    # ------------------------------------------------------------------ auth

    async def prepare(self) -> None:  # type: ignore[override]
        self.refuse_agent_keys()  # the person's routes: an agent key is refused whatever else comes with it
        await self.authenticate()
        handler = getattr(self, (self.request.method or "").lower(), None)
        if getattr(handler, "__allow_unauthenticated", False):
            return  # Jupyter's CORS preflight (OPTIONS): no credentials by design, reads nothing
        # Jupyter answers a missing or wrong token with 403 (APIs get no login redirect), or
        # leaves it to @web.authenticated when unauthenticated access is allowed; the UIs and
        # scripts need to tell "who are you?" (401) from "not allowed" (403).
        if self.current_user is None:
            self.refuse_hub_outsider()
            raise web.HTTPError(401, "A Jupyter token is required: send 'Authorization: token <token>'.")
        known = self.query_args.get(self.request.method or "", frozenset()) | JUPYTER_QUERY
        # JupyterLab's ServerConnection busts caches with a bare "?<milliseconds>" on GETs.
        unknown = sorted(a for a in set(self.request.query_arguments) - known if not _cache_buster(self, a))
        if unknown:
            raise ArgumentError(f"unknown query argument {unknown[0]!r}", unknown[0])

    def decider(self) -> str:
        """Who decides: the Jupyter user making the request (see ``AuthHandler.person``)."""
        return self.person()[0]

    # ------------------------------------------------------------------ errors

    def send_error(self, status_code: int = 500, **kwargs: Any) -> None:
        exc_info = kwargs.get("exc_info")
        if exc_info and isinstance(exc_info[1], DomainError):
            status_code = status_of(exc_info[1])
        super().send_error(status_code, **kwargs)

    def log_exception(
        self, typ: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        # A domain error a client caused is an answer, not a failure: Jupyter's request log
        # already records the 4xx. Anything that maps to 500 is logged with its traceback.
        if isinstance(value, DomainError) and status_of(value) < 500:
            self.log.debug("mcp-lab api %s: %s %s", self.request.path, value.code, value.message)
            return
        super().log_exception(typ, value, tb)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = (kwargs.get("exc_info") or (None, None, None))[1]
        if isinstance(exc, DomainError) and status_code < 500:
            body = exc.envelope()
        elif isinstance(exc, DomainError):
            body = {"error": "INTERNAL", "message": exc.message, "cause": exc.code}
        elif isinstance(exc, web.HTTPError) or exc is None:
            message = (exc.log_message if exc is not None else None) or responses.get(status_code, "Error")
            if exc is not None and exc.args:
                message = message % exc.args
            code = CODE_OF_STATUS.get(status_code, "INTERNAL" if status_code >= 500 else "HTTP_ERROR")
            body = {"error": code, "message": message}
        else:
            body = {"error": "INTERNAL", "message": "The server failed unexpectedly; its log has the details."}
        if status_code == 401:
            self.set_header("WWW-Authenticate", 'token realm="jupyter"')
        if status_code == 405:
            # RFC 9110: a 405 names the methods the resource has.
            self.set_header("Allow", ", ".join(self.allowed_methods()))
        self.finish(json.dumps(body, default=str))

    @classmethod
    def allowed_methods(cls) -> list[str]:
        unimplemented = web.RequestHandler._unimplemented_method
        return [m for m in cls.SUPPORTED_METHODS if getattr(cls, m.lower(), None) is not unimplemented]

    # ------------------------------------------------------------------ input

    def json_body(self, model: type[M]) -> M:
        """The request's JSON body as ``model``; 400 naming the argument otherwise."""
        try:
            data = json_input.loads(self.request.body or b"null")
        except json_input.JSONInputError as exc:
            raise ArgumentError(f"the request body is {exc}", "body") from None
        if not isinstance(data, dict):
            raise ArgumentError("the request body must be a JSON object", "body")
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            msg = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors())
            raise ArgumentError(msg, where) from None

    def query(self, name: str) -> str | None:
        """One query argument, or None; repeating it is an error, not a silent pick."""
        values = self.get_query_arguments(name, strip=False)
        if len(values) > 1:
            raise ArgumentError(f"{name} is given {len(values)} times", name)
        return values[0] if values else None

    def query_int(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.query(name)
        if raw is None:
            return default
        if not INTEGER.fullmatch(raw) or not low <= int(raw) <= high:
            raise ArgumentError(f"{name} must be an integer from {low} to {high}, not {raw!r}", name)
        return int(raw)

    def query_bool(self, name: str) -> bool | None:
        raw = self.query_choice(name, ("true", "false"), "")
        return None if raw == "" else raw == "true"

    def query_choice(self, name: str, choices: tuple[str, ...], default: str) -> str:
        raw = self.query(name)
        if raw is None:
            return default
        if raw not in choices:
            raise ArgumentError(f"{name} must be one of {', '.join(choices)}, not {raw!r}", name)
        return raw

    def query_path(self, name: str = "path") -> str | None:
        raw = self.query(name)
        if raw is None:
            return None
        if not raw:
            raise ArgumentError(f"{name} must not be empty (leave it out for every document)", name)
        return self.document_key(raw)

    def document_key(self, path: str) -> str:
        """The store's key for a document path, as Jupyter's contents API spells paths.

        A leading "/" is root-relative (Jupyter's convention). A path that cannot name a
        workspace file is kept as it is: used as a filter it simply matches nothing. One that
        names a link leaving the root is refused (INVALID_PATH), as the tools refuse it: a
        located list would otherwise read, and hash, the file outside.
        """
        root = self.services.settings.root_dir
        try:
            return to_api_path(root, path, leading_slash="root")
        except DomainError:
            key = root_relative(path)
        if key and "\0" not in key and not os.path.normpath(key).startswith(".."):
            resolve_in_root(root, key)  # inside the root by name, outside by a link: refused
        return key

    # ------------------------------------------------------------------ output

    def reply(self, body: BaseModel, status: int = 200) -> None:
        """Answer ``body``, which must be the model this method documents."""
        expected = self.responses.get(self.request.method or "")
        if type(body) is not expected:
            raise TypeError(f"{type(self).__name__} answers {self.request.method} with {expected}, not {type(body)}")
        self.set_status(status)
        # json.dumps, not pydantic's JSON: it escapes what UTF-8 cannot carry (a lone
        # surrogate an agent sent in its arguments) instead of failing on it.
        self.finish(json.dumps(body.model_dump(mode="json")))

    def refuse_if_read_only(self) -> None:
        if self.services.settings.read_only:
            raise DomainError("READ_ONLY", "This server is read-only: no document can be changed.")


def unified_diff(before: str, after: str, name: str) -> str:
    """The diff the panel renders: 3 lines of context, cut past 100,000 characters."""
    return unified(before, after, name, context=3, limit=100_000)


def _cache_buster(handler: web.RequestHandler, name: str) -> bool:
    return name.isdigit() and handler.request.query_arguments[name] in ([b""], [])
