"""``connect()``: a ``Lab`` client for this kernel's Jupyter server, or for any MCP server."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .client import CLIENT_NAME, Lab
from .discovery import ServerInfo, find_server, server_root
from .requests import PendingRequest, ServerRequests
from .target import Target

_MCP_PATH = re.compile(r"/mcp/?$")


def connect(
    target: str | None = None,
    *,
    url: str | None = None,
    token: str | None = None,
    profile: str = "lab",
    headers: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    on_elicit: Callable[[PendingRequest], Any] | None = None,
    on_sample: Callable[[PendingRequest], Any] | None = None,
    roots: list[str | Path] | None = None,
    mode: str = "legacy",
    timeout: float = 300.0,
    client_name: str = CLIENT_NAME,
    quiet: bool = False,
) -> Lab:
    """Connect and return a ``Lab`` client; says which server it found, and how.

    - ``connect()``: the Jupyter server this kernel belongs to (explicit ``url=``/``token=``,
      then ``JUPYTER_MCP_LAB_URL``/``JUPYTER_MCP_LAB_TOKEN``, then JupyterHub's variables, then
      Jupyter's runtime files); ``profile=`` picks the MCP profile (``lab``, ``vmark``, …).
    - ``connect("stdio:python server.py")``: any MCP server started as a command (``env=``,
      ``cwd=``); ``connect("https://host/mcp", headers={...})``: any MCP server over HTTP.

    ``on_elicit`` / ``on_sample`` answer the server's elicitation and sampling requests
    (a function of the ``PendingRequest`` returning the answer); without them the requests
    wait for the person (the inspector widget, or ``lab.pending[i].respond(...)``).
    ``roots`` are offered to servers that ask (default: the working directory).
    """
    requests = ServerRequests(on_elicit=on_elicit, on_sample=on_sample, roots=roots)
    if target is not None and target.startswith("stdio:"):
        spec = Target.stdio(target, env=env, cwd=str(cwd) if cwd is not None else None)
    else:
        spec = _http_target(target or url, token, profile, headers)
    lab = Lab(spec, requests=requests, mode=mode, timeout=timeout, client_name=client_name).open()
    if not quiet:
        how = f" (found by {spec.server.source})" if spec.server and spec.server.source != "explicit url=" else ""
        print(f"Connected to {spec.label}{how}")  # stdout: in a notebook stderr reads as an error
    return lab


def _http_target(url: str | None, token: str | None, profile: str, headers: dict[str, str] | None) -> Target:
    generic = url is not None and headers is not None and token is None
    if generic:
        # Any MCP server: the URL as given, the caller's headers, no jupyter-mcp-lab API.
        assert url is not None
        return Target(url=url, headers=dict(headers or {}))
    server: ServerInfo = find_server(url, token)
    if url is not None and _MCP_PATH.search(url.split("?", 1)[0]) and profile == "lab":
        endpoint = url  # an MCP endpoint given as is: keep its profile
        root_profile = _profile_of(url, server)
    else:
        endpoint, root_profile = server.mcp_url(profile), profile
    return Target(url=endpoint, headers={**server.headers, **(headers or {})}, server=server, profile=root_profile)


def _profile_of(url: str, server: ServerInfo) -> str:
    rest = url[len(server_root(url)) :]
    match = re.match(r"mcp-lab/([^/]+)/mcp", rest)
    return match.group(1) if match else "lab"
