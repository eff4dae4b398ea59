/**
 * The "MCP Lab" side panel, one scroll for all: a one-line connection card
 * (status_card.ts, "Connect an agent…" unfolds it), the suggestions to review
 * (review.ts: conflicts, then pending ones by document), the decided ones
 * (decided.ts, folded), and the sections below them (outline, activity,
 * checkpoints, trust grants), all fed by one event stream.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { refreshIcon } from '@jupyterlab/ui-components';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { ActivitySection } from './activity';
import { boardLink } from './board_link';
import { CheckpointsSection } from './checkpoints';
import { openCompare } from './compare';
import { decidedTotal, DecidedSection } from './decided';
import { el } from './dom';
import { ServerEvents } from './events';
import { GrantsSection } from './grants';
import { mcpLabIcon } from './icon';
import { OutlineSection } from './outline';
import { OutlineRows } from './outline_rows';
import { requestAPI } from './request';
import { reveal } from './reveal';
import { IReviewActions, ReviewSection } from './review';
import { IPanelContext, IPanelSection } from './section';
import { StatusCard } from './status_card';
import { EventStream } from './stream';
import { SuggestionsModel } from './suggestions';

/** The DOM id of the side panel. */
export const PANEL_ID = 'jupyter-mcp-lab-panel';

export class StatusPanel extends Widget {
  constructor(app: JupyterFrontEnd | null = null) {
    super();
    this.id = PANEL_ID;
    this.addClass('jp-McpLab-panel');
    this.title.icon = mcpLabIcon;
    this.title.caption = 'MCP Lab';
    this.title.label = 'MCP Lab';

    const header = el('div', 'jp-McpLab-header');
    this._refreshButton = el(
      'button',
      'jp-Button jp-mod-styled jp-mod-minimal jp-McpLab-refresh'
    );
    this._refreshButton.append(
      refreshIcon.element({ tag: 'span', elementSize: 'normal' })
    );
    this._refreshButton.title =
      'Refresh: fetch the status and every list again';
    this._refreshButton.setAttribute('aria-label', 'Refresh');
    this._refreshButton.addEventListener('click', () => void this.refresh());
    const actions = el('span', 'jp-McpLab-headerActions');
    actions.append(boardLink(), this._refreshButton);
    header.append(el('h2', undefined, 'MCP Lab'), actions);

    this._card = new StatusCard(requestAPI);
    this.suggestions = new SuggestionsModel(requestAPI);
    const review: IReviewActions | null = app
      ? {
          reveal: (target, focus) =>
            reveal(app, requestAPI, target, { focus }).catch(error =>
              console.warn('MCP Lab: could not open the document', error)
            ),
          compare: path => this.openCompare(path)
        }
      : null;
    this._app = app;
    // Highlighting in the side-by-side view, when JupyterLab has its languages.
    void app
      ?.resolveOptionalService(IEditorLanguageRegistry)
      .then(languages => (this.languages = languages ?? null))
      .catch(() => undefined);
    // Row suggestions name rows by id: their cards read the outline's topics.
    const rows = new OutlineRows(requestAPI, this.events);
    this._review = new ReviewSection(this.suggestions, review, rows);
    this._decided = new DecidedSection(requestAPI, this.events, review, rows);
    this.suggestions.onChange(() => this._onSuggestions());
    const context: IPanelContext = {
      app,
      request: requestAPI,
      events: this.events
    };
    this._sections = [
      new OutlineSection(context),
      new ActivitySection(context),
      new CheckpointsSection(context),
      new GrantsSection(context)
    ];
    this.node.append(
      header,
      this._card.node,
      this._review.node,
      this._decided.node,
      ...this._sections.map(section => section.node)
    );

    // Keep the count badge current even while the panel is closed.
    void this.suggestions.refresh();
    // Agents' changes move or break pending suggestions: place them again.
    this.events.subscribe(['suggestion', 'document'], () =>
      this._scheduleRefresh()
    );
    this._stream = new EventStream(this.events, {
      opened: () => this._scheduleRefresh(),
      poll: () => void this.suggestions.refresh()
    });
    // Connected agents on the card follow the agents' calls (a burst makes one fetch).
    this.events.subscribe(['activity'], () => this._scheduleStatus());
  }

  /** The pending suggestions shown by the panel. */
  readonly suggestions: SuggestionsModel;

  /** Every event of the server's stream, for the sections and editor helpers. */
  readonly events = new ServerEvents();

  /** The connection card (its details unfold with "Connect an agent…"). */
  get card(): StatusCard {
    return this._card;
  }

