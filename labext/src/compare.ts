/**
 * Side-by-side review of one document in the main area: its current text on
 * the left, the text with every pending suggestion applied on the right
 * (CodeMirror 6's `@codemirror/merge`, on JupyterLab's own CodeMirror
 * packages), each change with its author, rationale and Accept / Reject, and
 * Accept all / Reject all for the document.
 *
 * Keys (the editors are read-only): n or j next change, p or k previous, a
 * accept and r reject the change at the cursor. The view follows the
 * server's events: a decision made anywhere redraws it.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { MainAreaWidget } from '@jupyterlab/apputils';
import { jupyterTheme } from '@jupyterlab/codemirror';
import type { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { EditorState, Extension, Range } from '@codemirror/state';
import { Decoration, EditorView, keymap, WidgetType } from '@codemirror/view';
import {
  Change,
  goToNextChunk,
  goToPreviousChunk,
  MergeView
} from '@codemirror/merge';
import { Widget } from '@lumino/widgets';

import {
  comparePlan,
  IComparePlan,
  ICompareItem,
  itemAt,
  samePlan
} from './compare_model';
import { button, el } from './dom';
import type { ServerEvents } from './events';
import { mcpLabIcon } from './icon';
import { ILocatedList, locateEndpoint } from './inline_model';
import type { Request } from './request';
import { revisionOf } from './revision';
import type { SuggestionsModel } from './suggestions';

/** What the view needs. */
export interface ICompareContext {
  app: JupyterFrontEnd;
  request: Request;
  events: ServerEvents;
  model: SuggestionsModel;
  languages?: IEditorLanguageRegistry | null;
}

