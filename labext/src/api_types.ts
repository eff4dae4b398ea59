// GENERATED from jupyter_mcp_lab/server/openapi.yaml by scripts/openapi: do not edit.
// The JSON bodies of the REST + events API (mcp-lab/api/); the server builds them
// from jupyter_mcp_lab/server/api/models, tests/server/api/test_schema.py fails
// while this file differs from what the script writes.

/**
 * Every error answer: a code to branch on, a message to show, and details by
 * code.
 */
export interface IError {
  error: string;
  message: string;
  /** The argument at fault (INVALID_ARGUMENT). */
  argument?: string;
  [key: string]: unknown;
}

/**
 * The server's endpoints (with client configs), policy and version; who is
 * working now.
 */
export interface IStatus {
  version: string;
  /** Whether the MCP endpoints are serving. */
  running: boolean;
  approval: 'suggest' | 'auto';
  read_only: boolean;
  base_url: string;
  endpoints: IEndpoint[];
  /**
   * The text standing in for the credential in the configs, which the person
   * replaces with an agent key (POST keys answers the configs with a new key in
   * them). The configs never carry the server's token; null only from servers
   * older than agent keys, whose configs carried it.
   */
  tokenPlaceholder: string | null;
  /** Tool calls in the activity log. */
  activity: number;
  /** MCP sessions with tool calls in the last 30 minutes, most recent first. */
  agents: IAgent[];
  /** Pending suggestions on all documents. */
  pending: number;
  store: IStore;
  recovery: IRecovery;
}

/** One MCP surface the server serves (one per profile). */
export interface IEndpoint {
  profile: string;
  path: string;
  url: string;
  /** Ready-to-paste configurations of this endpoint, one per MCP client. */
  configs: IClientConfig[];
}

export interface IClientConfig {
  client: 'claude-code' | 'claude-desktop' | 'vscode' | 'cursor';
  /** The client's name as people know it, e.g. VS Code. */
  label: string;
  /** Where the text goes, e.g. .vscode/mcp.json. */
  where: string;
  /** A shell command or a JSON file's content, pasted as is. */
  text: string;
}

/** An MCP session with tool calls in the last 30 minutes. */
export interface IAgent {
  /** The MCP session id (what a session grant names). */
  session: string;
  /**
   * The agent's identity (what a client grant names): its agent key's name, or
   * the MCP client's own name when the person's Jupyter credential opened the
   * session.
   */
  client: string;
  /**
   * What the MCP client calls itself (shown, not trusted); absent from older
   * servers.
   */
  label?: string;
  user: string;
  /** Unix time of its last tool call. */
  lastActivity: number;
  calls: number;
}

/**
 * The review store (suggestions, checkpoints, grants) in the data directory.
 */
export interface IStore {
  /** The SQLite file, shared by every workspace using this data directory. */
  path: string;
  /** Its size on disk (with its write-ahead log). */
  bytes: number;
  /** This workspace's checkpoints. */
  checkpoints: number;
  /** The bytes of their stored diffs. */
  checkpointBytes: number;
  /** Unix time of the oldest kept; null when none. */
  oldestCheckpoint: number | null;
  retention: IRetention;
  quarantined: IQuarantined;
}

/**
 * What each workspace keeps of its history (MCPLabApp.checkpoint_max_*); 0: no
 * limit.
 */
export interface IRetention {
  /** Checkpoints kept, newest first (and decided suggestions). */
  maxCount: number;
  /** Days a checkpoint, a decided suggestion or an ended grant is kept. */
  maxAgeDays: number;
  /** Bytes of checkpoint diffs kept, newest first. */
  maxBytes: number;
}

/**
 * Records from before stores were kept per workspace that no workspace could
 * prove its own: no server lists or acts on them; retention prunes them.
 */
export interface IQuarantined {
  suggestions: number;
  checkpoints: number;
  grants: number;
}

/**
 * What this server's start found of writes interrupted by a crash (the log says
 * it too).
 */
export interface IRecovery {
  files: IRecoveredFile[];
  /** False when the scan of a huge workspace stopped at its time budget. */
  complete: boolean;
}

