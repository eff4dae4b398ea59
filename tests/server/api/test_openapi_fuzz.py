"""The served OpenAPI document against the live server, fuzzed by schemathesis.

The property: whatever a client sends that the document allows (positive cases) or does
not allow (negative ones), the server never answers 5xx, and every answer conforms to the
document (status documented, content type, body schema, auth enforced, invalid data
rejected with 4xx, valid data not rejected with 400).

The server lives on the test's event loop, and schemathesis calls it synchronously (with
requests): the calls run in a worker thread while the loop serves them.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase
from ruamel.yaml import YAML

from jupyter_mcp_lab.server.api import ROUTES
from jupyter_mcp_lab.server.api.openapi import SPEC_FILE

from ...conftest import LabServer
from .conftest import Api, suggest_replace

# Per operation and generation mode; bounded so the whole run stays well under a minute.
MAX_EXAMPLES = 50


def fuzz(spec_url: str, headers: dict[str, str]) -> tuple[list[str], int]:
    """Run every operation's positive and negative cases; (failures, cases sent)."""
    # The token is the document's JupyterToken scheme, configured for schemathesis to send,
    # and not generated as a header parameter. Generated, its negative cases drop it or add
    # random header names next to it; putting the token back into every case (as this test
    # once did) turned a dropped token into a valid request the server rightly accepted, and
    # random names include hop-by-hop ones (Hypothesis mixes string constants of the loaded
    # project modules into its text: asgi_bridge.py spells transfer-encoding) that Tornado
    # answers with an empty 400 before any handler runs. Both failed now and then, more
    # often in a full run (more modules loaded, other constants). Every case carries the
    # token now, so a negative case's invalid part reaches the handler, and the ignored_auth
    # check still sends each case without it and expects 401.
    config = schemathesis.config.SchemathesisConfig.from_dict(
        {
            "auth": {"openapi": {"JupyterToken": {"api_key": headers["Authorization"]}}},
            "generation": {"with-security-parameters": False},
        }
    )
    schema = schemathesis.openapi.from_url(spec_url, headers=headers, timeout=30, config=config)
    # The event stream never ends by itself, so a request-response fuzzer cannot call it;
    # test_events.py covers it.
    schema = schema.exclude(operation_id="streamEvents")
    failures: list[str] = []
    sent = 0
    for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
        for result in schema.get_all_operations():
            operation = result.ok()
            if mode == schemathesis.GenerationMode.NEGATIVE and not (list(operation.query) or operation.body):
                # No query, no body: at most a path id, whose invalid forms (empty, not a
                # string) cannot be put in a URL. There is no invalid request to send.
                continue

            @hypothesis.settings(
                max_examples=MAX_EXAMPLES,
                deadline=None,
                database=None,
                phases=[Phase.explicit, Phase.generate],  # no shrinking: report the first failure as is
                suppress_health_check=list(HealthCheck),
            )
            @hypothesis.given(case=operation.as_strategy(generation_mode=mode))
            def run(case: schemathesis.Case) -> None:
                nonlocal sent
                # requests drops query arguments whose value is None, [] or {}, so such a
                # "negative" case arrives valid and is rightly accepted: no finding there.
                hypothesis.assume(all(v not in (None, [], {}) for v in (case.query or {}).values()))
                sent += 1
                case.call_and_validate(timeout=30)

            try:
                run()
            except (Exception, BaseExceptionGroup) as exc:  # collect them all: one report names every broken operation
                failures.append(f"{mode.value} {operation.label}:\n{exc}")
    return failures, sent


def spec_path_regex(path: str) -> str:
    """``/suggestions/{id}/accept`` as the route table spells it (``{id}`` is any segment)."""
    return re.escape(path.lstrip("/")).replace(r"\{id\}", "[^/]+")


def test_spec_and_route_table_agree() -> None:
    spec = YAML(typ="safe", pure=True).load(SPEC_FILE.read_text(encoding="utf-8"))
    assert spec["openapi"] == "3.0.3"

    def handler_of(path: str) -> Any:
        """The handler Tornado picks for a documented path: the first route that matches."""
        concrete = path.lstrip("/").replace("{id}", "an-id")
        return next((h for pattern, h in ROUTES if re.fullmatch(pattern, concrete)), None)

    documented = {
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    for method, path in documented:
        handler = handler_of(path)
        assert handler is not None and method in handler.allowed_methods(), f"{method} {path} is not served"
    for pattern, handler in ROUTES:
        for method in handler.allowed_methods():
            if method == "OPTIONS":  # CORS preflight, Jupyter's, not part of the API
                continue
            assert any(m == method and handler_of(p) is handler for m, p in documented), (
                f"{method} {pattern} is served but not documented"
            )
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            responses = operation["responses"]
            assert "401" in responses and "403" in responses, (method, path)
            assert any(code.startswith("2") for code in responses), (method, path)


@pytest.mark.parametrize("jp_base_url", ["/", "/jh/user/a%40b/"])
async def test_spec_is_served_with_this_servers_prefix(mcp_lab: LabServer, api: Api, jp_base_url: str) -> None:
    r = await api.get("openapi.yaml")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/yaml")
    served = YAML(typ="safe", pure=True).load(r.text)
    assert served["servers"] == [{"url": f"{jp_base_url}mcp-lab/api"}]
    assert "# The REST + events API" in r.text  # the file as shipped, comments and all
    as_json = await api.ok("GET", "openapi.json")
    assert as_json == json.loads(json.dumps(served))
    original = YAML(typ="safe", pure=True).load(SPEC_FILE.read_text(encoding="utf-8"))
    assert {**served, "servers": original["servers"]} == original


# A JupyterHub-style prefix: the fuzzer must find every route through the served `servers`.
@pytest.mark.parametrize("jp_base_url", ["/jh/user/fuzz/"])
async def test_openapi_fuzz(mcp_lab: LabServer, api: Api, agent: Any, root: Path) -> None:
    # Real records first, so list and detail answers are checked against their schemas too.
    async with agent() as tools:
        [accepted, _, _] = await suggest_replace(tools, "line", "LINE")
        await suggest_replace(tools, "Notes", "Notes (fuzzed)")
    await api.ok("POST", f"suggestions/{accepted}/accept")
    grant = {"scope": "notes/", "agent": "someone", "agentKind": "client", "minutes": 5}
    await api.ok("POST", "grants", grant, expect=201)

    started = time.monotonic()
    failures, sent = await asyncio.to_thread(fuzz, api.url("openapi.yaml"), mcp_lab.auth())
    elapsed = time.monotonic() - started
    assert not failures, "\n\n".join(failures)
    # One fuzzed operation per route and method, most with inputs to make invalid: a run
    # that sent a handful of cases tested nothing.
    print(f"fuzz: {sent} cases in {elapsed:.1f} s")
    assert sent >= 100, sent
    assert elapsed < 60, f"the fuzz run took {elapsed:.0f} s"
