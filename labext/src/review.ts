/**
 * The "Pending suggestions" section of the MCP Lab panel: renders a
 * SuggestionsModel to the DOM and wires its buttons to the model's actions.
 *
 * The suggestions of every document form one listbox: with it focused,
 * ArrowUp/ArrowDown (Home/End) move the selection, Enter accepts and Escape
 * rejects the selected suggestion; the model decides what each key does.
 */
import { DiffBoxes } from './diff';
import { button, el } from './dom';
import {
  IConflict,
  ISuggestion,
  lineRange,
  SuggestionsModel
} from './suggestions';

/** The DOM id of a suggestion's option (for aria-activedescendant). */
export function optionId(id: string): string {
  return `jp-McpLab-suggestion-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The section element; call `render()` after the model changes. */
export class ReviewSection {
  readonly node: HTMLElement;

  constructor(model: SuggestionsModel) {
    this._model = model;
    this.node = el('section', 'jp-McpLab-review');
    const header = el('div', 'jp-McpLab-reviewHeader');
    this._heading = el('h3', undefined, 'Pending suggestions');
    this._hint = el(
      'span',
      'jp-McpLab-keysHint',
      '↑/↓ select · Enter accept · Esc reject'
    );
    header.append(this._heading, this._hint);
    this._notes = el('div', 'jp-McpLab-reviewNotes');
    this._list = el('div', 'jp-McpLab-reviewBody jp-McpLab-reviewList');
    this._list.tabIndex = 0;
    this._list.setAttribute('role', 'listbox');
    this._list.setAttribute('aria-label', 'Pending suggestions');
    this._list.addEventListener('keydown', this._onKeydown);
    this._list.addEventListener('focus', () => model.selectFirstIfNone());
    this.node.append(header, this._notes, this._list);
    model.onChange(() => this.render());
    this.render();
  }

  /** Redraw from the model. Open diffs stay open; the list keeps the focus. */
  render(): void {
    const model = this._model;
    const count = model.pendingCount;
    this._heading.textContent = `Pending suggestions (${count})`;
    this._hint.hidden = count === 0;
    const notes: Node[] = [];
    if (model.error) {
      notes.push(el('p', 'jp-McpLab-error', model.error));
    }
    for (const conflict of model.conflicts) {
      notes.push(this._renderConflict(conflict));
    }
    if (!model.loaded) {
      notes.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (count === 0) {
      notes.push(
        el('p', 'jp-McpLab-empty', 'No suggestions are waiting for review.')
      );
    }
    this._notes.replaceChildren(...notes);

    const children: Node[] = [];
    for (const group of model.groups) {
      const doc = el('div', 'jp-McpLab-document');
      doc.dataset.path = group.path;
      doc.setAttribute('role', 'group');
      doc.setAttribute('aria-label', group.path);
      const head = el('div', 'jp-McpLab-documentHeader');
      const busy = model.busy.has(`path:${group.path}`);
      const acceptAll = button(
        'Accept all',
        'jp-mod-accept',
        `Accept every pending suggestion on ${group.path}`,
        () => void model.acceptAll(group.path)
      );
      const rejectAll = button(
        'Reject all',
        'jp-mod-reject',
        `Reject every pending suggestion on ${group.path}`,
        () => void model.rejectAll(group.path)
      );
      acceptAll.disabled = rejectAll.disabled = busy;
      const actions = el('span', 'jp-McpLab-actions');
      actions.append(acceptAll, rejectAll);
      head.append(
        el(
          'span',
          'jp-McpLab-path',
          `${group.path} (${group.suggestions.length})`
        ),
        actions
      );
      doc.append(head);
      for (const suggestion of group.suggestions) {
        doc.append(this._renderSuggestion(suggestion, busy));
      }
      children.push(doc);
    }
    this._list.replaceChildren(...children);
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

  private _renderSuggestion(s: ISuggestion, docBusy: boolean): HTMLElement {
    const model = this._model;
    const item = el('div', 'jp-McpLab-suggestion');
    item.dataset.id = s.id;
    item.id = optionId(s.id);
    item.setAttribute('role', 'option');
    const selected = model.selected === s.id;
    item.setAttribute('aria-selected', String(selected));
    item.classList.toggle('jp-mod-selected', selected);
    item.addEventListener('click', () => {
      model.select(s.id);
      // The keys work on from here, whatever was clicked inside the item.
      this._list.focus({ preventScroll: true });
    });

    const meta = el('div', 'jp-McpLab-meta');
    meta.append(
      el('span', 'jp-McpLab-author', s.author || 'unknown agent'),
      el('span', 'jp-McpLab-lines', lineRange(s))
    );
    item.append(meta);
    if (s.rationale) {
      item.append(el('p', 'jp-McpLab-rationale', s.rationale));
    }

    const change = el('div', 'jp-McpLab-change');
    if (s.original) {
      change.append(el('del', 'jp-McpLab-original', s.original));
    }
    if (s.new) {
      change.append(el('ins', 'jp-McpLab-new', s.new));
    }
    item.append(change);

    const diff = this._diffs.render(s.id);

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
    const actions = el('div', 'jp-McpLab-actions');
    actions.append(accept, reject, diff.toggle);
    item.append(actions, diff.box);
    return item;
  }

  private _renderConflict(conflict: IConflict): HTMLElement {
    const s = conflict.suggestion;
    const box = el('div', 'jp-McpLab-conflict');
    box.dataset.id = s.id;
    box.append(
      el('strong', undefined, `Conflict on ${s.path} (${lineRange(s)})`),
      el('p', undefined, conflict.reason),
      button('Dismiss', 'jp-mod-minimal', 'Hide this conflict', () =>
        this._model.dismissConflict(s.id)
      )
    );
    return box;
  }

  private _model: SuggestionsModel;
  private _heading: HTMLHeadingElement;
  private _hint: HTMLSpanElement;
  private _notes: HTMLDivElement;
  private _list: HTMLDivElement;
  private _shownSelection: string | null = null;
  private _diffs = new DiffBoxes(
    id => this._model.diff(id),
    () => this.render()
  );
}
