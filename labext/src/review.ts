/**
 * The "Pending suggestions" section of the MCP Lab panel: renders a
 * SuggestionsModel to the DOM and wires its buttons to the model's actions.
 */
import { button, el } from './dom';
import {
  IConflict,
  ISuggestion,
  lineRange,
  SuggestionsModel
} from './suggestions';

/** The section element; call `render()` after the model changes. */
export class ReviewSection {
  readonly node: HTMLElement;

  constructor(model: SuggestionsModel) {
    this._model = model;
    this.node = el('section', 'jp-McpLab-review');
    const header = el('div', 'jp-McpLab-reviewHeader');
    this._heading = el('h3', undefined, 'Pending suggestions');
    header.append(this._heading);
    this._body = el('div', 'jp-McpLab-reviewBody');
    this.node.append(header, this._body);
    model.onChange(() => this.render());
    this.render();
  }

  /** Redraw from the model. Open diffs stay open. */
  render(): void {
    const model = this._model;
    const count = model.pendingCount;
    this._heading.textContent = `Pending suggestions (${count})`;
    const children: Node[] = [];
    if (model.error) {
      children.push(el('p', 'jp-McpLab-error', model.error));
    }
    for (const conflict of model.conflicts) {
      children.push(this._renderConflict(conflict));
    }
    if (!model.loaded) {
      children.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (count === 0) {
      children.push(
        el('p', 'jp-McpLab-empty', 'No suggestions are waiting for review.')
      );
    }
    for (const group of model.groups) {
      const doc = el('div', 'jp-McpLab-document');
      doc.dataset.path = group.path;
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
    this._body.replaceChildren(...children);
  }

  private _renderSuggestion(s: ISuggestion, docBusy: boolean): HTMLElement {
    const model = this._model;
    const item = el('div', 'jp-McpLab-suggestion');
    item.dataset.id = s.id;

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

    const diffBox = el('pre', 'jp-McpLab-diff');
    const cached = this._diffs.get(s.id);
    diffBox.hidden = !this._openDiffs.has(s.id);
    if (cached !== undefined) {
      fillDiff(diffBox, cached);
    }

    const busy = docBusy || model.busy.has(s.id);
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
    const diffToggle = button(
      diffBox.hidden ? 'Diff' : 'Hide diff',
      'jp-mod-minimal',
      'Show the unified diff of this change',
      () => void this._toggleDiff(s.id, diffBox, diffToggle)
    );
    accept.disabled = reject.disabled = busy;
    const actions = el('div', 'jp-McpLab-actions');
    actions.append(accept, reject, diffToggle);
    item.append(actions, diffBox);
    return item;
  }

  private async _toggleDiff(
    id: string,
    box: HTMLPreElement,
    toggle: HTMLButtonElement
  ): Promise<void> {
    if (this._openDiffs.has(id)) {
      this._openDiffs.delete(id);
      box.hidden = true;
      toggle.textContent = 'Diff';
      return;
    }
    this._openDiffs.add(id);
    box.hidden = false;
    toggle.textContent = 'Hide diff';
    if (!this._diffs.has(id)) {
      box.textContent = 'Loading…';
      try {
        const diff = await this._model.diff(id);
        this._diffs.set(id, diff);
        fillDiff(box, diff);
      } catch (error) {
        box.textContent = (error as Error)?.message ?? String(error);
      }
    }
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
  private _body: HTMLDivElement;
  private _diffs = new Map<string, string | null>();
  private _openDiffs = new Set<string>();
}

/** Fill a <pre> with a unified diff, one classed line per row. */
function fillDiff(box: HTMLPreElement, diff: string | null): void {
  if (diff === null) {
    box.textContent = 'The text this was suggested against is gone.';
    return;
  }
  const lines = diff.replace(/\n$/, '').split('\n');
  box.replaceChildren(
    ...lines.map(line => {
      let cls = 'jp-McpLab-diffContext';
      if (line.startsWith('+++') || line.startsWith('---')) {
        cls = 'jp-McpLab-diffFile';
      } else if (line.startsWith('@@')) {
        cls = 'jp-McpLab-diffHunk';
      } else if (line.startsWith('+')) {
        cls = 'jp-McpLab-diffAdd';
      } else if (line.startsWith('-')) {
        cls = 'jp-McpLab-diffDel';
      }
      return el('div', cls, line);
    })
  );
}
