"""VMark's workspace and tab tools: windows, documents, tabs."""

from __future__ import annotations

from .common import tool

WORKSPACE_TOOLS = (
    tool(
        "workspace_list_windows",
        "windows.list",
        "List the open windows (connected JupyterLab clients, or 'main'): {windows: [{label, title, filePath, "
        "isFocused, isAiExposed}], count}.",
    ),
    tool("workspace_get_focused", "windows.focused", "Get your focused window's label: {label, activeTabId}."),
    tool(
        "workspace_focus_window",
        "workspace.focus_window",
        "Focus a window (its last tab becomes your active tab): {windowLabel, tabId}.",
        rename={"windowLabel": "windowId"},
    ),
    tool(
        "workspace_new_document",
        "workspace.new_document",
        "Create a new empty markdown document in your focused window: {tabId, windowId, title}. Save it with "
        "workspace_save_document_as.",
    ),
    tool(
        "workspace_open_document",
        "workspace.open",
        "Open a document from the workspace (path relative to the Jupyter root) in your focused window: "
        "{tabId, filePath, revision, kind}.",
        rename={"filePath": "path"},
        hidden=frozenset({"windowLabel"}),
    ),
    tool(
        "workspace_save_document",
        "windows.save",
        "Save the window's document to its file: {filePath, revision}.",
    ),
    tool(
        "workspace_save_document_as",
        "windows.save_as",
        "Save the window's document to a new path (relative to the Jupyter root; an existing file is refused "
        "with CONFLICT): {filePath, revision, tabId}.",
        rename={"filePath": "path"},
    ),
    tool(
        "workspace_get_document_info",
        "windows.document_info",
        "Get the window's document metadata: {filePath, isDirty, title, wordCount, charCount, revision}.",
    ),
    tool(
        "workspace_close_window",
        "windows.close",
        "Close a window's documents (default: the focused window); tabs with unsaved changes stay open: "
        "{closed, closedTabs, dirtyTabs}.",
    ),
    tool(
        "workspace_list_recent_files",
        "workspace.recent",
        "List recently opened files, most recent first (up to 10): {files: [{path, name, timestamp}], count}.",
    ),
    tool(
        "workspace_get_info",
        "workspace.info",
        "Get the workspace: {isWorkspaceMode, rootPath, workspaceName} (the Jupyter root directory).",
    ),
)

TAB_TOOLS = (
    tool("tabs_list", "tabs.list", "List a window's tabs: {tabs: [{id, title, filePath, isDirty, isActive}], count}."),
    tool(
        "tabs_get_active",
        "tabs.get",
        "Get a window's active tab: {id, title, filePath, isDirty, isActive}.",
        hidden=frozenset({"tabId"}),
    ),
    tool("tabs_switch", "tabs.switch", "Switch to a tab (it becomes the window's active tab, the window focused)."),
    tool(
        "tabs_close",
        "tabs.close",
        "Close a tab (default: the active tab); unsaved changes keep it open: {tabId, closed, reason?}.",
    ),
    tool("tabs_create", "tabs.create", "Create a new empty tab in a window: {tabId}."),
    tool(
        "tabs_get_info",
        "tabs.get",
        "Get a tab's details (default: the active tab): {id, title, filePath, isDirty, isActive}.",
    ),
    tool(
        "tabs_reopen_closed",
        "tabs.reopen_closed",
        "Reopen the most recently closed tab of a window (the last 10 are kept): {tabId, filePath, title}, or "
        "{reopened: false, message: 'No closed tabs to reopen'}.",
    ),
)
