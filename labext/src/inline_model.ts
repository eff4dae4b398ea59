/**
 * Inline review, the pure part: where pending suggestions go in an editor's
 * text, and what to draw there. No JupyterLab, CodeMirror or DOM imports, so
 * it runs in plain Node (jest).
 *
 * The server places each pending suggestion in the document as it reads it now
 * (`GET suggestions?path=&locate=true`: `currentStart`/`currentEnd` in Unicode
 * code points, and that text's `revision`). The editor counts UTF-16 units and
 * may hold text the server has not seen (unsaved typing): when its text is the
 * server's (same revision) the converted range is exact; otherwise a range is
 * used only where it still holds the suggestion's original text, else the
 * original is looked for near its line, else the suggestion is not shown
 * inline (the panel still lists it).
 */
import type { ISuggestion, ISuggestionList } from './api_types';
import { normalizePath } from './documents';
import { codePointsToUtf16 } from './offsets';

/**
 * A suggestion as `GET suggestions?locate=true` answers it: `currentStart` and
 * `currentEnd` are always there (the code point offsets of its original text
 * in the server's text, or null).
 */
export type ILocatedSuggestion = ISuggestion &
  Required<Pick<ISuggestion, 'currentStart' | 'currentEnd'>>;

/**
 * `GET suggestions?path=&locate=true`: located suggestions and the revision of
 * the text the offsets index into (null: unreadable).
 */
export type ILocatedList = ISuggestionList & {
  suggestions: ILocatedSuggestion[];
  revision: Exclude<ISuggestionList['revision'], undefined>;
};

/** The REST route (below `mcp-lab/api/`) for one document's located suggestions. */
export function locateEndpoint(path: string): string {
  return (
    'suggestions?status=pending&locate=true&path=' + encodeURIComponent(path)
  );
}

/** How many lines around its expected line an original text is looked for. */
export const NEAR_LINES = 20;

// ---------------------------------------------------------------- lines

/** The 1-based line a UTF-16 offset is on. */
export function lineAt(text: string, offset: number): number {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < end;) {
    line++;
    i = text.indexOf('\n', i + 1);
  }
  return line;
}

/** The UTF-16 offset where a 1-based line starts (clamped to the text). */
export function lineStartOffset(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) {
      return text.length;
    }
    offset = next + 1;
  }
  return offset;
}

/**
 * Where `needle` occurs in `text` starting on a line within `radius` lines of
 * `line`, nearest to `hint` first (then earlier first). Empty needles have no
 * place of their own: none.
 */
export function occurrencesNear(
  text: string,
  needle: string,
  hint: number,
  line: number,
  radius = NEAR_LINES
): number[] {
  if (!needle) {
    return [];
  }
  const from = lineStartOffset(text, Math.max(1, line - radius));
  const last = lineStartOffset(text, line + radius + 1); // start of the line after the window
  const found: number[] = [];
  for (
    let at = text.indexOf(needle, from);
    at >= 0 && at < last;
    at = text.indexOf(needle, at + 1)
  ) {
    found.push(at);
  }
  return found.sort((a, b) => Math.abs(a - hint) - Math.abs(b - hint) || a - b);
}

/** The occurrence of `needle` nearest to `hint` near `line`, or null. */
export function findNear(
  text: string,
  needle: string,
  hint: number,
  line: number,
  radius = NEAR_LINES
): number | null {
  return occurrencesNear(text, needle, hint, line, radius)[0] ?? null;
}

// ---------------------------------------------------------------- placing

/** A suggestion placed in the editor's text (UTF-16 offsets). */
export interface IInlineItem {
  id: string;
  /** Where its original text is in the editor now. */
  from: number;
  to: number;
  original: string;
  /** The text it would put there. */
  insert: string;
  author: string;
  rationale: string;
  /** A decision on it is in flight. */
  busy?: boolean;
}

/** What placing found: the items to show, and the ids shown nowhere. */
export interface IPlacement {
  items: IInlineItem[];
  hidden: string[];
}

/**
 * Place the located pending suggestions in the editor's `text`. `sameText`
 * says whether that text is the one the server located them in (its revision
 * is the list's): asked at most once, and only when it matters.
 */
