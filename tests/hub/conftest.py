"""One JupyterHub per test module (tests/hub/hub.py), with both users' servers running.

The operator's policy is the one documented for Zero to JupyterHub
(``jupyter-config/jupyterhub/values.yaml``, its ``singleuser.extraFiles`` system config),
plus, for start-up time only, Jupyter extensions these tests do not use switched off. Each
user also put ``approval: auto`` into their own ``~/.jupyter`` config, which the Hub's
``disable_user_config`` must keep from loosening that policy.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from ruamel.yaml import YAML

from tests.hub.hub import USERS, Hub, missing, start_hub

VALUES = Path(__file__).resolve().parents[2] / "jupyter-config" / "jupyterhub" / "values.yaml"
# Not needed here, and seconds of start-up each on a busy machine.
UNUSED_EXTENSIONS = ("jupyter_lsp", "jupyter_server_ydoc", "notebook", "panel.io.jupyter_server_extension")
USERS_OWN_CONFIG = {"MCPLabApp": {"approval": "auto"}}


def documented_values() -> dict[str, Any]:
    return dict(YAML(typ="safe").load(VALUES.read_text()))


def documented_policy() -> dict[str, Any]:
    """The system config the Zero to JupyterHub values mount into every user's server."""
    files = documented_values()["singleuser"]["extraFiles"]
    return dict(files["jupyter-mcp-lab-policy"]["data"])


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """A running Hub; alice's and bob's servers started, each with a Hub token and an agent key."""
    why = missing()
    if why is not None:
        pytest.skip(why)
    policy = documented_policy()
    extensions = policy.setdefault("ServerApp", {}).setdefault("jpserver_extensions", {})
    extensions.update(dict.fromkeys(UNUSED_EXTENSIONS, False))
    with start_hub(tmp_path_factory.mktemp("hub"), policy, USERS_OWN_CONFIG) as running:
        running.start_servers(USERS)
        for user in running.users.values():
            user.token = running.new_token(user.name)
            r = httpx.post(
                running.server_url(user.name, "mcp-lab/api/keys"),
                json={"name": f"{user.name}-agent"},
                headers=user.headers,
                timeout=30,
            )
            assert r.status_code == 201, r.text
            user.key = r.json()["secret"]
        yield running
