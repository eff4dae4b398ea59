"""``connect()`` finds the Jupyter server a kernel belongs to, in each of its modes, against
real servers: the module's ``lab_server`` (base URL ``/``) and a single-user server as
JupyterHub runs one (base URL ``/user/ann/``, its own runtime dir). The last test is the
main real-world case: a kernel the server started calls ``connect()`` with no arguments.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kernel_tools import ServerNotFound, connect, find_server
from kernel_tools.discovery import ENV_TOKEN, ENV_URL, HUB_PREFIX, HUB_TOKEN, HUB_URL, server_root
from tests.kernel_tools.conftest import Lab
from tests.kernel_tools.kernel_session import kernel
from tests.labext.conftest import start_lab

HUB_BASE = "/user/ann/"
DISCOVERY_VARS = (ENV_URL, ENV_TOKEN, HUB_TOKEN, HUB_URL, HUB_PREFIX, "JPY_PARENT_PID")


@dataclass
class HubServer:
    url: str  # "http://127.0.0.1:PORT/user/ann/"
    token: str
    root: Path
    runtime_dir: str


@pytest.fixture(scope="module")
def hub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubServer]:
    """A single-user Jupyter server as a Hub starts one: under ``/user/ann/``, with jupyter-mcp-lab."""
    tmp = tmp_path_factory.mktemp("hub-user")
    token = "hub-" + uuid.uuid4().hex
    with start_lab(tmp, app="server", base_url=HUB_BASE, token=token, unset_env=DISCOVERY_VARS) as server:
        yield HubServer(server.base + "/", server.token, server.root, str(tmp / "rt"))


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """No discovery variable set, an empty runtime dir, and a working directory outside every root."""
    for var in DISCOVERY_VARS:
        monkeypatch.delenv(var, raising=False)
    empty = tmp_path / "empty-rt"
    empty.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(empty))
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def server_file(runtime_dir: str) -> dict[str, Any]:
    """The server's own runtime file (``jpserver-<pid>.json``)."""
    (path,) = Path(runtime_dir).glob("jpserver-*.json")
    return json.loads(path.read_text())


def state_of(lab: Any) -> dict[str, Any]:
    """A real tool call through the found server: who the server says we are."""
    state = lab.call("session", action="get_state")
    assert state["capabilities"]["host"] == "jupyter"
    return state


# --- server_root --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("http://127.0.0.1:8888", "http://127.0.0.1:8888/"),
        ("http://127.0.0.1:8888/", "http://127.0.0.1:8888/"),
        ("http://127.0.0.1:8888/mcp", "http://127.0.0.1:8888/"),
        ("http://127.0.0.1:8888/mcp/", "http://127.0.0.1:8888/"),
        ("http://127.0.0.1:8888/mcp-lab/vmark/mcp", "http://127.0.0.1:8888/"),
        ("https://hub.example/user/ann/", "https://hub.example/user/ann/"),
        ("https://hub.example/user/ann", "https://hub.example/user/ann/"),
        ("https://hub.example/user/ann/mcp", "https://hub.example/user/ann/"),
        ("https://hub.example/user/ann/mcp-lab/vmark2/mcp?x=1", "https://hub.example/user/ann/"),
        # a user called "mcp" keeps their prefix: only the endpoint's own path is cut
        ("https://hub.example/user/mcp/mcp", "https://hub.example/user/mcp/"),
    ],
)
def test_server_root(url: str, root: str) -> None:
    assert server_root(url) == root


# --- 1. explicit url= / token= --------------------------------------------------------


def test_explicit_url_and_token(lab_server: Lab, clean_env: pytest.MonkeyPatch) -> None:
    with connect(url=lab_server.base + "/", token=lab_server.token, quiet=True) as lab:
        assert lab.target.server is not None and lab.target.server.source == "explicit url="
        assert lab.target.url == lab_server.base + "/mcp"
        assert state_of(lab)["caller"]["profile"] == "lab"