/**
 * A leftover of a write a crash interrupted, and what the start did about it.
 */
export interface IRecoveredFile {
  /** The workspace file concerned (root-relative). */
  path: string;
  /**
   * restored: the file was cut and got its last complete version back;
   * removed-temp: an unacknowledged write's temporary file; removed-backup: a
   * backup equal to its file; reported: left as it is for a person to compare.
   */
  action: 'restored' | 'removed-temp' | 'removed-backup' | 'reported';
  detail: string;
  /** Where the file as the crash left it is kept (restored only). */
  kept: string | null;
}

/**
 * One tool call an agent made, or one decision the person made in JupyterLab
 * (`actor`).
 */
export interface IActivityEntry {
  /** Numbers the calls in the order they ended. */
  seq: number;
  /** Unix time the call ended. */
  time: number;
  /** The MCP surface called (lab, vmark, ...). */
  profile: string;
  tool: string;
  /**
   * The agent's identity: its agent key's name, or the MCP client's own name.
   */
  client: string;
  /**
   * What the MCP client calls itself (shown, not trusted); absent from older
   * servers.
   */
  label?: string;
  user: string;
  /** The MCP session id. */
  session: string;
  /** One-line summary (`key='value', ...`); long strings are cut. */
  arguments: string;
  /** `ok`, or the error code the call answered (NOT_FOUND, ...). */
  status: string;
  durationMs: number;
  /**
   * `agent`: an MCP tool call; `person`: a decision made in JupyterLab (accept,
   * reject, reopen, revert, grant, revoke, Allow/Deny), with the person as
   * `client` and `user` and no session.
   */
  actor: 'agent' | 'person';
  /**
   * The arguments as JSON, whole up to 4 KB; past that long strings are cut
   * (`…(N chars)`), then the text (no longer JSON).
   */
  fullArguments: string;
  /**
   * What it answered, up to 1 KB: the start of a success's JSON, or `CODE:
   * message` for an error.
   */
  result: string;
}

export interface IActivityList {
  entries: IActivityEntry[];
  count: number;
  /** The seq of the newest call in the log (0 when empty). */
  latest: number;
}

/**
 * A structural change of one part: a notebook cell or outline row inserted,
 * deleted, moved, or fields set.
 */
export interface IPartChange {
  op: 'insert' | 'delete' | 'move' | 'set';
  /**
   * insert, move: the part it goes after (a row: the sibling under its parent);
   * null: first.
   */
  after: string | null;
  /**
   * insert, move: the position used when `after` is gone (a row: among its
   * parent's children).
   */
  index: number;
  /**
   * A cell's: insert: the new cell (its outputs as `outputCount`); set: the
   * fields set (`cell_type`, `metadata`, outputs as `outputCount`). A row's
   * (the part is its id): `topic` (set: the new one, when it changes; else the
   * row's); insert and move: `parent` (the parent row's id, null: the top
   * level); insert: `note`, `state` and `children` (nested rows, each with
   * `id`, `topic`, `note`, `state`, `children`); set: `note` (empty: removed)
   * and `state` (checked, unchecked, mixed, none).
   */
  fields: Record<string, unknown>;
}

/**
 * The notebook cell a suggestion changes, as the suggestion's base revision has
 * it.
 */
export interface ISuggestedCell {
  /** Its 0-based position among the notebook's cells. */
  index: number;
  cellType: 'code' | 'markdown' | 'raw';
  /** How many outputs it has (0 for markdown and raw cells). */
  outputCount: number;
  /** Its `metadata.tags`. */
  tags: string[];
}

/**
 * A change an agent proposed: `original` (`start`..`end` of the base text)
 * becomes `new`.
 */
