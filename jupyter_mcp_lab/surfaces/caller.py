"""Who is calling: built from the SDK's request context and what the host put in the scope.

The Jupyter handler stores the authenticated user in the ASGI scope under ``jupyter_user``
(with ``key``, the agent key's name, when one opened the session); standalone servers act
for the local user. The MCP client names itself in ``initialize``: with a key, that name is
only a label, and the key's name is who is calling.
"""

from __future__ import annotations

import getpass
from typing import Any

from mcp.server.context import ServerRequestContext

from ..ops.context import Caller

SCOPE_USER_KEY = "jupyter_user"


def _local_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry in some containers
        return "local"


LOCAL_USER = _local_user()


def caller_from_context(rc: ServerRequestContext[Any, Any], profile: str) -> Caller:
    request: Any = rc.request
    user: dict[str, str] | None = None
    session_id = ""
    origin = None
    if request is not None and hasattr(request, "scope"):
        user = request.scope.get(SCOPE_USER_KEY)
        headers = request.headers
        session_id = headers.get("mcp-session-id", "")
        if "host" in headers:
            # Behind a proxy (JupyterHub) the address the client used is not ours.
            scheme = headers.get("x-forwarded-proto") or request.scope.get("scheme", "http")
            origin = f"{scheme}://{headers['host']}"
    info = rc.session.client_params.client_info if rc.session.client_params else None
    username = user["username"] if user else LOCAL_USER
    reported = info.name if info else "unknown"
    key = (user or {}).get("key")
    if not session_id:
        # stdio (one client per process) and the sessionless 2026 protocol, which has no
        # session to key on: one client program of one person counts as one agent, one key
        # as one agent ("key:" cannot begin a name@user id: key names have no "@").
        session_id = f"key:{key}" if key else f"{reported}@{username}"
    return Caller(
        username=username,
        display_name=(user or {}).get("display_name") or username,
        client_name=key or reported,
        client_version=info.version if info else "",
        session_id=session_id,
        profile=profile,
        origin=origin,
        client_label=reported if key else "",
    )
