"""Which Jupyter server does this kernel belong to? ``find_server()`` answers, and says how.

The order (the first that answers wins):

1. explicit ``url=`` (and ``token=``);
2. the environment: ``JUPYTER_MCP_LAB_URL`` (the server's root URL or its MCP endpoint) and
   ``JUPYTER_MCP_LAB_TOKEN``;
3. JupyterHub's single-user variables, which a Hub gives every kernel:
   ``JUPYTERHUB_API_TOKEN`` with ``JUPYTERHUB_SERVICE_URL`` (or ``JUPYTERHUB_SERVICE_PREFIX``
   on the local server that has that base URL);
4. Jupyter's runtime files (``jpserver-*.json``): the server that started this kernel (its
   pid is the kernel's parent, or ``JPY_PARENT_PID``), else the one whose root directory
   holds the working directory (the deepest), else the only one running.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "JUPYTER_MCP_LAB_URL"
ENV_TOKEN = "JUPYTER_MCP_LAB_TOKEN"
HUB_TOKEN = "JUPYTERHUB_API_TOKEN"
HUB_URL = "JUPYTERHUB_SERVICE_URL"
HUB_PREFIX = "JUPYTERHUB_SERVICE_PREFIX"


class ServerNotFound(LookupError):
    """No Jupyter server was found; ``tried`` lists what was looked at, in order."""

    def __init__(self, tried: list[str]) -> None:
        self.tried = tried
        lines = "\n".join(f"  - {t}" for t in tried)
        super().__init__(
            "No Jupyter server with jupyter-mcp-lab was found. Tried:\n"
            f"{lines}\n"
            f"Pass connect(url=..., token=...), or set {ENV_URL} and {ENV_TOKEN}."
        )


@dataclass(frozen=True)
class ServerInfo:
    """A Jupyter server as a client reaches it."""

    root_url: str  # "http://127.0.0.1:8888/" or ".../user/ann/": ends with "/"
    token: str
    source: str  # how it was found, in words ("explicit url=", "JupyterHub (…)", …)
    root_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def mcp_url(self, profile: str = "lab") -> str:
        return self.root_url + ("mcp" if profile == "lab" else f"mcp-lab/{profile}/mcp")

    @property
    def api_url(self) -> str:
        """The REST + events API of jupyter-mcp-lab (``…/mcp-lab/api/``)."""
        return self.root_url + "mcp-lab/api/"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"} if self.token else {}


def server_root(url: str) -> str:
    """A server's root URL from its root or from one of its MCP endpoints.

    ``…/mcp`` and ``…/mcp-lab/<profile>/mcp`` both give ``…/``.
    """
    parts = urlsplit(url)
    path = re.sub(r"(/mcp-lab/[^/]+)?/mcp/?$", "", parts.path)
    if not path.endswith("/"):
        path += "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _loopback(url: str) -> str:
    """A server listening on all interfaces is reached on loopback from its own kernel."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host in ("0.0.0.0", "::", ""):
        netloc = "127.0.0.1" + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return url


def _running_servers(runtime_dir: str | None) -> list[dict[str, Any]]:
    from jupyter_server.serverapp import list_running_servers

    return list(list_running_servers(runtime_dir))


def _from_hub(env: Mapping[str, str], servers: Iterable[dict[str, Any]]) -> ServerInfo | None:
    token = env.get(HUB_TOKEN)
    if not token:
        return None
    if env.get(HUB_URL):
        return ServerInfo(server_root(_loopback(env[HUB_URL])), token, f"JupyterHub ({HUB_URL}, {HUB_TOKEN})")
    prefix = env.get(HUB_PREFIX)
    if prefix:
        wanted = ("/" + prefix.strip("/") + "/").replace("//", "/")
        for info in servers:
            if info.get("base_url") == wanted:
                return ServerInfo(
                    server_root(_loopback(info["url"])),
                    token,
                    f"JupyterHub ({HUB_PREFIX}={wanted} on the local server, {HUB_TOKEN})",
                    info.get("root_dir"),
                    info,
                )
    return None


def _contains(root: str, cwd: Path) -> bool:
    try:
        cwd.resolve().relative_to(Path(root).resolve())
        return True
    except (ValueError, OSError):
        return False


def _from_runtime(servers: list[dict[str, Any]], env: Mapping[str, str], cwd: Path) -> ServerInfo | None:
    def info_of(info: dict[str, Any], why: str) -> ServerInfo:
        return ServerInfo(server_root(_loopback(info["url"])), info.get("token", ""), why, info.get("root_dir"), info)

    parents = {os.getppid()}
    if env.get("JPY_PARENT_PID", "").isdigit():
        parents.add(int(env["JPY_PARENT_PID"]))
    for info in servers:
        if info.get("pid") in parents:
            return info_of(info, f"Jupyter runtime file of the server that started this kernel (pid {info['pid']})")
    holding = [s for s in servers if s.get("root_dir") and _contains(s["root_dir"], cwd)]
    if holding:
        best = max(holding, key=lambda s: len(str(Path(s["root_dir"]).resolve())))
        return info_of(best, f"Jupyter runtime file of the server whose root holds {cwd}")
    if len(servers) == 1:
        return info_of(servers[0], "Jupyter runtime file of the only running server")
    return None


def find_server(
    url: str | None = None,
    token: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    runtime_dir: str | None = None,
    cwd: str | Path | None = None,
) -> ServerInfo:
    """The Jupyter server to talk to (see the module docstring for the order)."""
    env = os.environ if env is None else env
    if url:
        return ServerInfo(server_root(url), token if token is not None else env.get(ENV_TOKEN, ""), "explicit url=")
    tried = ["explicit url= (not given)"]
    if env.get(ENV_URL):
        return ServerInfo(server_root(env[ENV_URL]), token or env.get(ENV_TOKEN, ""), f"environment ({ENV_URL})")
    tried.append(f"environment {ENV_URL} (not set)")
    servers = _running_servers(runtime_dir)
    hub = _from_hub(env, servers)
    if hub is not None:
        return hub if token is None else ServerInfo(hub.root_url, token, hub.source, hub.root_dir, hub.extra)
    tried.append(f"JupyterHub {HUB_TOKEN} with {HUB_URL} or {HUB_PREFIX} (not set, or no local server there)")
    here = Path(cwd) if cwd is not None else Path.cwd()
    found = _from_runtime(servers, env, here)
    if found is not None:
        return found if token is None else ServerInfo(found.root_url, token, found.source, found.root_dir, found.extra)
    from jupyter_core.paths import jupyter_runtime_dir

    where = runtime_dir or jupyter_runtime_dir()
    tried.append(
        f"Jupyter runtime files in {where}: {len(servers)} running server(s), none started this kernel "
        f"or has a root holding {here}"
    )
    raise ServerNotFound(tried)