export interface ISuggestion {
  id: string;
  /** The document: a root-relative path, or an untitled key. */
  path: string;
  /** insert, replace, delete, move, ... */
  kind: string;
  /** Code point offset in the base revision. */
  start: number;
  end: number;
  original: string;
  new: string;
  baseRevision: string;
  /** The MCP client's name. */
  author: string;
  user: string;
  session: string;
  rationale: string;
  operation: string;
  /** Set when one change was split into hunks. */
  group: string | null;
  created: number;
  status: 'pending' | 'accepted' | 'rejected' | 'conflict';
  decided: number | null;
  decidedBy: string | null;
  resultRevision: string | null;
  /** Why it conflicted. */
  reason: string | null;
  lineStart: number;
  lineEnd: number;
  /**
   * Set for a change to one part of a structured document: the notebook cell or
   * outline row id. Then `start`, `end`, `original`, `new`, `lineStart`,
   * `lineEnd`, `currentStart` and `currentEnd` are in that part's text (a
   * row's: its topic), and `change` (when set) is a structural change of that
   * part.
   */
  part?: string | null;
  /** A part's structural change; null for a text change. */
  change?: IPartChange | null;
  /**
   * Only in a list answered with `locate=true`: the code point offset of its
   * original text in the document as the server reads it now (the list's
   * `revision` with `path`); null when it is not pending or cannot be placed
   * (its text changed: accepting it would conflict).
   */
  currentStart?: number | null;
  /** With `currentStart`: the end (exclusive). */
  currentEnd?: number | null;
  /**
   * Only in a list answered with `context=N`: the text from the start of the
   * line N lines above the change to the change (so `contextBefore + original +
   * contextAfter` are whole lines). It is the current text where a list
   * answered with `locate=true` placed the suggestion (`currentStart`), else
   * the base text; null once the base text is gone.
   */
  contextBefore?: string | null;
  /**
   * With `contextBefore`: the same text from the change to the end of the line
   * N lines below it (its line break included).
   */
  contextAfter?: string | null;
  /**
   * Only in a list answered with `context=N` and in `suggestions/{id}`, for a
   * notebook cell's change: that cell as the base revision has it (a reviewer
   * reads "cell 3, code, 2 outputs"); null for an inserted cell
   * (`change.fields` is the new cell), for other documents, or once the base
   * text is gone.
   */
  cell?: ISuggestedCell | null;
}

export interface ISuggestionDetail {
  id: string;
  /** The document: a root-relative path, or an untitled key. */
  path: string;
  /** insert, replace, delete, move, ... */
  kind: string;
  /** Code point offset in the base revision. */
  start: number;
  end: number;
  original: string;
  new: string;
  baseRevision: string;
  /** The MCP client's name. */
  author: string;
  user: string;
  session: string;
  rationale: string;
  operation: string;
  /** Set when one change was split into hunks. */
  group: string | null;
  created: number;
  status: 'pending' | 'accepted' | 'rejected' | 'conflict';
  decided: number | null;
  decidedBy: string | null;
  resultRevision: string | null;
  /** Why it conflicted. */
  reason: string | null;
  lineStart: number;
  lineEnd: number;
  /**
   * Set for a change to one part of a structured document: the notebook cell or
   * outline row id. Then `start`, `end`, `original`, `new`, `lineStart`,
   * `lineEnd`, `currentStart` and `currentEnd` are in that part's text (a
   * row's: its topic), and `change` (when set) is a structural change of that
   * part.
   */
  part?: string | null;
  /** A part's structural change; null for a text change. */
  change?: IPartChange | null;
  /**
   * Only in a list answered with `locate=true`: the code point offset of its
   * original text in the document as the server reads it now (the list's
   * `revision` with `path`); null when it is not pending or cannot be placed
   * (its text changed: accepting it would conflict).
   */
  currentStart?: number | null;
  /** With `currentStart`: the end (exclusive). */
  currentEnd?: number | null;
  /**
   * Only in a list answered with `context=N`: the text from the start of the
   * line N lines above the change to the change (so `contextBefore + original +
   * contextAfter` are whole lines). It is the current text where a list
   * answered with `locate=true` placed the suggestion (`currentStart`), else
   * the base text; null once the base text is gone.
   */
  contextBefore?: string | null;
  /**
   * With `contextBefore`: the same text from the change to the end of the line
   * N lines below it (its line break included).
   */
  contextAfter?: string | null;
  /**
   * Only in a list answered with `context=N` and in `suggestions/{id}`, for a
   * notebook cell's change: that cell as the base revision has it (a reviewer
   * reads "cell 3, code, 2 outputs"); null for an inserted cell
   * (`change.fields` is the new cell), for other documents, or once the base
   * text is gone.
   */
  cell?: ISuggestedCell | null;
  /**
   * Unified diff (3 lines of context) against its base text; null once that
   * text is gone.
   */
  diff: string | null;
}

