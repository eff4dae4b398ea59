"""VMark's structure tools: revision, syntax tree, digest, blocks, targets, sections."""

from __future__ import annotations

from .common import tool

REVISION_TOOL = tool(
    "get_document_revision",
    "protocol.revision",
    "Get the window's document revision for optimistic locking: {revision, hash, timestamp}. Pass revision "
    "as baseRevision.",
)

STRUCTURE_TOOLS = (
    tool(
        "get_document_ast",
        "document.ast",
        "Get the document's syntax tree: {type: 'doc', children: [{type, nodeId, from, to, content, attrs, "
        "children}]}.",
    ),
    tool(
        "get_document_digest",
        "document.digest",
        "Get a compact digest: {title, sections[], headingCount, paragraphCount, wordCount, blockCounts}.",
    ),
    tool(
        "list_blocks",
        "document.list_blocks",
        "List the blocks with their node ids: {blocks: [{nodeId, type, level?, content, position}], count}. Ids "
        "use prefixes h- (heading), p- (paragraph), code-, table-, list-, bq-, hr-, math-.",
    ),
    tool(
        "resolve_targets",
        "document.resolve_targets",
        "Resolve node ids, section titles or text to positions: {results: [{target, found, from?, to?, type?}]}.",
    ),
    tool(
        "get_section",
        "document.section",
        "Get a section (heading to the next heading of the same or a higher level): {nodeId, level, title, "
        "content, from, to}.",
    ),
)
