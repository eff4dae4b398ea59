/**
 * The "Suggestions" section of the MCP Lab panel: renders a SuggestionsModel
 * to the DOM and wires its buttons to the model's actions.
 *
 * Conflicts come first (a suggestion whose text the person changed: what it
 * suggested, where it would go now, Re-apply or Dismiss), then the pending
 * suggestions grouped by document (foldable, with Compare, Accept all and
 * Reject all), each card with its lines of context and the changed words
 * marked. Clicking a card puts the editor's cursor on its change; its "line
 * N" and the file name open the document.
 *
 * The suggestions of every document form one list (a group of articles, so
 * the buttons in the cards stay reachable): with it focused, ArrowUp and
 * ArrowDown (Home/End) move the selection (`aria-activedescendant`,
 * `aria-current` on the card), Enter accepts and Escape rejects the selected
 * suggestion; the model decides what each key does.
 */
import type { OutlineRows } from './outline_rows';
import { isPartSuggestion, rowsToReveal } from './part_change';
import { renderPartChange } from './part_change_view';
import { renderChange, renderSuggestionRange } from './diff_view';
import { button, el, replaceChildrenIfChanged } from './dom';
import { keepFocus, keyed } from './focus_keys';
import type { IRevealTarget } from './reveal';
import {
  IConflict,
  ISuggestion,
  lineRange,
  SuggestionsModel
} from './suggestions';
import { nowSeconds, timeAgo } from './time';