export interface ISuggestionList {
  suggestions: ISuggestion[];
  count: number;
  /**
   * Only with `locate=true`: the revision of the text of `path` that
   * `currentStart` and `currentEnd` index into; null without `path`, or when
   * that document cannot be read (no such file, not UTF-8 text: then nothing is
   * placed).
   */
  revision?: string | null;
  /**
   * Every document's suggestions by status, {path: {status: n}}, whatever the
   * filters.
   */
  counts: Record<string, Record<string, number>>;
}

/**
 * A document's pending suggestions (`path`), the ones named (`ids`), or the
 * named ones on that document (both).
 */
export interface ISelection {
  path?: string;
  ids?: string[];
}

export interface IAcceptAllResult {
  accepted: ISuggestion[];
  conflicts: ISuggestion[];
  /** The last changed document's revision; null when nothing was applied. */
  revision: string | null;
}

export interface IRejectAllResult {
  rejected: ISuggestion[];
}

/**
 * Where re-applying a suggestion would stage its change in the current text,
 * and what it would put there.
 */
export interface IReapplyPreview {
  suggestionId: string;
  path: string;
  /** The document's revision the preview was made against. */
  revision: string;
  /** Code point offset in that revision. */
  start: number;
  end: number;
  lineStart: number;
  lineEnd: number;
  /** The text there now: what the new suggestion would replace. */
  current: string;
  /** What it would put there. */
  new: string;
  /**
   * True when the person's edits there and the suggestion's change were both
   * kept; false when they overlap and the suggestion's version of that stretch
   * replaces the person's.
   */
  clean: boolean;
  /** The current text from the start of the line 2 lines above. */
  contextBefore: string;
  /** The current text to the end of the line 2 lines below. */
  contextAfter: string;
}

/**
 * Re-apply a suggestion; with `expectedRevision` only onto the text a preview
 * showed.
 */
export interface IReapply {
  /** STALE (409) when the document is no longer at this revision. */
  expectedRevision?: string;
}

export interface IReapplyResult {
  /** The suggestion re-applied, now rejected (its reason names the new one). */
  previous: ISuggestion;
  /** The new pending suggestion against the current text. */
  suggestion: ISuggestion;
}

/**
 * One cell a notebook checkpoint changed, in the shape of a cell suggestion's
 * fields.
 */
export interface ICheckpointCellChange {
  /** The cell's id. */
  part: string;
  /**
   * insert (`fields`: the new cell, its source cut), delete, move (`index`:
   * where it went), set (`fields`: `cell_type`, `metadata` as its `tags`,
   * `outputCount` and `execution_count` when outputs changed); null for a
   * source edit.
   */
  change: IPartChange | null;
  /** The cell before the change; null for an added one. */
  cell: ISuggestedCell | null;
  /** A source edit's changed lines before (a removed cell: its source). */
  original: string;
  /** A source edit's changed lines after. */
  new: string;
  /** A source edit's first changed line in the cell. */
  lineStart: number;
  lineEnd: number;
  /** The lines before the changed ones (up to 2). */
  contextBefore: string;
  /** The lines after them (up to 2). */
  contextAfter: string;
}

/** A notebook checkpoint's change told by cell, in notebook order. */
export interface ICheckpointCells {
  /** At most 20; texts cut at 4,000 characters. */
  changes: ICheckpointCellChange[];
  /** How many more cell changes there were. */
  more: number;
}

