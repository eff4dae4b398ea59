"""What a single-user server spawned by JupyterHub knows about its Hub.

A Hub starts each person's server with its own variables: the prefix the proxy routes to it
(``JUPYTERHUB_SERVICE_PREFIX``, ``/user/<name>/``), the address it listens on inside
(``JUPYTERHUB_SERVICE_URL``) and, when the operator configured ``JupyterHub.public_url``,
the address people and agents reach it at (``JUPYTERHUB_PUBLIC_URL``). The loopback address
Jupyter prints is useless to an agent outside the Hub; the public one is what configs carry.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

SERVICE_PREFIX = "JUPYTERHUB_SERVICE_PREFIX"
PUBLIC_URL = "JUPYTERHUB_PUBLIC_URL"


def prefix(env: Mapping[str, str] | None = None) -> str | None:
    """This server's prefix on its Hub (``/user/ann/``), or None off a Hub."""
    env = os.environ if env is None else env
    value = env.get(SERVICE_PREFIX, "")
    return value if value.startswith("/") else None


def public_origin(env: Mapping[str, str] | None = None) -> str | None:
    """``scheme://host[:port]`` people reach this server at through the Hub, when the Hub says
    (``JupyterHub.public_url``); None off a Hub or when the Hub does not know its address."""
    env = os.environ if env is None else env
    if prefix(env) is None:
        return None
    url = urlsplit(env.get(PUBLIC_URL, ""))
    if url.scheme not in ("http", "https") or not url.netloc:
        return None
    return f"{url.scheme}://{url.netloc}"


def refused_hub_user(handler: Any) -> str | None:
    """Whom the Hub recognised in this request but refused this server to ("user 'bob'"), or None.

    JupyterHub's identity provider answers "no user" both for an unknown credential and for
    a valid one of someone without access to this server (another user's token, a token
    without ``access:servers`` on it); its HubAuth leaves the model it looked up on the
    handler (``_cached_hub_user``), which tells the second case from the first.
    """
    if handler.current_user is not None:
        return None
    model = getattr(handler, "_cached_hub_user", None)
    if not isinstance(model, dict) or not model.get("name"):
        return None
    return f"{model.get('kind') or 'user'} {model['name']!r}"


def stop_on_sigint(serverapp: Any) -> bool:
    """On a Hub, let SIGINT stop the server the way SIGTERM does; whether it was arranged.

    JupyterHub's local-process spawners stop a server with SIGINT (SIGTERM 10 s later, then
    SIGKILL). Jupyter without a terminal takes SIGINT as a KeyboardInterrupt: its loop stops
    where it is and no extension's stop runs, so the MCP session manager's task never ends,
    and the worker threads anyio started for its tool calls (file reads) wait for that task:
    the process hangs until SIGKILL, with stores unflushed. Jupyter's own stop runs every
    extension's stop, then ends the loop. A handler someone chose (Jupyter's confirmation on a
    terminal) is left alone.
    """
    if prefix() is None or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False

    def stop(signum: int, frame: Any) -> None:
        serverapp.log.info("jupyter-mcp-lab: SIGINT from JupyterHub: stopping the server and its extensions")
        serverapp.stop(from_signal=True)

    signal.signal(signal.SIGINT, stop)
    return True
