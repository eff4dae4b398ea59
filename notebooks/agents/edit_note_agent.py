"""A small agent that proposes edits to a markdown note, for notebook 02.

It is an ordinary MCP client (the official Python SDK over Streamable HTTP), as Claude
Code or Cursor would be: it reads the note, then asks for three changes with
``mode="suggest"`` and a rationale each. The server stages them as suggestions, one per
hunk; nothing changes in the note until a person accepts.

    python edit_note_agent.py --path notebooks/workspace/meeting-notes.md

The endpoint and the agent key (one a person issued to this agent, never their Jupyter
token) come from ``--url``/``--token`` or from the environment (``JUPYTER_MCP_LAB_URL``: the
server's root URL or its MCP endpoint; ``JUPYTER_MCP_LAB_TOKEN``). Prints one JSON line per
tool call: what it asked, what it got.
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

AGENT_NAME = "note-editor-agent"


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


async def propose(url: str, token: str, path: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as http,
        Client(
            streamable_http_client(url, http_client=http),
            # A label only: the reviewer sees the key's name (notebook 02 issues it under the same name).
            client_info=Implementation(name=AGENT_NAME, version="1.0"),
        ) as client,
    ):
        note = await call(client, "document", action="read", path=path)
        revision = note["revision"]
        print(json.dumps({"read": path, "revision": revision, "lines": note.get("totalLines")}), flush=True)
        proposals = [
            (
                "Fix two typos (domian, volunteerd).",
                [
                    {"op": "find_replace", "find": "domian", "replace": "domain"},
                    {"op": "find_replace", "find": "volunteerd", "replace": "volunteered"},
                ],
            ),
            ("Weekdays are capitalized in English.", [{"op": "find_replace", "find": "friday", "replace": "Friday"}]),
            (
                "Add action items so the decisions have owners.",
                [
                    {
                        "op": "insert",
                        "at": len(note["content"]),
                        "text": "\n## Action items\n\n- Grace: run the installer review.\n- Linus: move the docs.\n",
                    }
                ],
            ),
        ]
        for rationale, edits in proposals:
            staged = await call(
                client,
                "document",
                action="edit",
                path=path,
                edits=edits,
                expected_revision=revision,  # suggestions leave the note as it is: same revision
                mode="suggest",
                rationale=rationale,
            )
            print(json.dumps({"rationale": rationale, "suggestionIds": staged.get("suggestionIds", [])}), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--url", default=os.environ.get("JUPYTER_MCP_LAB_URL"), help="server root URL or MCP endpoint")
    parser.add_argument("--token", default=os.environ.get("JUPYTER_MCP_LAB_TOKEN"), help="the server's token")
    parser.add_argument("--path", required=True, help="the note, relative to the server's root")
    args = parser.parse_args(argv)
    if not args.url or not args.token:
        parser.error("give --url and --token, or set JUPYTER_MCP_LAB_URL and JUPYTER_MCP_LAB_TOKEN")
    try:
        asyncio.run(propose(endpoint(args.url), args.token, args.path))
    except BaseExceptionGroup as group:  # the SDK's task groups: show the one real error
        leaf: BaseException = group
        while isinstance(leaf, BaseExceptionGroup) and len(leaf.exceptions) == 1:
            leaf = leaf.exceptions[0]
        print(f"agent failed: {leaf!r}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