  /** Open the side-by-side review of `path` in the main area. */
  openCompare(path: string): void {
    if (this._app) {
      openCompare(
        {
          app: this._app,
          request: requestAPI,
          events: this.events,
          model: this.suggestions,
          languages: this.languages
        },
        path
      );
    }
  }

  /**
   * A notification's Review: the document it names opens with the cursor on
   * its first pending suggestion, selected in the panel.
   */
  async reviewDocument(path: string): Promise<void> {
    const find = () =>
      this.suggestions.groups.find(g => g.path === path)?.suggestions[0];
    if (!find()) {
      await this.suggestions.refresh();
    }
    const first = find();
    if (first) {
      this.suggestions.select(first.id);
    }
    if (this._app) {
      await reveal(
        this._app,
        requestAPI,
        { path, id: first?.id, line: first?.lineStart ?? 1 },
        { focus: true }
      );
    }
  }

  /** Unfold the connection card ("Connect an agent…") and show it. */
  connectAgent(): void {
    this._card.setExpanded(true);
    this._card.node.scrollIntoView({ block: 'start' });
    this._card.node.querySelector<HTMLElement>('select, button')?.focus();
  }

  /** JupyterLab's editor languages, for the side-by-side view's highlighting. */
  languages: IEditorLanguageRegistry | null = null;

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._stream.dispose();
    for (const section of this._sections) {
      section.dispose();
    }
    this._decided.dispose();
    if (this._refreshTimer !== null) {
      window.clearTimeout(this._refreshTimer);
    }
    if (this._statusTimer !== null) {
      window.clearTimeout(this._statusTimer);
    }
    super.dispose();
  }

  /** Fetch the status again and redraw. */
  async refresh(): Promise<void> {
    this._loaded = true;
    this._refreshButton.disabled = true;
    this._card.showLoading();
    void this.suggestions.refresh();
    this._refreshSections();
    try {
      await this._card.load();
    } finally {
      this._refreshButton.disabled = false;
    }
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    if (!this._loaded) {
      void this.refresh();
    } else {
      void this.suggestions.refresh();
      this._refreshSections();
    }
  }

  private _refreshSections(): void {
    for (const section of this._sections) {
      section.refresh().catch(error => {
        console.error('MCP Lab: a panel section failed to refresh', error);
      });
    }
  }

  /** Coalesce a burst of events (e.g. the replay on connect) into one fetch. */
  private _scheduleRefresh(): void {
    if (this._refreshTimer !== null) {
      return;
    }
    this._refreshTimer = window.setTimeout(() => {
      this._refreshTimer = null;
      void this.suggestions.refresh();
    }, 150);
  }

  /** Reload the card soon, while it is shown. */
  private _scheduleStatus(): void {
    if (!this._loaded || !this.isVisible || this._statusTimer !== null) {
      return;
    }
    this._statusTimer = window.setTimeout(() => {
      this._statusTimer = null;
      void this._card.load();
    }, 1000);
  }

  /**
   * The suggestions changed: the tab's badge, the decided count, and the
   * connection card folds when suggestions arrive, so they come first.
   */
  private _onSuggestions(): void {
    const model = this.suggestions;
    const waiting = model.pendingCount + model.conflicts.length;
    if (waiting > 0 && this._waiting === 0) {
      this._card.setExpanded(false);
    }
    this._waiting = waiting;
    this._decided.setCount(decidedTotal(model.counts));
    this._updateBadge();
  }

  /** Show the pending count on the panel's tab. */
  private _updateBadge(): void {
    const count =
      this.suggestions.pendingCount + this.suggestions.conflicts.length;
    this.title.caption =
      count > 0
        ? `MCP Lab: ${count} pending suggestion${count === 1 ? '' : 's'}`
        : 'MCP Lab';
    this.title.dataset =
      count > 0
        ? { 'mcp-lab-pending': count > 99 ? '99+' : String(count) }
        : {};
    this.title.label = count > 0 ? `MCP Lab (${count})` : 'MCP Lab';
    this.title.className = count > 0 ? 'jp-McpLab-hasPending' : '';
  }

  private _app: JupyterFrontEnd | null;
  private _decided: DecidedSection;
  private _waiting = 0;
  private _card: StatusCard;
  private _refreshButton: HTMLButtonElement;
  private _loaded = false;
  private _review: ReviewSection;
  private _sections: IPanelSection[];
  private _stream: EventStream;
  private _refreshTimer: number | null = null;
  private _statusTimer: number | null = null;
}