/** The DOM id of the side-by-side view of `path`. */
export function compareId(path: string): string {
  return `jp-McpLab-compare-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Open (or bring forward) the side-by-side review of `path`. */
export function openCompare(context: ICompareContext, path: string): void {
  const id = compareId(path);
  for (const widget of context.app.shell.widgets('main')) {
    if (widget.id === id) {
      context.app.shell.activateById(id);
      return;
    }
  }
  const view = new CompareView(context, path);
  const widget = new MainAreaWidget({ content: view });
  widget.id = id;
  widget.title.label = `Review ${path.split('/').pop()}`;
  widget.title.caption = `Pending suggestions on ${path}, side by side`;
  widget.title.icon = mcpLabIcon;
  widget.title.closable = true;
  context.app.shell.add(widget, 'main');
  context.app.shell.activateById(id);
}

/** The Accept / Reject bar under a change on the right side. */
class ActionsWidget extends WidgetType {
  constructor(
    readonly item: ICompareItem,
    readonly decide: (id: string, action: 'accept' | 'reject') => void
  ) {
    super();
  }

  eq(other: ActionsWidget): boolean {
    return other.item.suggestion.id === this.item.suggestion.id;
  }

  toDOM(): HTMLElement {
    const s = this.item.suggestion;
    const bar = el('div', 'jp-McpLab-compareActions');
    bar.dataset.suggestionId = s.id;
    const who = el('span', 'jp-McpLab-compareWho', s.author || 'an agent');
    bar.append(who);
    if (s.rationale) {
      bar.append(el('span', 'jp-McpLab-compareWhy', s.rationale));
    }
    const accept = button(
      'Accept',
      'jp-mod-accept',
      'Apply this change to the document (a)',
      () => this.decide(s.id, 'accept')
    );
    const reject = button(
      'Reject',
      'jp-mod-reject',
      'Discard this change (r)',
      () => this.decide(s.id, 'reject')
    );
    accept.setAttribute(
      'aria-label',
      `Accept the change on line ${s.lineStart}`
    );
    reject.setAttribute(
      'aria-label',
      `Reject the change on line ${s.lineStart}`
    );
    const buttons = el('span', 'jp-McpLab-compareButtons');
    buttons.append(accept, reject);
    bar.append(buttons);
    return bar;
  }

  ignoreEvent(): boolean {
    return true;
  }
}

/** The side-by-side review of one document. */
export class CompareView extends Widget {
  constructor(
    private _context: ICompareContext,
    readonly path: string
  ) {
    super();
    this.addClass('jp-McpLab-compare');
    this.node.tabIndex = -1;
    const header = el('div', 'jp-McpLab-compareHeader');
    this._title = el('span', 'jp-McpLab-compareTitle');
    const sides = el('div', 'jp-McpLab-compareSides');
    sides.append(
      el('span', undefined, 'Current text'),
      el('span', undefined, 'With the suggestions')
    );
    const actions = el('span', 'jp-McpLab-actions');
    this._previous = button(
      'Previous',
      'jp-mod-minimal',
      'Go to the previous change (p)',
      () => this._go('previous')
    );
    this._next = button(
      'Next',
      'jp-mod-minimal',
      'Go to the next change (n)',
      () => this._go('next')
    );
    this._acceptAll = button(
      'Accept all',
      'jp-mod-accept',
      `Accept every pending suggestion on ${path}`,
      () => void this._decideAll('accept')
    );
    this._rejectAll = button(
      'Reject all',
      'jp-mod-reject',
      `Reject every pending suggestion on ${path}`,
      () => void this._decideAll('reject')
    );
    actions.append(
      this._previous,
      this._next,
      this._acceptAll,
      this._rejectAll
    );
    header.append(this._title, actions);
    this._note = el('p', 'jp-McpLab-compareNote');
    this._body = el('div', 'jp-McpLab-compareBody');
    this.node.append(header, sides, this._note, this._body);
    this._unsubscribe = _context.events.subscribe(
      ['suggestion', 'document', 'checkpoint'],
      event => {
        const data = event.data ?? {};
        const eventPath =
          data.suggestion?.path ?? data.checkpoint?.path ?? data.path;
        if (eventPath === undefined || eventPath === path) {
          this._schedule();
        }
      }
    );
    void this.load();
  }

  /** The suggestions shown, in document order. */
  get items(): readonly ICompareItem[] {
    return this._shown?.items ?? [];
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._unsubscribe();
    if (this._timer !== null) {
      window.clearTimeout(this._timer);
    }
    this._merge?.destroy();
    super.dispose();
  }

  /** Fetch the text and the placed suggestions, and draw them. */
  async load(): Promise<void> {
    const seq = ++this._seq;
    let plan: IComparePlan | null = null;
    let problem = '';
    try {
      plan = await this._fetchPlan();
    } catch (error) {
      problem = `Could not load ${this.path}: ${(error as Error).message}`;
    }
    if (seq !== this._seq || this.isDisposed) {
      return;
    }
    if (plan === null) {
      this._show(null, problem || `${this.path} changed while loading.`);
      return;
    }
    await this._draw(plan);
  }

  /** The text (as the server placed the suggestions in it) and the plan; null if it kept changing. */
  private async _fetchPlan(): Promise<IComparePlan | null> {
    const contents = this._context.app.serviceManager.contents;
    for (let attempt = 0; attempt < 3; attempt++) {
      const list = await this._context.request<ILocatedList>(
        locateEndpoint(this.path)
      );
      const model = await contents.get(this.path, {
        content: true,
        format: 'text',
        type: 'file'
      });
      const text = String(model.content ?? '');
      if (list.revision !== null && revisionOf(text) === list.revision) {
        return comparePlan(text, list.suggestions);
      }
    }
    return null;
  }

  private async _draw(plan: IComparePlan): Promise<void> {
    const draw = ++this._draws;
    const same = this._shown !== null && samePlan(this._shown, plan);
    if (!same) {
      this._failed = ''; // what it was about changed
    }
    this._plan = plan;
    this._show(
      plan,
      [this._failed, skippedNote(plan)].filter(Boolean).join(' ')
    );
    if (same) {
      // Nothing new (an event's reload after our own decision's): a rebuild would
      // take the cursor and focus from a person moving through the changes.
      return;
    }
    const count = plan.items.length;
    if (count === 0) {
      this._merge?.destroy();
      this._merge = null;
      this._shown = plan;
      this._body.replaceChildren(
        el(
          'p',
          'jp-McpLab-empty',
          `No suggestion on ${this.path} is waiting for review.`
        )
      );
      return;
    }
    const language = await this._language();
    if (draw !== this._draws || this.isDisposed) {
      return; // a newer plan is being drawn
    }
    const scroll = this._body.scrollTop;
    // A rebuilt view keeps the side that held the focus (its text or a button in
    // it) and its cursor, clamped to the new text.
    const old = this._merge;
    const active = document.activeElement;
    const focused =
      !old || !active
        ? null
        : old.a.dom.contains(active)
          ? 'a'
          : old.b.dom.contains(active)
            ? 'b'
            : null;
    const head = focused ? old![focused].state.selection.main.head : 0;
    this._merge?.destroy();
    const common: Extension[] = [
      // Read-only, still focusable: the keys below need a cursor.
      EditorState.readOnly.of(true),
      EditorView.lineWrapping,
      jupyterTheme,
      this._keys(),
      language ?? []
    ];
    const items = plan.items;
    this._merge = new MergeView({
      a: {
        doc: plan.current,
        extensions: [
          ...common,
          EditorView.contentAttributes.of({
            'aria-label': `${this.path}: the current text`
          })
        ]
      },
      b: {
        doc: plan.proposed,
        extensions: [
          ...common,
          EditorView.contentAttributes.of({
            'aria-label': `${this.path}: with the suggestions applied`
          }),
          EditorView.decorations.of(this._actions(plan))
        ]
      },
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
      // The changes are the suggestions themselves, not a diff of the texts.
      diffConfig: {
        override: () =>
          items.map(i => new Change(i.fromA, i.toA, i.fromB, i.toB))
      }
    });
    this._body.replaceChildren(this._merge.dom);
    this._body.scrollTop = scroll;
    this._shown = plan;
    if (focused) {
      const view = this._merge[focused];
      view.dispatch({
        selection: { anchor: Math.min(head, view.state.doc.length) }
      });
      view.focus();
    }
  }

  /** The title, buttons and note for `plan` (null: nothing to show). */
  private _show(plan: IComparePlan | null, note: string): void {
    const count = plan?.items.length ?? 0;
    this._title.textContent =
      plan === null
        ? this.path
        : `${this.path}: ${count} pending suggestion${count === 1 ? '' : 's'}`;
    for (const b of [
      this._previous,
      this._next,
      this._acceptAll,
      this._rejectAll
    ]) {
      b.disabled = count === 0 || this._busy;
    }
    this._note.textContent = note;
    this._note.hidden = !note;
  }

  /** The Accept / Reject bars, each under its change on the right. */
  private _actions(plan: IComparePlan) {
    const doc = EditorState.create({ doc: plan.proposed }).doc;
    const ranges: Range<Decoration>[] = plan.items.map(item => {
      const line = doc.lineAt(Math.min(item.toB, doc.length));
      return Decoration.widget({
        widget: new ActionsWidget(
          item,
          (id, action) => void this._decide(id, action)
        ),
        block: true,
        side: 1
      }).range(line.to);
    });
    return Decoration.set(ranges, true);
  }

  /** The document's language (its highlighting), if JupyterLab knows it. */
  private async _language(): Promise<Extension | null> {
    const registry = this._context.languages;
    if (!registry) {
      return null;
    }
    try {
      const found = registry.findByFileName(this.path);
      const language = found ? await registry.getLanguage(found) : null;
      return language?.support ?? null;
    } catch {
      return null;
    }
  }

  private _keys(): Extension {
    const here = (view: EditorView) =>
      itemAt(
        this.items,
        view.state.selection.main.head,
        view === this._merge?.a ? 'a' : 'b'
      );
    const decideHere = (view: EditorView, action: 'accept' | 'reject') => {
      const item = here(view);
      if (item) {
        void this._decide(item.suggestion.id, action);
      }
      return true;
    };
    return keymap.of([
      { key: 'n', run: goToNextChunk },
      { key: 'j', run: goToNextChunk },
      { key: 'p', run: goToPreviousChunk },
      { key: 'k', run: goToPreviousChunk },
      { key: 'a', run: view => decideHere(view, 'accept') },
      { key: 'r', run: view => decideHere(view, 'reject') }
    ]);
  }

  /** Next or previous change, from the right side's cursor. */
  private _go(direction: 'next' | 'previous'): void {
    const view = this._merge?.b;
    if (!view) {
      return;
    }
    (direction === 'next' ? goToNextChunk : goToPreviousChunk)(view);
    view.focus();
  }

  private async _decide(
    id: string,
    action: 'accept' | 'reject'
  ): Promise<void> {
    if (this._busy) {
      return;
    }
    this._setBusy(true);
    this._failed = '';
    const model = this._context.model;
    const result = await (action === 'accept'
      ? model.accept(id)
      : model.reject(id));
    this._setBusy(false);
    if (result === null) {
      // Shown until the next decision or until the suggestions change.
      this._failed = `Could not ${action} the suggestion: ${model.error ?? 'the server did not answer'}`;
    }
    await this.load();
  }

  private async _decideAll(action: 'accept' | 'reject'): Promise<void> {
    if (this._busy) {
      return;
    }
    this._setBusy(true);
    this._failed = '';
    const model = this._context.model;
    await (action === 'accept'
      ? model.acceptAll(this.path)
      : model.rejectAll(this.path));
    this._setBusy(false);
    await this.load();
  }

  private _setBusy(busy: boolean): void {
    this._busy = busy;
    this.node.setAttribute('aria-busy', String(busy));
    this.node
      .querySelectorAll<HTMLButtonElement>('button')
      .forEach(
        b => (b.disabled = busy || (this._plan?.items.length ?? 0) === 0)
      );
  }

  /** Reload soon (a burst of events makes one load). */
  private _schedule(): void {
    if (this._timer !== null) {
      window.clearTimeout(this._timer);
    }
    this._timer = window.setTimeout(() => {
      this._timer = null;
      void this.load();
    }, 300);
  }

  private _title: HTMLSpanElement;
  private _note: HTMLParagraphElement;
  private _body: HTMLDivElement;
  private _previous: HTMLButtonElement;
  private _next: HTMLButtonElement;
  private _acceptAll: HTMLButtonElement;
  private _rejectAll: HTMLButtonElement;
  private _merge: MergeView | null = null;
  /** The last plan loaded (title, buttons). */
  private _plan: IComparePlan | null = null;
  /** The plan the view draws (the keys act on its items); null before the first draw. */
  private _shown: IComparePlan | null = null;
  private _draws = 0;
  /** Why the person's last decision failed, or ''. */
  private _failed = '';
  private _busy = false;
  private _seq = 0;
  private _timer: number | null = null;
  private _unsubscribe: () => void;
}

/** The sentence on suggestions that could not be placed in the view, or ''. */
function skippedNote(plan: IComparePlan): string {
  const n = plan.skipped.length;
  return n === 0
    ? ''
    : `${n} more suggestion${n === 1 ? '' : 's'} cannot be shown here: ` +
        'the text changed under it, or it overlaps another one (the MCP Lab panel lists it).';
}
