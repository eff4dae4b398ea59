"""The person's side of jupyter-mcp-lab: its REST API (``mcp-lab/api/``) from a kernel.

Decisions made here are the person's (the Jupyter identity of the token), exactly as in the
JupyterLab panel; widgets and the Panel board act through this class, never through server
objects. Synchronous (httpx2), safe to call from widget handlers and any thread.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx2

from .discovery import ServerInfo
from .errors import ApiError


class ReviewAPI:
    def __init__(self, server: ServerInfo, timeout: float = 30.0) -> None:
        self.server = server
        # One client for every thread (widgets, cells): httpx2's client is thread-safe.
        self._http = httpx2.Client(base_url=server.api_url, headers=server.headers, timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, route: str, **kwargs: Any) -> Any:
        """One call; the decoded JSON answer, or ``ApiError`` with the server's envelope."""
        response = self._http.request(method, route, **kwargs)
        try:
            body = response.json() if response.content else None
        except ValueError:
            body = response.text
        if response.status_code >= 400:
            raise ApiError(response.status_code, body, f"{method} {route}")
        return body

    # --- suggestions ------------------------------------------------------------------

    def suggestions(
        self, path: str | None = None, status: str = "pending", *, locate: bool = False, limit: int = 500
    ) -> dict[str, Any]:
        """``{suggestions, count, counts, revision?}`` in document order."""
        params: dict[str, Any] = {"status": status, "limit": limit}
        if path:
            params["path"] = path
        if locate:
            params["locate"] = "true"
        return self.request("GET", "suggestions", params=params)

    def suggestion(self, id: str) -> dict[str, Any]:
        """One suggestion with its unified ``diff``."""
        return self.request("GET", f"suggestions/{id}")

    def accept(self, id: str) -> dict[str, Any]:
        return self.request("POST", f"suggestions/{id}/accept")

    def reject(self, id: str) -> dict[str, Any]:
        return self.request("POST", f"suggestions/{id}/reject")

    def accept_all(self, path: str | None = None, ids: list[str] | None = None) -> dict[str, Any]:
        return self.request("POST", "suggestions/accept-all", json=_selection(path, ids))

    def reject_all(self, path: str | None = None, ids: list[str] | None = None) -> dict[str, Any]:
        return self.request("POST", "suggestions/reject-all", json=_selection(path, ids))

    # --- checkpoints, grants, activity, status --------------------------------------------

    def checkpoints(self, path: str | None = None, limit: int = 50) -> dict[str, Any]:
        params: dict[str, Any] = {"limit": limit}
        if path:
            params["path"] = path
        return self.request("GET", "checkpoints", params=params)

    def revert(self, id: str) -> dict[str, Any]:
        return self.request("POST", f"checkpoints/{id}/revert")

    def grants(self) -> dict[str, Any]:
        return self.request("GET", "grants")

    def grant(self, body: dict[str, Any]) -> dict[str, Any]:
        """Let one agent apply directly: ``{"scope": path, "agent": name, "agentKind": "client", "minutes": n}``."""
        return self.request("POST", "grants", json=body)

    def revoke(self, id: str) -> Any:
        return self.request("DELETE", f"grants/{id}")

    def activity(self, **params: Any) -> dict[str, Any]:
        return self.request("GET", "activity", params=params)

    def status(self) -> dict[str, Any]:
        return self.request("GET", "status")

    def outline(self, path: str) -> dict[str, Any]:
        return self.request("GET", "outline", params={"path": path})

    def text(self, path: str) -> str:
        """A file's text as saved, through Jupyter's contents API (a notebook's JSON too)."""
        url = self.server.root_url + "api/contents/" + quote(path.lstrip("/"))
        model = self.request("GET", url, params={"type": "file", "format": "text", "content": "1"})
        return str(model.get("content") or "")


def _selection(path: str | None, ids: list[str] | None) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if path:
        body["path"] = path
    if ids is not None:
        body["ids"] = list(ids)
    return body