/** An applied agent change as stored (and as `checkpoint` events carry it). */
export interface ICheckpointRecord {
  id: string;
  path: string;
  beforeRevision: string;
  afterRevision: string;
  /**
   * Code point offset of the change (of its first place) in the text before it.
   */
  start: number;
  /**
   * The text the change replaced. A change in several places far apart in a
   * long document lists each place's text, joined by "\n…\n" (the diff of
   * `checkpoints/{id}` shows them in context).
   */
  old: string;
  /** The text it put there (several places joined the same way). */
  new: string;
  author: string;
  user: string;
  session: string;
  source: 'auto' | 'accepted' | 'grant' | 'revert' | 'person';
  suggestionId: string | null;
  grantId: string | null;
  created: number;
  /** The checkpoint that reverted this one. */
  revertedBy: string | null;
  label: string;
  /**
   * The agent's rationale (an accepted suggestion's); "" when none was
   * recorded.
   */
  rationale: string;
  /**
   * A notebook's change told by cell (added, removed, moved, source edited,
   * type, tags or outputs set); null for other documents, a change to no cell,
   * and checkpoints made before cells were recorded.
   */
  cells: ICheckpointCells | null;
}

/** An applied agent change with the lines it touched. */
export interface ICheckpoint {
  id: string;
  path: string;
  beforeRevision: string;
  afterRevision: string;
  /**
   * Code point offset of the change (of its first place) in the text before it.
   */
  start: number;
  /**
   * The text the change replaced. A change in several places far apart in a
   * long document lists each place's text, joined by "\n…\n" (the diff of
   * `checkpoints/{id}` shows them in context).
   */
  old: string;
  /** The text it put there (several places joined the same way). */
  new: string;
  author: string;
  user: string;
  session: string;
  source: 'auto' | 'accepted' | 'grant' | 'revert' | 'person';
  suggestionId: string | null;
  grantId: string | null;
  created: number;
  /** The checkpoint that reverted this one. */
  revertedBy: string | null;
  label: string;
  /**
   * The agent's rationale (an accepted suggestion's); "" when none was
   * recorded.
   */
  rationale: string;
  /**
   * A notebook's change told by cell (added, removed, moved, source edited,
   * type, tags or outputs set); null for other documents, a change to no cell,
   * and checkpoints made before cells were recorded.
   */
  cells: ICheckpointCells | null;
  /**
   * First line the change touched (in the text after it); null once the stored
   * texts are pruned.
   */
  lineStart: number | null;
  lineEnd: number | null;
}

export interface ICheckpointDetail {
  id: string;
  path: string;
  beforeRevision: string;
  afterRevision: string;
  /**
   * Code point offset of the change (of its first place) in the text before it.
   */
  start: number;
  /**
   * The text the change replaced. A change in several places far apart in a
   * long document lists each place's text, joined by "\n…\n" (the diff of
   * `checkpoints/{id}` shows them in context).
   */
  old: string;
  /** The text it put there (several places joined the same way). */
  new: string;
  author: string;
  user: string;
  session: string;
  source: 'auto' | 'accepted' | 'grant' | 'revert' | 'person';
  suggestionId: string | null;
  grantId: string | null;
  created: number;
  /** The checkpoint that reverted this one. */
  revertedBy: string | null;
  label: string;
  /**
   * The agent's rationale (an accepted suggestion's); "" when none was
   * recorded.
   */
  rationale: string;
  /**
   * A notebook's change told by cell (added, removed, moved, source edited,
   * type, tags or outputs set); null for other documents, a change to no cell,
   * and checkpoints made before cells were recorded.
   */
  cells: ICheckpointCells | null;
  /**
   * First line the change touched (in the text after it); null once the stored
   * texts are pruned.
   */
  lineStart: number | null;
  lineEnd: number | null;
  /** Unified diff of old → new (with context while the text is stored). */
  diff: string;
}

export interface ICheckpointList {
  checkpoints: ICheckpoint[];
  count: number;
}

/** A trust grant as stored (and as `grant` events carry it). */
export interface IGrantRecord {
  id: string;
  /** A file, a folder ending in "/", or "" for the whole workspace. */
  scope: string;
  agent: string;
  agentKind: 'session' | 'client';
  created: number;
  expires: number;
  createdBy: string;
  revoked: number | null;
}