export function placeSuggestions(
  text: string,
  list: Pick<ILocatedList, 'suggestions' | 'revision'>,
  sameText: () => boolean
): IPlacement {
  // A notebook cell's change is placed in its cell's text, not in the file's.
  const pending = (list.suggestions ?? []).filter(
    s =>
      !s.part &&
      s.status === 'pending' &&
      typeof s.currentStart === 'number' &&
      typeof s.currentEnd === 'number'
  );
  const offsets = codePointsToUtf16(
    text,
    pending.flatMap(s => [s.currentStart as number, s.currentEnd as number])
  );
  let same: boolean | null = null;
  const exact = () => {
    if (same === null) {
      same = list.revision !== null && sameText();
    }
    return same;
  };
  const items: IInlineItem[] = [];
  const taken = new Set<string>();
  pending.forEach((s, i) => {
    const from = offsets[2 * i];
    const to = offsets[2 * i + 1];
    const fits =
      from !== null &&
      to !== null &&
      from <= to &&
      text.slice(from, to) === s.original;
    let at: number | null = null;
    if (fits && (s.original !== '' || exact())) {
      at = from;
    } else if (s.original !== '' && !exact()) {
      // Unsaved edits moved it: the nearest free copy of its text near its line.
      const hint = from ?? lineStartOffset(text, s.lineStart);
      const line = from !== null ? lineAt(text, from) : s.lineStart;
      at =
        occurrencesNear(text, s.original, hint, line).find(
          start => !taken.has(`${start}:${start + s.original.length}`)
        ) ?? null;
    }
    if (at === null) {
      return;
    }
    const end = at + s.original.length;
    taken.add(`${at}:${end}`);
    items.push({
      id: s.id,
      from: at,
      to: end,
      original: s.original,
      insert: s.new,
      author: s.author,
      rationale: s.rationale
    });
  });
  items.sort((a, b) => a.from - b.from || a.to - b.to);
  const shown = new Set(items.map(item => item.id));
  const hidden = (list.suggestions ?? [])
    .filter(s => s.status === 'pending' && !shown.has(s.id))
    .map(s => s.id);
  return { items, hidden };
}

/**
 * The items after a change to the editor's text: each range follows the
 * change (text typed at its start pushes it along, at its end leaves it); an
 * item whose range no longer holds its original text is dropped until the
 * next refresh places it again (or not).
 *
 * @param mapPos maps an old position (`assoc` -1: stay before text inserted
 *   there, 1: move after it), e.g. CodeMirror's `ChangeSet.mapPos`
 * @param slice the new text between two new positions
 */
export function mapItems(
  items: readonly IInlineItem[],
  mapPos: (pos: number, assoc: number) => number,
  slice: (from: number, to: number) => string
): IInlineItem[] {
  const out: IInlineItem[] = [];
  for (const item of items) {
    const from = mapPos(item.from, 1);
    const to = item.to === item.from ? from : mapPos(item.to, -1);
    if (to >= from && slice(from, to) === item.original) {
      out.push(
        from === item.from && to === item.to ? item : { ...item, from, to }
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------- drawing

/** The tooltip of an item's decorations and buttons: author and rationale. */
export function titleOf(item: Pick<IInlineItem, 'author' | 'rationale'>) {
  const who = `Suggested by ${item.author || 'an agent'}`;
  return item.rationale ? `${who}: ${item.rationale}` : who;
}

/** What to draw for one item. */
export type DecorationSpec =
  | {
      /** The original text, struck through (a mark over [from, to)). */
      kind: 'del';
      id: string;
      from: number;
      to: number;
      title: string;
    }
  | {
      /**
       * The new text as a ghost after the original (not part of the
       * document) with the Accept / Reject buttons.
       */
      kind: 'ins';
      id: string;
      at: number;
      text: string;
      title: string;
      busy: boolean;
    };

/** The decorations of the items, in document order (a mark before its ghost). */
export function decorationSpecs(
  items: readonly IInlineItem[]
): DecorationSpec[] {
  const specs: DecorationSpec[] = [];
  for (const item of items) {
    const title = titleOf(item);
    if (item.to > item.from) {
      specs.push({
        kind: 'del',
        id: item.id,
        from: item.from,
        to: item.to,
        title
      });
    }
    specs.push({
      kind: 'ins',
      id: item.id,
      at: item.to,
      text: item.insert,
      title,
      busy: !!item.busy
    });
  }
  const position = (s: DecorationSpec) => (s.kind === 'del' ? s.from : s.at);
  return specs.sort(
    (a, b) =>
      position(a) - position(b) ||
      (a.kind === b.kind ? 0 : a.kind === 'del' ? -1 : 1)
  );
}

/** The path of a server event (suggestion, document, checkpoint), or null. */
export function eventPath(data: any): string | null {
  const path =
    data?.suggestion?.path ?? data?.checkpoint?.path ?? data?.path ?? null;
  return typeof path === 'string' ? normalizePath(path) : null;
}
