"""A real JupyterHub for the tests: configurable-http-proxy in front, a local-process spawner
running each user's single-user server as this OS user with a home of its own under tmp, and
the dummy authenticator with two users.

``start_hub`` starts it as an operator would (``python -m jupyterhub -f jupyterhub_config.py``),
with a service token the tests use as the Hub's admin (start servers, issue users' tokens);
it answers once the Hub's API does. Users' servers start with ``Hub.start_servers``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import NODE_MODULES

CHP = NODE_MODULES / ".bin" / "configurable-http-proxy"
USERS = ("alice", "bob")
PASSWORD = "hub-test-password"
ADMIN_SERVICE = "mcp-lab-tests"

CONFIG = """\
import os, sys
c = get_config()  # noqa
c.JupyterHub.bind_url = {public!r}
c.JupyterHub.public_url = {public!r}
c.JupyterHub.hub_bind_url = {hub!r}
c.JupyterHub.db_url = "sqlite:///" + {db!r}
c.JupyterHub.cookie_secret_file = {secret_file!r}
c.JupyterHub.pid_file = {pid_file!r}
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.api_url = {proxy_api!r}
c.ConfigurableHTTPProxy.pid_file = {proxy_pid_file!r}

# Two people, as a site with a login page has them.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allowed_users = {users!r}

# Each person's server: a local process as this OS user, with a home (and so a root, a Jupyter
# data dir holding jupyter-mcp-lab's stores, a runtime dir) of their own.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = {args!r}
c.Spawner.env_keep = ["PATH", "PYTHONPATH", "VIRTUAL_ENV", "LANG", "LC_ALL"]
# How long the Hub waits for a server to stop on SIGINT before SIGTERM (default 10 s): a
# server that ignored SIGINT shows as a stop taking this long.
c.LocalProcessSpawner.interrupt_timeout = 30
c.Spawner.start_timeout = 150
c.Spawner.http_timeout = 150
# The operator's policy for every user: a system config file (Zero to JupyterHub mounts one
# with singleuser.extraFiles) that users' own config cannot override.
c.Spawner.environment = {{"JUPYTER_CONFIG_PATH": {system_config!r}}}
c.Spawner.disable_user_config = True

# The tests act as the Hub's admin through a service token.
c.JupyterHub.services = [{{"name": {service!r}, "api_token": {service_token!r}}}]
c.JupyterHub.load_roles = [
    {{
        "name": "mcp-lab-tests",
        "scopes": ["admin:users", "admin:servers", "admin:server_state", "tokens", "list:users", "read:users"],
        "services": [{service!r}],
    }}
]
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing() -> str | None:
    """Why a Hub cannot be started here, or None."""
    if importlib.util.find_spec("jupyterhub") is None:
        return "jupyterhub is not installed (pip install -e '.[dev]', or bash scripts/test)"
    if not CHP.exists() and shutil.which("configurable-http-proxy") is None:
        return "configurable-http-proxy is not installed (cd tests/js && npm ci, or bash scripts/test)"
    return None


@dataclass
class User:
    name: str
    home: Path  # the server's root and home: its data dir is <home>/.local/share/jupyter/jupyter_mcp_lab
    token: str = ""  # a Hub API token of this user (scopes: the user's own)
    key: str = ""  # an agent key the user issued on their server

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"}