/** A trust grant and whether it is active now. */
export interface IGrant {
  id: string;
  /** A file, a folder ending in "/", or "" for the whole workspace. */
  scope: string;
  agent: string;
  agentKind: 'session' | 'client';
  created: number;
  expires: number;
  createdBy: string;
  revoked: number | null;
  active: boolean;
}

export interface IGrantList {
  grants: IGrant[];
}

export interface INewGrant {
  /**
   * Root-relative file or folder ("notes/": everything below it), or "" for the
   * whole workspace. A leading "/" is ignored; ".." segments are refused.
   */
  scope: string;
  /**
   * An MCP session id (agentKind session), or an agent key's name (agentKind
   * client; for a session the person's own Jupyter credential opened, the MCP
   * client's name).
   */
  agent: string;
  agentKind: 'session' | 'client';
  minutes: number;
}

/**
 * A key a person issued to one agent: it opens the MCP endpoints, and nothing
 * else.
 */
export interface IAgentKey {
  /** The agent's identity: authorship, activity and grants go by it. */
  name: string;
  /** Public part of the key (its secret starts jml_<id>_). */
  id: string;
  created: number;
  createdBy: string;
  /** Unix time it stops working; null: never. */
  expires: number | null;
  /** The MCP profiles it opens; null: every one this server serves. */
  profiles: string[] | null;
  /** Unix time of its last use (written every 30 s or so). */
  lastUsed: number | null;
  revoked: number | null;
  state: 'active' | 'expired' | 'revoked';
}

export interface IKeyList {
  /** Oldest first. */
  keys: IAgentKey[];
}

/** A new key: its secret is in this answer and nowhere else (stored hashed). */
export interface IIssuedKey {
  key: IAgentKey;
  /** Send it as `Authorization: Bearer <secret>`. Shown once. */
  secret: string;
  /** The key of that name it replaced (now revoked), if any. */
  replaced: IAgentKey | null;
  /** Each endpoint with client configs carrying this key. */
  endpoints: IEndpoint[];
}

export interface INewKey {
  /**
   * The agent's name, e.g. claude-code: 1-64 letters, digits, '.', '_' or '-'.
   */
  name: string;
  /** Days until it expires; leave out: never. */
  days?: number | null;
  /** The MCP profiles it opens; leave out: every one. */
  profiles?:
    | ('lab' | 'vmark' | 'vmark2' | 'outliner' | 'jupyter' | 'conformance')[]
    | null;
  /** Replace (revoke) a live key of that name instead of answering 409. */
  replace?: boolean;
}

export interface IHeading {
  /** The heading's node id (h-0, h-1, ...). */
  id: string;
  level: number;
  title: string;
  /** The heading's line (1-based). */
  line: number;
  /**
   * The last line of its section (before the next heading of the same or a
   * higher level).
   */
  lineEnd: number;
}

/**
 * One row of an OPML outline or of a markdown document's outline view, as the
 * outline tools read it.
 */
export interface IOutlineRow {
  /** The row's id: stable across edits (a suggestion's `part` names it). */
  id: string;
  topic: string;
  /** The row's note; null when it has none. */
  note: string | null;
  /**
   * Its checkbox (mixed: derived from children that differ); none: no checkbox.
   */
  state: 'checked' | 'unchecked' | 'mixed' | 'none';
  /** 0 for a top-level row. */
  level: number;
  /** The parent row's id; null at the top level. */
  parent: string | null;
  /** The ids of its children, in order. */
  children: string[];
}

/**
 * A document's kind, headings (markdown) and rows (OPML outlines, markdown
 * outline views) at its revision.
 */
export interface IOutline {
  /** The document's root-relative path. */
  path: string;
  /** Node ids, row ids and lines are valid for this revision. */
  revision: string;
  kind: 'markdown' | 'outline' | 'notebook' | 'yaml-workflow' | 'text';
  /** In document order; empty for a kind other than markdown. */
  headings: IHeading[];
  /**
   * An OPML outline's rows, or a markdown document's (its headings and list
   * items, task items with their checkbox), in document order (each before its
   * children, so a flat list however deep it nests); empty for a kind other
   * than outline and markdown.
   */
  rows: IOutlineRow[];
}