def test_explicit_endpoint_keeps_its_profile(lab_server: Lab, clean_env: pytest.MonkeyPatch) -> None:
    with connect(url=lab_server.base + "/mcp-lab/vmark/mcp", token=lab_server.token, quiet=True) as lab:
        assert lab.target.profile == "vmark"
        assert lab.target.server is not None and lab.target.server.root_url == lab_server.base + "/"
        names = {t.name for t in lab.tools()}
        assert "document_get_content" in names and "session" not in names
    with connect(url=lab_server.base, token=lab_server.token, profile="vmark", quiet=True) as lab:
        assert lab.target.url == lab_server.base + "/mcp-lab/vmark/mcp"


def test_explicit_wins_over_the_environment(lab_server: Lab, clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv(ENV_URL, "http://127.0.0.1:9/")  # nothing listens there
    with connect(url=lab_server.base + "/", token=lab_server.token, quiet=True) as lab:
        state_of(lab)


# --- 2. the environment ------------------------------------------------------------------


def test_environment(lab_server: Lab, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clean_env.setenv(ENV_URL, lab_server.base + "/mcp")
    clean_env.setenv(ENV_TOKEN, lab_server.token)
    clean_env.setenv(HUB_TOKEN, "not-this-one")  # the environment comes before the Hub's variables
    clean_env.setenv(HUB_URL, "http://127.0.0.1:9/user/x/")
    with connect() as lab:
        assert lab.target.server is not None and lab.target.server.source == f"environment ({ENV_URL})"
        state_of(lab)
    said = capsys.readouterr()
    assert f"found by environment ({ENV_URL})" in said.out  # connect() says how, on stdout (stderr reads as an error)


# --- 3. JupyterHub's variables, set as a Hub sets them for a single-user server ------------


def test_hub_service_url(hub_server: HubServer, clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv(HUB_TOKEN, hub_server.token)
    # A Hub gives the server's bind URL; 0.0.0.0 is reached on loopback.
    clean_env.setenv(HUB_URL, hub_server.url.replace("127.0.0.1", "0.0.0.0"))
    with connect(quiet=True) as lab:
        assert lab.target.server is not None
        assert lab.target.server.source.startswith("JupyterHub")
        assert lab.target.url == hub_server.url + "mcp"
        assert state_of(lab)["capabilities"]["profiles"][0]["path"] == HUB_BASE + "mcp"
        assert lab.review.status()["base_url"] == HUB_BASE  # the REST API under the prefix too


def test_hub_service_prefix_with_runtime_files(hub_server: HubServer, clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv(HUB_TOKEN, hub_server.token)
    clean_env.setenv(HUB_PREFIX, HUB_BASE.rstrip("/"))  # with or without the trailing slash
    clean_env.setenv("JUPYTER_RUNTIME_DIR", hub_server.runtime_dir)
    with connect(quiet=True) as lab:
        assert lab.target.server is not None
        assert f"{HUB_PREFIX}={HUB_BASE}" in lab.target.server.source
        assert lab.target.url == hub_server.url + "mcp"
        state_of(lab)
    # Another user's prefix is not this server: discovery goes on to the runtime files' rules.
    env = {HUB_TOKEN: hub_server.token, HUB_PREFIX: "/user/bob/"}
    found = find_server(env=env, runtime_dir=hub_server.runtime_dir, cwd=hub_server.root)
    assert "JupyterHub" not in found.source and "root holds" in found.source
    assert found.token == hub_server.token  # the runtime file's token


# --- 4. Jupyter's runtime files --------------------------------------------------------------


def test_runtime_file_of_the_root_holding_the_working_directory(
    lab_server: Lab, runtime_dir: str, clean_env: pytest.MonkeyPatch
) -> None:
    inside = lab_server.root / "deep" / "folder"
    inside.mkdir(parents=True, exist_ok=True)
    clean_env.setenv("JUPYTER_RUNTIME_DIR", runtime_dir)
    clean_env.chdir(inside)
    with connect(quiet=True) as lab:
        assert lab.target.server is not None
        assert lab.target.server.source.endswith(f"whose root holds {inside}")
        assert lab.target.server.token == lab_server.token
        state_of(lab)


def _decoy(runtime: Path, root: Path) -> None:
    """A second running server's file (this process's pid: alive, so Jupyter keeps the file)."""
    info = {"pid": os.getpid(), "url": "http://127.0.0.1:9/", "token": "decoy", "root_dir": str(root), "base_url": "/"}
    (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps(info))


def test_runtime_files_rules(lab_server: Lab, runtime_dir: str, tmp_path: Path) -> None:
    real = server_file(runtime_dir)
    runtime = tmp_path / "rt"
    runtime.mkdir()
    (runtime / f"jpserver-{real['pid']}.json").write_text(json.dumps(real))
    outside = tmp_path / "elsewhere"
    outside.mkdir()

    # One server: it is the one, wherever the kernel runs.
    only = find_server(env={}, runtime_dir=str(runtime), cwd=outside)
    assert only.source == "Jupyter runtime file of the only running server"
    assert (only.root_url, only.token) == (lab_server.base + "/", lab_server.token)

    # Two servers, the decoy's root holding the real one's: the deepest root holding the cwd wins.
    _decoy(runtime, lab_server.root.parent)
    deep = find_server(env={}, runtime_dir=str(runtime), cwd=lab_server.root)
    assert deep.token == lab_server.token and "root holds" in deep.source
    shallow = find_server(env={}, runtime_dir=str(runtime), cwd=lab_server.root.parent)
    assert shallow.token == "decoy"

    # The server that started the kernel wins over the roots (JPY_PARENT_PID, as jupyter_client sets it).
    started = find_server(env={"JPY_PARENT_PID": str(real["pid"])}, runtime_dir=str(runtime), cwd=outside)
    assert started.token == lab_server.token
    assert started.source == f"Jupyter runtime file of the server that started this kernel (pid {real['pid']})"

    # Two servers, a working directory in neither, no parent: nothing is guessed.
    with pytest.raises(ServerNotFound) as err:
        find_server(env={}, runtime_dir=str(runtime), cwd=outside)
    assert "2 running server(s)" in str(err.value)


def test_nothing_found_says_what_was_tried(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = os.environ["JUPYTER_RUNTIME_DIR"]
    with pytest.raises(ServerNotFound) as err:
        connect(quiet=True)
    message = str(err.value)
    assert err.value.tried == [
        "explicit url= (not given)",
        f"environment {ENV_URL} (not set)",
        f"JupyterHub {HUB_TOKEN} with {HUB_URL} or {HUB_PREFIX} (not set, or no local server there)",
        f"Jupyter runtime files in {empty}: 0 running server(s), none started this kernel "
        f"or has a root holding {tmp_path}",
    ]
    assert f"connect(url=..., token=...), or set {ENV_URL} and {ENV_TOKEN}" in message
    # A Hub token alone (no URL, no prefix) is not a server either.
    clean_env.setenv(HUB_TOKEN, "t")
    with pytest.raises(ServerNotFound):
        connect(quiet=True)


# --- the real-world case: a kernel the server started calls connect() --------------------------

KERNEL_CODE = """
from kernel_tools import connect
lab = connect()
state = lab.call("session", action="get_state")
print("SOURCE", lab.target.server.source)
print("PROFILE", state["caller"]["profile"], "CLIENT", state["caller"]["clientName"])
print("READ", lab.call("document", action="read", path="kernel-note.md")["content"].strip())
lab.close()
"""


def test_a_kernel_started_by_the_server_connects_with_no_arguments(lab_server: Lab, runtime_dir: str) -> None:
    (lab_server.root / "kernel-note.md").write_text("# From the kernel\n")
    with kernel(lab_server) as k:
        cell = k.execute(KERNEL_CODE)
    out = cell.out
    assert cell.status == "ok", out
    pid = server_file(runtime_dir)["pid"]
    # The kernel is the server's child: the parent rule found it (not the root or "the only one").
    assert f"SOURCE Jupyter runtime file of the server that started this kernel (pid {pid})" in out, out
    assert "PROFILE lab CLIENT jupyter-mcp-lab-notebook" in out, out
    assert "READ # From the kernel" in out, out
    assert "Connected to " + lab_server.base + "/mcp (found by Jupyter runtime file" in out, out