@dataclass
class Hub:
    url: str  # the public URL, through the proxy: http://127.0.0.1:<port>
    admin_token: str
    dir: Path
    proc: subprocess.Popen[str]
    users: dict[str, User] = field(default_factory=dict)
    pids: set[int] = field(default_factory=set)  # users' servers, stopped by id if the Hub leaves one

    def api(self, method: str, route: str, *, token: str | None = None, **kwargs: Any) -> httpx.Response:
        """A call to the Hub's REST API (``/hub/api/<route>``), as the admin service by default."""
        headers = {"Authorization": f"token {token or self.admin_token}"}
        return httpx.request(method, f"{self.url}/hub/api/{route}", headers=headers, timeout=30, **kwargs)

    def server_url(self, user: str, route: str = "") -> str:
        """A URL of ``user``'s single-user server, through the proxy."""
        return f"{self.url}/user/{user}/{route}"

    def start_servers(self, names: tuple[str, ...], timeout: float = 200) -> None:
        """Ask the Hub to start these users' servers (side by side); return once all are ready."""
        for name in names:
            r = self.api("POST", f"users/{name}/server")
            assert r.status_code in (201, 202), r.text
        waiting, deadline = set(names), time.monotonic() + timeout
        while waiting and time.monotonic() < deadline:
            for name in sorted(waiting):
                server = self.api("GET", f"users/{name}").json().get("servers", {}).get("")
                if server and server.get("ready"):
                    self.pids.add(int(server.get("state", {}).get("pid") or 0))
                    waiting.discard(name)
            assert self.proc.poll() is None, f"the Hub exited:\n{self.log()[-4000:]}"
            time.sleep(0.3)
        assert not waiting, f"servers of {sorted(waiting)} did not start in {timeout} s:\n{self.log()[-4000:]}"

    def new_token(self, user: str, scopes: list[str] | None = None, note: str = "tests") -> str:
        """A Hub API token of ``user`` (default scopes: the user's own, 'inherit')."""
        body: dict[str, Any] = {"note": note, "expires_in": 3600}
        if scopes is not None:
            body["scopes"] = scopes
        r = self.api("POST", f"users/{user}/tokens", json=body)
        assert r.status_code == 201, r.text
        return str(r.json()["token"])

    def log(self) -> str:
        path = self.dir / "hub.log"
        return path.read_text(errors="replace") if path.exists() else ""


@contextmanager
def start_hub(tmp: Path, system_config: dict[str, Any], users_config: dict[str, Any] | None = None) -> Iterator[Hub]:
    """A JupyterHub on free ports (public, hub, proxy API), its state under ``tmp``; stopped after.

    ``system_config``: the operator's Jupyter config for every user's server (written as the
    system config file ``jupyter_server_config.json``); ``users_config``: a config each user
    put in their own ``~/.jupyter`` (which the Hub's ``disable_user_config`` must ignore).
    """
    chp = str(CHP) if CHP.exists() else str(shutil.which("configurable-http-proxy"))
    homes = tmp / "home"
    system = tmp / "etc-jupyter"
    system.mkdir(parents=True, exist_ok=True)
    (system / "jupyter_server_config.json").write_text(json.dumps(system_config, indent=2))
    for name in USERS:
        (homes / name / ".jupyter").mkdir(parents=True, exist_ok=True)
        if users_config:
            (homes / name / ".jupyter" / "jupyter_server_config.json").write_text(json.dumps(users_config))
    public = f"http://127.0.0.1:{free_port()}"
    args = ["--allow-root"] if os.geteuid() == 0 else []
    service_token = secrets.token_hex(16)
    (tmp / "jupyterhub_config.py").write_text(
        CONFIG.format(
            public=public,
            hub=f"http://127.0.0.1:{free_port()}",
            db=str(tmp / "jupyterhub.sqlite"),
            secret_file=str(tmp / "jupyterhub_cookie_secret"),
            pid_file=str(tmp / "jupyterhub.pid"),
            chp=chp,
            proxy_api=f"http://127.0.0.1:{free_port()}",
            proxy_pid_file=str(tmp / "proxy.pid"),
            password=PASSWORD,
            users=set(USERS),
            homes=str(homes),
            args=args,
            system_config=str(system),
            service=ADMIN_SERVICE,
            service_token=service_token,
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "JUPYTER_", "JPY_"))}
    # The proxy's node and the servers' python are this environment's.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    log = (tmp / "hub.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(tmp / "jupyterhub_config.py")],
        cwd=tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its proxy is in its process group
    )
    hub = Hub(public, service_token, tmp, proc)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if hub.api("GET", "").is_success:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"JupyterHub did not start:\n{hub.log()[-4000:]}")
            time.sleep(0.25)
        for name in USERS:
            hub.users[name] = User(name, homes / name)
        yield hub
    finally:
        _stop(proc, hub.pids)
        log.close()


def _stop(proc: subprocess.Popen[str], pids: set[int]) -> None:
    """SIGTERM to the Hub, which stops users' servers and its proxy; then, by their ids,
    whatever of them is left (the Hub's process group, users' servers)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    for pid in pids - {0}:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    proc.wait(5)