/** This API's OpenAPI document. */
export interface IOpenAPIDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The first event of every stream (type `stream`, no id): what the replay
 * covers.
 */
export interface IStreamStart {
  /** The replay covers the ids after this one ... */
  after: number;
  /** ... up to this one; later ids are live. */
  latest: number;
}

/**
 * Sent (type `resync`) when the stream cannot give the client every event since
 * its position: fetch the lists again (suggestions, checkpoints, grants). Right
 * after `stream` its id is `latest`, where the client then stands; a later one
 * (fell-behind) has none.
 */
export interface IResync {
  /**
   * new: no position was given; expired: events after it left the replay
   * buffer; restarted: it is past the newest id (the server restarted);
   * too-large: the replay would exceed its limit; fell-behind: this stream read
   * too slowly and live events were dropped.
   */
  reason: 'new' | 'expired' | 'restarted' | 'too-large' | 'fell-behind';
}

export interface ISuggestionEvent {
  /** The stream's event id (also the SSE `id:`). */
  id: number;
  type: 'suggestion';
  action: 'created' | 'accepted' | 'rejected' | 'conflict' | 'reopened';
  suggestion: ISuggestion;
}

export interface ICheckpointEvent {
  /** The stream's event id (also the SSE `id:`). */
  id: number;
  type: 'checkpoint';
  action: 'created';
  checkpoint: ICheckpointRecord;
}

export interface IGrantEvent {
  /** The stream's event id (also the SSE `id:`). */
  id: number;
  type: 'grant';
  action: 'created' | 'revoked';
  grant: IGrantRecord;
}

/**
 * A document changed through the review service (an applied or reverted
 * change).
 */
export interface IDocumentEvent {
  /** The stream's event id (also the SSE `id:`). */
  id: number;
  type: 'document';
  path: string;
  /** The document's revision after the change. */
  revision: string;
}

/**
 * A tool call ended (live only: never replayed; `GET activity` has the past
 * ones).
 */
export interface IActivityEvent {
  /** The stream's event id (also the SSE `id:`). */
  id: number;
  type: 'activity';
  entry: IActivityEntry;
}

/**
 * The `data` of an event on `GET events`, by its `type` (the SSE `event:`
 * name).
 */
export type ServerEvent =
  | ISuggestionEvent
  | ICheckpointEvent
  | IGrantEvent
  | IDocumentEvent
  | IActivityEvent;

/** The JSON body each operation answers on success, by its operationId. */
export interface IApiResponses {
  getStatus: IStatus;
  listSuggestions: ISuggestionList;
  acceptAllSuggestions: IAcceptAllResult;
  rejectAllSuggestions: IRejectAllResult;
  getSuggestion: ISuggestionDetail;
  acceptSuggestion: ISuggestion;
  rejectSuggestion: ISuggestion;
  reopenSuggestion: ISuggestion;
  previewReapply: IReapplyPreview;
  reapplySuggestion: IReapplyResult;
  listCheckpoints: ICheckpointList;
  getCheckpoint: ICheckpointDetail;
  revertCheckpoint: ICheckpoint;
  listGrants: IGrantList;
  createGrant: IGrant;
  revokeGrant: IGrant;
  listKeys: IKeyList;
  issueKey: IIssuedKey;
  revokeKey: IAgentKey;
  listActivity: IActivityList;
  getOutline: IOutline;
  getOpenAPIJson: IOpenAPIDocument;
}

/** Any JSON body the API answers on success. */
export type ApiResponse = IApiResponses[keyof IApiResponses];

/** The JSON body each operation takes, by its operationId. */
export interface IApiRequests {
  acceptAllSuggestions: ISelection;
  rejectAllSuggestions: ISelection;
  reapplySuggestion: IReapply;
  createGrant: INewGrant;
  issueKey: INewKey;
}