/** The DOM id of a suggestion's card (for aria-activedescendant). */
export function optionId(id: string): string {
  return `jp-McpLab-suggestion-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** What the cards do outside the panel (null in unit tests: nothing). */
export interface IReviewActions {
  /** Open the document and put the cursor on the target; `focus`: the editor takes the keys. */
  reveal(target: IRevealTarget, focus: boolean): Promise<unknown>;
  /** Open the side-by-side review of a document. */
  compare(path: string): void;
}

/**
 * A suggestion's change with its lines of context, drawn; a notebook's is a
 * cell's change (added, removed, moved, its source's diff, ...), an
 * outline's a row's (added under 'Research', moved, checked, ...), its
 * parent's topic from `rows` when known.
 */
export function renderSuggestionChange(
  s: ISuggestion,
  rows: OutlineRows | null = null
): HTMLElement {
  if (isPartSuggestion(s)) {
    return renderPartChange(s, rows?.index(s.path));
  }
  return renderSuggestionRange(s, `Change on ${lineRange(s)}`);
}

/** A link-styled button (the panel's links act in JupyterLab, not the browser). */
export function linkButton(
  text: string,
  className: string,
  title: string,
  onClick: () => void
): HTMLButtonElement {
  const link = el('button', `jp-McpLab-link ${className}`, text);
  link.type = 'button';
  link.title = title;
  link.addEventListener('click', event => {
    event.stopPropagation(); // not the card's click
    onClick();
  });
  return link;
}

/** Past this many characters a rationale is shown folded (about four lines in the panel). */
const LONG_RATIONALE = 200;

/** The section element; call `render()` after the model changes. */
export class ReviewSection {
  readonly node: HTMLElement;

  constructor(
    model: SuggestionsModel,
    actions: IReviewActions | null = null,
    rows: OutlineRows | null = null
  ) {
    this._model = model;
    this._actions = actions;
    this._rows = rows;
    this.node = el('section', 'jp-McpLab-review');
    const header = el('div', 'jp-McpLab-reviewHeader');
    this._heading = el('h3', undefined, 'Suggestions');
    this._heading.tabIndex = -1; // where the focus goes when the list is gone
    this._hint = el(
      'span',
      'jp-McpLab-keysHint',
      '↑/↓ select · Enter accept · Esc reject'
    );
    header.append(this._heading, this._hint);
    this._notes = el('div', 'jp-McpLab-reviewNotes');
    this._conflicts = el('div', 'jp-McpLab-conflicts');
    this._list = el('div', 'jp-McpLab-reviewBody jp-McpLab-reviewList');
    this._list.tabIndex = 0;
    this._list.setAttribute('role', 'group');
    this._list.setAttribute('aria-label', 'Pending suggestions');
    this._hint.id = 'jp-McpLab-keysHint';
    this._list.setAttribute('aria-describedby', this._hint.id);
    this._list.addEventListener('keydown', this._onKeydown);
    // Focus from the keyboard selects the first card. Not from a click: the
    // redraw would replace the card under the pointer and the browser would
    // drop the click (it then selects the clicked card itself).
    this._list.addEventListener('mousedown', () => (this._pointing = true));
    this._list.addEventListener('focus', () => {
      if (!this._pointing) {
        model.selectFirstIfNone();
      }
    });
    document.addEventListener('mouseup', () => (this._pointing = false), true);
    this.node.append(header, this._notes, this._conflicts, this._list);
    model.onChange(() => this.render());
    rows?.onChange(() => this.render());
    this.render();
  }

  /**
   * Redraw from the model; the list keeps the focus, a button in it too (the
   * list takes it when the button's card is gone).
   */
  render(): void {
    keepFocus(this.node, () => this._draw(), [this._list, this._heading]);
  }

  private _draw(): void {
    const model = this._model;
    const count = model.pendingCount;
    const conflicts = model.conflicts;
    this._heading.textContent = `Pending suggestions (${count})`;
    this._hint.hidden = count === 0;
    const notes: Node[] = [];
    if (model.error) {
      notes.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (!model.loaded) {
      notes.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (count === 0 && conflicts.length === 0) {
      notes.push(
        el('p', 'jp-McpLab-empty', 'No suggestions are waiting for review.')
      );
    }
    this._notes.replaceChildren(...notes);
    this._renderConflicts(conflicts);

    const children: Node[] = [];
    for (const group of model.groups) {
      children.push(this._renderGroup(group.path, group.suggestions));
    }
    // Unchanged, its cards stay (their listeners then close over suggestions
    // drawn the same: id, path, lines); a click on them is not dropped.
    replaceChildrenIfChanged(this._list, children);
    this._list.hidden = children.length === 0;

    const selected = model.selected;
    if (selected === null) {
      this._list.removeAttribute('aria-activedescendant');
    } else {
      this._list.setAttribute('aria-activedescendant', optionId(selected));
    }
    if (
      selected !== null &&
      selected !== this._shownSelection &&
      document.activeElement === this._list
    ) {
      // Keep the keyboard's selection in view, also when a decision moved it.
      document
        .getElementById(optionId(selected))
        ?.scrollIntoView({ block: 'nearest' });
    }
    this._shownSelection = selected;
  }

  /** Review keys typed in the list; the model ignores the ones of buttons in it. */
  private _onKeydown = (event: KeyboardEvent): void => {
    const target = event.target as HTMLElement | null;
    const own = target === this._list || target === null;
    const handled = this._model.handleKey({
      key: event.key,
      altKey: event.altKey,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      targetTag: own ? undefined : target.tagName,
      editable: own ? false : target.isContentEditable
    });
    if (handled) {
      // Not for the browser (scrolling) nor for JupyterLab's shortcuts.
      event.preventDefault();
      event.stopPropagation();
    }
  };

  /** Open the document at a line (a link: the editor takes the keys). */
  private _open(target: IRevealTarget): void {
    void this._actions?.reveal(target, true);
  }

  private _renderGroup(path: string, suggestions: ISuggestion[]): HTMLElement {
    const model = this._model;
    const doc = el('div', 'jp-McpLab-document');
    doc.dataset.path = path;
    doc.setAttribute('role', 'group');
    doc.setAttribute('aria-label', path);
    const folded = this._folded.has(path);
    doc.classList.toggle('jp-mod-folded', folded);
    const head = el('div', 'jp-McpLab-documentHeader');
    const fold = el('button', 'jp-McpLab-fold', folded ? '▸' : '▾');
    fold.type = 'button';
    fold.setAttribute('aria-expanded', String(!folded));
    fold.setAttribute(
      'aria-label',
      `${folded ? 'Show' : 'Hide'} the suggestions on ${path}`
    );
    fold.addEventListener('click', () => {
      if (this._folded.has(path)) {
        this._folded.delete(path);
      } else {
        this._folded.add(path);
      }
      this.render();
    });
    const name = linkButton(path, 'jp-McpLab-path', `Open ${path}`, () =>
      this._open({
        path,
        line: suggestions[0]?.lineStart ?? 1,
        id: suggestions[0]?.id
      })
    );
    // Drawn, so an unchanged list is kept only if the link goes to the same place.
    name.dataset.goesTo = `${suggestions[0]?.id}:${suggestions[0]?.lineStart}`;
    const count = el('span', 'jp-McpLab-count', String(suggestions.length));
    count.setAttribute('aria-label', `${suggestions.length} pending`);
    const busy = model.busy.has(`path:${path}`);
    const compare = button(
      'Compare',
      'jp-mod-minimal',
      `Review the suggestions on ${path} side by side`,
      () => this._actions?.compare(path)
    );
    const acceptAll = button(
      'Accept all',
      'jp-mod-accept',
      `Accept every pending suggestion on ${path}`,
      () => void model.acceptAll(path)
    );
    const rejectAll = button(
      'Reject all',
      'jp-mod-reject',
      `Reject every pending suggestion on ${path}`,
      () => void model.rejectAll(path)
    );
    acceptAll.disabled = rejectAll.disabled = busy;
    const key = `path:${path}`; // the focus keys of its controls
    keyed(compare, `${key}:compare`);
    keyed(acceptAll, `${key}:accept-all`);
    keyed(rejectAll, `${key}:reject-all`);
    compare.hidden = this._actions === null;
    const actions = el('span', 'jp-McpLab-actions');
    actions.append(compare, acceptAll, rejectAll);
    const title = el('span', 'jp-McpLab-documentTitle');
    title.append(keyed(fold, `${key}:fold`), keyed(name, `${key}:open`), count);
    head.append(title, actions);
    doc.append(head);
    if (!folded) {
      for (const suggestion of suggestions) {
        doc.append(this._renderSuggestion(suggestion, busy));
      }
    }
    return doc;
  }

  private _renderSuggestion(s: ISuggestion, docBusy: boolean): HTMLElement {
    const model = this._model;
    const item = el('div', 'jp-McpLab-suggestion');
    item.dataset.id = s.id;
    item.id = optionId(s.id);
    item.setAttribute('role', 'article');
    item.setAttribute(
      'aria-label',
      `${s.author || 'An agent'} suggests a change on ${lineRange(s)} of ${s.path}`
    );
    const selected = model.selected === s.id;
    if (selected) {
      item.setAttribute('aria-current', 'true');
    }
    item.classList.toggle('jp-mod-selected', selected);
    item.addEventListener('click', event => {
      if ((event.target as HTMLElement | null)?.closest('button')) {
        return; // its buttons do their own thing
      }
      model.select(s.id);
      // The keys work on from here, whatever was clicked inside the item;
      // the editor shows where the change is without taking them.
      this._list.focus({ preventScroll: true });
      void this._actions?.reveal(
        { path: s.path, id: s.id, line: s.lineStart, rows: rowsToReveal(s) },
        false
      );
    });

    const meta = el('div', 'jp-McpLab-meta');
    const who = el('span', 'jp-McpLab-author', s.author || 'unknown agent');
    const age = el('span', 'jp-McpLab-age', timeAgo(s.created, nowSeconds()));
    const line = linkButton(
      lineRange(s),
      'jp-McpLab-lines',
      `Go to ${lineRange(s)} of ${s.path}`,
      () =>
        this._open({
          path: s.path,
          id: s.id,
          line: s.lineStart,
          rows: rowsToReveal(s)
        })
    );
    meta.append(who, age, keyed(line, `${s.id}:line`));
    item.append(meta);
    if (s.rationale) {
      item.append(...this._rationale(s));
    }
    item.append(renderSuggestionChange(s, this._rows));

    const busy = docBusy || model.busy.has(s.id);
    item.classList.toggle('jp-mod-busy', busy);
    item.setAttribute('aria-busy', String(busy));
    const accept = button(
      'Accept',
      'jp-mod-accept',
      'Apply this change to the document',
      () => void model.accept(s.id)
    );
    const reject = button(
      'Reject',
      'jp-mod-reject',
      'Discard this change',
      () => void model.reject(s.id)
    );
    accept.disabled = reject.disabled = busy;
    keyed(accept, `${s.id}:accept`);
    keyed(reject, `${s.id}:reject`);
    const actions = el('div', 'jp-McpLab-actions');
    actions.append(accept, reject);
    item.append(actions);
    return item;
  }

  /**
   * The agent's rationale; a long one shows its first lines and a button for
   * the rest, so the change and its buttons stay in sight.
   */
  private _rationale(s: ISuggestion): HTMLElement[] {
    const text = el('p', 'jp-McpLab-rationale', s.rationale);
    if (s.rationale.length <= LONG_RATIONALE) {
      return [text];
    }
    const open = this._openRationales.has(s.id);
    text.id = `jp-McpLab-rationale-${s.id}`;
    text.classList.toggle('jp-mod-clamped', !open);
    const more = button(
      open ? 'Show less' : 'Show more',
      'jp-mod-minimal jp-McpLab-more',
      open
        ? 'Show the first lines of the rationale'
        : 'Show the whole rationale',
      () => {
        if (!this._openRationales.delete(s.id)) {
          this._openRationales.add(s.id);
        }
        this.render();
      }
    );
    more.setAttribute('aria-expanded', String(open));
    more.setAttribute('aria-controls', text.id);
    keyed(more, `${s.id}:more`);
    return [text, more];
  }

  private _renderConflicts(conflicts: IConflict[]): void {
    if (conflicts.length === 0) {
      this._conflicts.replaceChildren();
      this._conflicts.hidden = true;
      return;
    }
    this._conflicts.hidden = false;
    const heading = el(
      'h4',
      'jp-McpLab-conflictsHeading',
      `Conflicts (${conflicts.length})`
    );
    replaceChildrenIfChanged(this._conflicts, [
      heading,
      ...conflicts.map(c => this._renderConflict(c))
    ]);
  }

  private _renderConflict(conflict: IConflict): HTMLElement {
    const model = this._model;
    const s = conflict.suggestion;
    const box = el('div', 'jp-McpLab-conflict');
    box.dataset.id = s.id;
    box.dataset.kind = conflict.kind;
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', `Conflict on ${s.path}, ${lineRange(s)}`);
    const preview = conflict.kind === 'typed' ? null : model.preview(s.id);
    const ready = preview?.state === 'ready' ? preview.preview : null;
    // A part's lines are in its own text: the cell or row is named instead.
    const part = isPartSuggestion(s);

    const head = el('div', 'jp-McpLab-meta');
    head.append(
      el('span', 'jp-McpLab-badge jp-mod-conflict', 'Conflict'),
      keyed(
        linkButton(s.path, 'jp-McpLab-path', `Open ${s.path}`, () =>
          this._open({ path: s.path, line: ready?.lineStart ?? s.lineStart })
        ),
        `conflict:${s.id}:open`
      ),
      keyed(
        linkButton(
          ready && !part ? `now line ${ready.lineStart}` : lineRange(s),
          'jp-McpLab-lines',
          'Go to where it would go now',
          () =>
            this._open({
              path: s.path,
              line: ready?.lineStart ?? s.lineStart,
              rows: rowsToReveal(s)
            })
        ),
        `conflict:${s.id}:line`
      )
    );
    box.append(head, el('p', 'jp-McpLab-conflictReason', conflict.reason));

    const suggested = el('div', 'jp-McpLab-conflictPart');
    suggested.append(
      el(
        'span',
        'jp-McpLab-conflictLabel',
        `${s.author || 'The agent'} suggested (${lineRange(s)}, as it was then):`
      ),
      renderSuggestionChange(s, this._rows)
    );
    if (s.rationale) {
      suggested.append(el('p', 'jp-McpLab-rationale', s.rationale));
    }
    box.append(suggested);

    const now = el('div', 'jp-McpLab-conflictPart jp-McpLab-reapplyPreview');
    if (conflict.kind === 'typed') {
      now.append(
        el(
          'p',
          'jp-McpLab-hint',
          'Save the file to see where it can go in your text, or undo your typing to keep it as it is.'
        )
      );
    } else if (preview?.state === 'loading') {
      now.append(el('p', 'jp-McpLab-loading', 'Finding where it goes now…'));
    } else if (preview?.state === 'failed') {
      now.append(
        el('p', 'jp-McpLab-hint', `Cannot re-apply it: ${preview.message}`)
      );
    } else if (ready) {
      now.append(
        el(
          'span',
          'jp-McpLab-conflictLabel',
          `Re-applied to the text as it is now (${part ? lineRange(s) : `line ${ready.lineStart}`}):`
        ),
        renderChange(
          {
            before: ready.contextBefore,
            original: ready.current,
            new: ready.new,
            after: ready.contextAfter,
            lineStart: ready.lineStart
          },
          {
            label: `Re-applied change on ${part ? lineRange(s) : `line ${ready.lineStart}`}`
          }
        )
      );
      if (!ready.clean) {
        now.append(
          el(
            'p',
            'jp-McpLab-hint',
            'This overlaps your edit: re-applying suggests its text in place of yours there.'
          )
        );
      }
    }
    box.append(now);

    const busy = model.isBusy(s.id) || model.busy.has(s.id);
    const actions = el('div', 'jp-McpLab-actions');
    if (conflict.kind !== 'typed') {
      const reapply = button(
        'Re-apply to the current text',
        'jp-mod-accept',
        'Suggest this change again where it belongs in the text as it is now (you review it before it applies)',
        () => void model.reapply(s.id)
      );
      reapply.disabled = busy || ready === null;
      actions.append(keyed(reapply, `conflict:${s.id}:reapply`));
    }
    const dismiss = button(
      'Dismiss',
      'jp-mod-reject',
      'Reject this suggestion: nothing changes',
      () => void model.dismissConflict(s.id)
    );
    dismiss.disabled = busy;
    actions.append(keyed(dismiss, `conflict:${s.id}:dismiss`));
    box.append(actions);
    return box;
  }

  private _model: SuggestionsModel;
  private _actions: IReviewActions | null;
  private _rows: OutlineRows | null;
  private _heading: HTMLHeadingElement;
  private _hint: HTMLSpanElement;
  private _notes: HTMLDivElement;
  private _conflicts: HTMLDivElement;
  private _list: HTMLDivElement;
  private _folded = new Set<string>();
  private _openRationales = new Set<string>();
  private _pointing = false;
  private _shownSelection: string | null = null;
}
