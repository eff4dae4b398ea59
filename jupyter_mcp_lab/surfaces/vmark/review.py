"""VMark's suggestion tools, on the window's document."""

from __future__ import annotations

from .common import tool

SUGGESTION_TOOLS = (
    tool(
        "suggestion_list",
        "review.window_list",
        "List the pending suggestions on the window's document: {suggestions: [{id, type, from, to, newContent, "
        "originalContent}], count, focusedId}.",
    ),
    tool(
        "suggestion_accept",
        "review.accept_one",
        "Accept a suggestion (applies it). Under the server's review policy a person decides: without their "
        "grant this answers APPROVAL_REQUIRED.",
    ),
    tool("suggestion_reject", "review.reject_one", "Reject a suggestion (your own may always be withdrawn)."),
    tool(
        "suggestion_accept_all",
        "review.accept_window",
        "Accept all pending suggestions on the window's document in document order (APPROVAL_REQUIRED without "
        "a person's grant under the review policy): {count, suggestionIds, conflictIds}.",
    ),
    tool("suggestion_reject_all", "review.reject_window", "Reject all pending suggestions on the window's document."),
)
