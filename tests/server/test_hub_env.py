"""What a single-user server reads from its Hub's variables (jupyter_mcp_lab/server/hub.py).
The real Hub is in tests/hub."""

from __future__ import annotations

import pytest

from jupyter_mcp_lab.server import hub


@pytest.mark.parametrize(
    ("env", "prefix", "origin"),
    [
        ({}, None, None),  # not on a Hub
        ({"JUPYTERHUB_PUBLIC_URL": "https://hub.example.org/user/ann/"}, None, None),  # a stray variable
        ({"JUPYTERHUB_SERVICE_PREFIX": "/user/ann/"}, "/user/ann/", None),  # the Hub has no public_url
        ({"JUPYTERHUB_SERVICE_PREFIX": "/user/ann/", "JUPYTERHUB_PUBLIC_URL": ""}, "/user/ann/", None),
        (
            {
                "JUPYTERHUB_SERVICE_PREFIX": "/jh/user/ann/",
                "JUPYTERHUB_PUBLIC_URL": "https://hub.example.org:8443/jh/user/ann/",
            },
            "/jh/user/ann/",
            "https://hub.example.org:8443",
        ),
        ({"JUPYTERHUB_SERVICE_PREFIX": "/user/ann/", "JUPYTERHUB_PUBLIC_URL": "hub.example.org"}, "/user/ann/", None),
    ],
)
def test_prefix_and_public_origin(env: dict[str, str], prefix: str | None, origin: str | None) -> None:
    assert hub.prefix(env) == prefix
    assert hub.public_origin(env) == origin


def test_sigint_is_left_alone_off_a_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX", raising=False)
    before = signal.getsignal(signal.SIGINT)
    assert hub.stop_on_sigint(object()) is False
    assert signal.getsignal(signal.SIGINT) is before
