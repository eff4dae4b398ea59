/**
 * The panel's "Decided" list: the last suggestions people accepted, rejected
 * or found in conflict, newest first, from the server (`GET
 * suggestions?status=decided&order=recent`), so they stay listed after a
 * reload. Folded by default; fetched when unfolded and on every suggestion
 * event while it is.
 */
import type { ISuggestion, ISuggestionList } from './api_types';
import { el } from './dom';
import type { ServerEvents } from './events';
import { keyed, replaceKeepingFocus } from './focus_keys';
import { ListModel } from './model_base';
import type { OutlineRows } from './outline_rows';
import type { Request } from './request';
import { IReviewActions, linkButton, renderSuggestionChange } from './review';
import { lineRange } from './suggestions';
import { nowSeconds, timeAgo } from './time';

/** How many decisions the list shows. */
export const DECIDED_LIMIT = 20;

/** The route of the list. */
export const DECIDED_ENDPOINT = `suggestions?status=decided&order=recent&limit=${DECIDED_LIMIT}&context=1`;

/** Words for a decided status. */
const STATUS_TEXT: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  conflict: 'Conflict'
};

/** "rejected by ann, 5 min ago". */
export function decisionText(s: ISuggestion, now: number): string {
  const verb = s.status === 'conflict' ? 'conflicted' : s.status;
  const by = s.decidedBy ? ` by ${s.decidedBy}` : '';
  const when = s.decided !== null ? `, ${timeAgo(s.decided, now)}` : '';
  return `${verb}${by}${when}`;
}

/** The decided suggestions, newest first; fetched while the list is open. */
export class DecidedModel extends ListModel {
  constructor(request: Request) {
    super();
    this._request = request;
  }

  get items(): readonly ISuggestion[] {
    return this._items;
  }

  /** Every document's decided suggestions, by the server's counts. */
  get total(): number {
    return this._total;
  }

  protected async fetch(): Promise<void> {
    const list = await this._request<ISuggestionList>(DECIDED_ENDPOINT);
    this._items = list.suggestions ?? [];
    this._total = decidedTotal(list.counts ?? {});
  }

  private _request: Request;
  private _items: ISuggestion[] = [];
  private _total = 0;
}

/** The folded "Decided" part of the review. */
export class DecidedSection {
  readonly node = el('section', 'jp-McpLab-decided');

  constructor(
    request: Request,
    events: ServerEvents,
    private _actions: IReviewActions | null = null,
    private _rows: OutlineRows | null = null
  ) {
    this.model = new DecidedModel(request);
    this._toggle = el('button', 'jp-McpLab-decidedToggle');
    this._toggle.type = 'button';
    this._toggle.setAttribute('aria-expanded', 'false');
    this._toggle.setAttribute('aria-controls', 'jp-McpLab-decidedList');
    this._toggle.addEventListener('click', () => this.setOpen(!this._open));
    this._list.id = 'jp-McpLab-decidedList';
    this._list.hidden = true;
    this.node.append(this._toggle, this._list);
    this.model.onChange(() => this.render());
    _rows?.onChange(() => this.render());
    this._unsubscribe = events.subscribe(['suggestion'], () => {
      if (this._open) {
        void this.model.refresh();
      }
    });
    this.render();
  }

  readonly model: DecidedModel;

  /** Show or hide the list (fetching it when shown). */
  setOpen(open: boolean): void {
    this._open = open;
    if (open) {
      void this.model.refresh();
    }
    this.render();
  }

  /** The number shown in the heading while folded (from the review's counts). */
  setCount(count: number): void {
    this._count = count;
    this.render();
  }

  dispose(): void {
    this._unsubscribe();
  }

  render(): void {
    const count =
      this._open && this.model.loaded ? this.model.total : this._count;
    this._toggle.textContent = `${this._open ? '▾' : '▸'} Decided (${count})`;
    this._toggle.setAttribute('aria-expanded', String(this._open));
    this._list.hidden = !this._open;
    if (!this._open) {
      return;
    }
    const rows: Node[] = [];
    if (this.model.error) {
      rows.push(el('p', 'jp-McpLab-error', this.model.error));
    }
    if (!this.model.loaded) {
      rows.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (this.model.items.length === 0) {
      rows.push(el('p', 'jp-McpLab-empty', 'Nothing decided yet.'));
    }
    const now = nowSeconds();
    for (const s of this.model.items) {
      rows.push(this._renderItem(s, now));
    }
    if (this.model.loaded && this.model.total > this.model.items.length) {
      rows.push(
        el(
          'p',
          'jp-McpLab-hint',
          `The last ${this.model.items.length} of ${this.model.total}.`
        )
      );
    }
    // A focused path link keeps the focus; the toggle takes it when its item is gone.
    replaceKeepingFocus(this._list, rows, [this._toggle]);
  }

  private _renderItem(s: ISuggestion, now: number): HTMLElement {
    const item = el('div', `jp-McpLab-decidedItem jp-mod-${s.status}`);
    item.dataset.id = s.id;
    item.dataset.status = s.status;
    const meta = el('div', 'jp-McpLab-meta');
    meta.append(
      el(
        'span',
        `jp-McpLab-badge jp-mod-${s.status}`,
        STATUS_TEXT[s.status] ?? s.status
      ),
      keyed(
        linkButton(
          s.path,
          'jp-McpLab-path',
          `Open ${s.path}`,
          () =>
            void this._actions?.reveal(
              { path: s.path, line: s.lineStart },
              true
            )
        ),
        `${s.id}:open`
      ),
      el('span', 'jp-McpLab-lines', lineRange(s))
    );
    item.append(meta);
    const who = el(
      'p',
      'jp-McpLab-decision',
      `${s.author || 'an agent'} · ${decisionText(s, now)}`
    );
    item.append(who);
    if (s.reason) {
      item.append(el('p', 'jp-McpLab-hint', s.reason));
    }
    item.append(renderSuggestionChange(s, this._rows));
    return item;
  }

  private _open = false;
  private _count = 0;
  private _toggle: HTMLButtonElement;
  private _list = el('div', 'jp-McpLab-decidedList');
  private _unsubscribe: () => void;
}

/** How many suggestions were decided, over every document's per-status counts. */
export function decidedTotal(
  counts: Record<string, Partial<Record<string, number>>>
): number {
  return Object.values(counts).reduce(
    (n, c) => n + (c.accepted ?? 0) + (c.rejected ?? 0) + (c.conflict ?? 0),
    0
  );
}
