"""A small agent that restructures a project outline (OPML), for notebook 03.

An ordinary MCP client (the official Python SDK over Streamable HTTP), as Claude Code or
Cursor would be: it reads the outline's rows with the lab profile's ``outline`` tool, then
asks for row changes with ``mode="suggest"`` and a rationale each: a QA step added under
Build, the accessibility audit moved from "Misc notes" into Launch, the emptied "Misc notes"
deleted, a post-launch section inserted with its steps, a goal checked and a topic renamed.
The server stages each as a suggestion on its row; nothing changes in the file until a
person accepts.

    python restructure_outline_agent.py --path notebooks/workspace/project-plan.opml

The endpoint and the agent key come from ``--url``/``--token`` or from the environment
(``JUPYTER_MCP_LAB_URL``, ``JUPYTER_MCP_LAB_TOKEN``), as for ``edit_note_agent.py``. Prints
one JSON line per tool call: what it asked, what it got.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

import httpx2
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

AGENT_NAME = "outline-planner-agent"


def endpoint(url: str) -> str:
    """The MCP endpoint from a server's root URL (``…/``) or the endpoint itself (``…/mcp``)."""
    url = url.split("?", 1)[0]
    return url if url.rstrip("/").endswith("/mcp") else url.rstrip("/") + "/mcp"


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    data = result.structured_content or {}
    if result.is_error:
        raise SystemExit(f"{tool} {arguments.get('action')} failed: {json.dumps(data)}")
    return data


def find(rows: list[dict[str, Any]], topic: str) -> str:
    """A row's id by its topic (the agent reads ids; it never guesses them)."""
    return next(r["id"] for r in rows if r["topic"] == topic)


async def restructure(url: str, token: str, path: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http,
        Client(
            streamable_http_client(url, http_client=http),
            client_info=Implementation(name=AGENT_NAME, version="1.0"),
        ) as client,
    ):
        outline = await call(client, "outline", action="read", path=path)
        rows = outline["rows"]
        print(json.dumps({"read": path, "rows": len(rows), "revision": outline["revision"]}), flush=True)
        proposals: list[tuple[str, dict[str, Any]]] = [
            (
                "Templates need a QA pass before posts move onto them.",
                {
                    "op": "add",
                    "topic": "QA pass on every template",
                    "state": "unchecked",
                    "sibling": find(rows, "Page templates"),
                },
            ),
            (
                "The audit is a launch gate, not a loose note.",
                {
                    "op": "move",
                    "row": find(rows, "Run an accessibility audit before launch"),
                    "sibling": find(rows, "Switch DNS"),
                    "relative": "before",
                },
            ),
            (
                "Nothing is left under Misc notes once the audit moved.",
                {"op": "delete", "row": find(rows, "Misc notes")},
            ),
            (
                "Launch is not the end: plan the weeks after it.",
                {
                    "op": "insert",
                    "content": [
                        {
                            "topic": "After launch",
                            "children": [
                                {"topic": "Watch error rates for a week", "state": "unchecked"},
                                {"topic": "Collect feedback from editors", "state": "unchecked"},
                            ],
                        }
                    ],
                },
            ),
            (
                "The prototype was shared on Monday.",
                {"op": "check", "row": find(rows, "Clickable prototype"), "state": "checked"},
            ),
            ("A friendlier name.", {"op": "update", "row": find(rows, "Launch"), "topic": "Go live"}),
        ]
        for rationale, edit in proposals:
            staged = await call(
                client, "outline", action="edit", path=path, mode="suggest", rationale=rationale, **edit
            )
            print(json.dumps({"rationale": rationale, "suggestionIds": staged.get("suggestionIds", [])}), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--url", default=os.environ.get("JUPYTER_MCP_LAB_URL"), help="server root URL or MCP endpoint")
    parser.add_argument("--token", default=os.environ.get("JUPYTER_MCP_LAB_TOKEN"), help="the agent's key")
    parser.add_argument("--path", required=True, help="the outline, relative to the server's root")
    args = parser.parse_args(argv)
    if not args.url or not args.token:
        parser.error("give --url and --token, or set JUPYTER_MCP_LAB_URL and JUPYTER_MCP_LAB_TOKEN")
    try:
        asyncio.run(restructure(endpoint(args.url), args.token, args.path))
    except BaseExceptionGroup as group:  # the SDK's task groups: show the one real error
        leaf: BaseException = group
        while isinstance(leaf, BaseExceptionGroup) and len(leaf.exceptions) == 1:
            leaf = leaf.exceptions[0]
        print(f"agent failed: {leaf!r}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
