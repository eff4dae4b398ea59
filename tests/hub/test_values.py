"""The Zero to JupyterHub values README documents (jupyter-config/jupyterhub/values.yaml) name
options that exist: a misspelt one would be ignored by Jupyter, and the policy silently lost."""

from __future__ import annotations

import importlib

import pytest

from jupyter_mcp_lab.server.app import MCPLabApp
from tests.hub.conftest import VALUES, documented_policy, documented_values


def test_the_policy_names_real_options() -> None:
    policy = documented_policy()
    assert policy["ServerApp"]["jpserver_extensions"] == {"jupyter_mcp_lab": True}
    options = MCPLabApp.class_traits(config=True)
    for name, value in policy["MCPLabApp"].items():
        assert name in options, f"{VALUES}: MCPLabApp.{name} is no option"
        options[name].validate(MCPLabApp(), value)  # a value the option takes


def test_the_hub_config_names_real_options() -> None:
    pytest.importorskip("jupyterhub", reason="jupyterhub is not installed")
    classes = {"JupyterHub": "jupyterhub.app:JupyterHub", "Spawner": "jupyterhub.spawner:Spawner"}
    for cls, options in documented_values()["hub"]["config"].items():
        module, name = classes[cls].split(":")
        traits = getattr(importlib.import_module(module), name).class_traits(config=True)
        assert set(options) <= set(traits), (cls, set(options) - set(traits))


def test_the_readme_shows_the_values() -> None:
    """README's snippet is the file's core, not a copy drifting from it."""
    readme = (VALUES.parents[2] / "README.md").read_text()
    for line in ("mountPath: /usr/local/etc/jupyter/jupyter_server_config.json", "disable_user_config: true"):
        assert line in VALUES.read_text() and line in readme
