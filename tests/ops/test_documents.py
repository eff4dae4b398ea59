"""The one document resolver (``ops.documents``): its rules and its errors, on a workspace
with two windows, without a surface in between."""

from __future__ import annotations

from pathlib import Path

import pytest

from jupyter_mcp_lab.core.errors import DomainError
from jupyter_mcp_lab.core.workspace import Window
from jupyter_mcp_lab.ops import documents
from jupyter_mcp_lab.ops.context import Caller, OpContext
from tests.helpers import make_services


def context(services, session: str) -> OpContext:
    return OpContext(services, Caller("u", "U", "agent", "1", session, "lab"))


async def test_targets_resolve_by_path_tab_window_or_focus(tmp_path: Path) -> None:
    services = make_services(tmp_path)
    root = services.settings.root_dir
    for name in ("a", "b", "c"):
        (root / f"{name}.md").write_text(f"{name}\n")
    services.workspace.windows["lab-1"] = Window("lab-1", client="c-1")
    one, two = context(services, "s-1"), context(services, "s-2")
    main, lab = services.workspace.windows["main"], services.workspace.windows["lab-1"]
    a = services.workspace.show(await services.docs.open("a.md"), main, "s-1")
    b = services.workspace.show(await services.docs.open("b.md"), lab, "s-1")
    c = services.workspace.show(await services.docs.open("c.md"), lab, "s-1")
    documents.focus_on(one, b)

    assert (await documents.resolve(one))[1] is b  # the session's focus
    assert (await documents.resolve(one, window_id="lab-1"))[1] is b  # what lab-1 shows s-1
    assert (await documents.resolve(two, window_id="lab-1"))[1] is c  # ... and s-2: its last tab
    assert (await documents.resolve(one, window_id="main"))[1] is a
    assert (await documents.resolve(one, window_id=c.id))[1] is c  # a tab id names that tab
    assert (await documents.resolve(one, tab_id=a.id, window_id="main"))[1] is a
    doc, tab = await documents.resolve(one, tab_id=a.id, path="c.md")  # a path wins, without a tab
    assert (doc.path, tab) == ("c.md", None)
    assert documents.window(one, a.id) is main
    assert services.workspace.focus("s-1").tab == b.id  # naming a window moved nothing

    with pytest.raises(DomainError) as err:
        documents.tab(one, a.id, "lab-1")
    assert (err.value.code, err.value.details) == ("INVALID_TAB", {"tabId": a.id, "windowId": "lab-1"})
    with pytest.raises(DomainError) as err:
        documents.window(one, "nowhere", "windowLabel")
    assert err.value.code == "INVALID_TAB" and "main, lab-1" in err.value.message
    assert err.value.details == {"argument": "windowLabel", "window": "nowhere"}
    with pytest.raises(DomainError) as err:
        await documents.resolve(two)  # s-2 focused nothing
    assert err.value.code == "INVALID_TAB" and "tabId" in err.value.message
    services.workspace.windows["lab-2"] = Window("lab-2", client="c-2")
    with pytest.raises(DomainError) as err:
        documents.tab(one, None, "lab-2")
    assert err.value.code == "INVALID_TAB" and "shows no document" in err.value.message
    assert "_" not in err.value.message  # no tool of one profile named
