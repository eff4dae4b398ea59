/**
 * Inline review in CodeMirror 6: a state field holding the placed suggestions
 * of one editor and drawing them (the original struck through, the new text as
 * a ghost widget that is not part of the document, Accept / Reject buttons).
 *
 * The field maps its items through every transaction, so the decorations
 * follow the person's typing until the next refresh replaces them. The
 * @codemirror packages are JupyterLab's own (shared singletons), so the field
 * can be added to the editors JupyterLab made.
 */
import {
  EditorState,
  Extension,
  StateEffect,
  StateField,
  Transaction
} from '@codemirror/state';
import {
  Decoration,
  DecorationSet,
  EditorView,
  WidgetType
} from '@codemirror/view';

import { decorationSpecs, IInlineItem, mapItems } from './inline_model';

/** What the buttons do, and who hears of text typed over a suggestion. */
export interface IInlineActions {
  decide(view: EditorView, id: string, action: 'accept' | 'reject'): void;
  /** The person's typing changed these suggestions' text: they no longer apply as shown. */
  typedOver?(view: EditorView, ids: string[]): void;
}

/** The user events of the person's own edits (not a reload or a remote change). */
const TYPING = ['input', 'delete', 'undo', 'redo', 'move'];

/** Replace the items (a refresh). */
export const setInlineItems = StateEffect.define<IInlineItem[]>();
/** Drop one item (decided). */
export const removeInlineItem = StateEffect.define<string>();
/** Mark one item busy or not (a decision in flight). */
export const setInlineBusy = StateEffect.define<{
  id: string;
  busy: boolean;
}>();

interface IFieldValue {
  items: IInlineItem[];
  decorations: DecorationSet;
}

/** The ghost insertion and the buttons, right after the struck original. */
class SuggestionWidget extends WidgetType {
  constructor(
    readonly id: string,
    readonly text: string,
    readonly title: string,
    readonly busy: boolean,
    readonly actions: IInlineActions
  ) {
    super();
  }

  eq(other: SuggestionWidget): boolean {
    return (
      other.id === this.id &&
      other.text === this.text &&
      other.title === this.title &&
      other.busy === this.busy
    );
  }

  toDOM(view: EditorView): HTMLElement {
    const wrap = document.createElement('span');
    wrap.className = 'jp-McpLab-inlineSuggestion';
    wrap.dataset.suggestionId = this.id;
    if (this.text) {
      const ins = document.createElement('span');
      ins.className = 'jp-McpLab-inlineIns';
      ins.textContent = this.text;
      ins.title = this.title;
      wrap.appendChild(ins);
    }
    const buttons = document.createElement('span');
    buttons.className = 'jp-McpLab-inlineActions';
    buttons.appendChild(this._button(view, 'accept', '✓', 'Accept suggestion'));
    buttons.appendChild(this._button(view, 'reject', '✕', 'Reject suggestion'));
    wrap.appendChild(buttons);
    return wrap;
  }

  /** Events in the widget are the buttons', not the editor's. */
  ignoreEvent(): boolean {
    return true;
  }

  private _button(
    view: EditorView,
    action: 'accept' | 'reject',
    glyph: string,
    name: string
  ): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `jp-McpLab-inlineButton jp-McpLab-inline-${action}`;
    button.textContent = glyph;
    button.setAttribute('aria-label', name);
    button.title = `${name} — ${this.title}`;
    button.disabled = this.busy;
    // Keep the editor's cursor and focus where they are.
    button.addEventListener('mousedown', event => event.preventDefault());
    button.addEventListener('click', event => {
      event.preventDefault();
      event.stopPropagation();
      this.actions.decide(view, this.id, action);
    });
    return button;
  }
}

function build(items: IInlineItem[], actions: IInlineActions): DecorationSet {
  const ranges = decorationSpecs(items).map(spec =>
    spec.kind === 'del'
      ? Decoration.mark({
          class: 'jp-McpLab-inlineDel',
          attributes: { 'data-suggestion-id': spec.id, title: spec.title }
        }).range(spec.from, spec.to)
      : Decoration.widget({
          widget: new SuggestionWidget(
            spec.id,
            spec.text,
            spec.title,
            spec.busy,
            actions
          ),
          side: 1
        }).range(spec.at)
  );
  return Decoration.set(ranges, true);
}

/** Items that fit `state`'s text (a refresh computed against it does). */
function fitting(items: IInlineItem[], state: EditorState): IInlineItem[] {
  const length = state.doc.length;
  return items.filter(
    item =>
      item.from >= 0 &&
      item.to <= length &&
      item.from <= item.to &&
      state.doc.sliceString(item.from, item.to) === item.original
  );
}

/** The inline review of one JupyterLab: its field and the extension to add. */
export class InlineField {
  constructor(private _actions: IInlineActions) {
    const actions = _actions;
    this.field = StateField.define<IFieldValue>({
      create: () => ({ items: [], decorations: Decoration.none }),
      update: (value, tr: Transaction) => {
        let items = value.items;
        if (tr.docChanged && items.length > 0) {
          items = mapItems(
            items,
            (pos, assoc) => tr.changes.mapPos(pos, assoc),
            (from, to) => tr.state.doc.sliceString(from, to)
          );
        }
        for (const effect of tr.effects) {
          if (effect.is(setInlineItems)) {
            items = fitting(effect.value, tr.state);
          } else if (effect.is(removeInlineItem)) {
            items = items.filter(item => item.id !== effect.value);
          } else if (effect.is(setInlineBusy)) {
            const { id, busy } = effect.value;
            items = items.map(item =>
              item.id === id ? { ...item, busy } : item
            );
          }
        }
        if (items === value.items) {
          return value;
        }
        return { items, decorations: build(items, actions) };
      },
      provide: field => EditorView.decorations.from(field, v => v.decorations)
    });
  }

  /** What to add to an editor: the field, and the watch for typing over its items. */
  get extension(): Extension {
    return [this.field, this._typing];
  }

  /** Whether `view` has the field already. */
  installed(view: EditorView): boolean {
    return view.state.field(this.field, false) !== undefined;
  }

  /** Add the field to `view` (kept when JupyterLab reconfigures the editor). */
  install(view: EditorView): void {
    view.dispatch({ effects: StateEffect.appendConfig.of(this.extension) });
  }

  /** The items `view` shows now. */
  items(view: EditorView): IInlineItem[] {
    return view.state.field(this.field, false)?.items ?? [];
  }

  readonly field: StateField<IFieldValue>;

  /**
   * Items the person's own typing removed (their text no longer holds the
   * suggestion's original), told to `actions.typedOver`; a refresh or a
   * decision removing items is not typing.
   */
  private _typing = EditorView.updateListener.of(update => {
    const typedOver = this._actions.typedOver;
    if (!typedOver || !update.docChanged) {
      return;
    }
    const typed = update.transactions.some(tr =>
      TYPING.some(event => tr.isUserEvent(event))
    );
    const replaced = update.transactions.some(tr =>
      tr.effects.some(e => e.is(setInlineItems) || e.is(removeInlineItem))
    );
    if (!typed || replaced) {
      return;
    }
    const after = new Set(
      (update.state.field(this.field, false)?.items ?? []).map(i => i.id)
    );
    const gone = (update.startState.field(this.field, false)?.items ?? [])
      .map(i => i.id)
      .filter(id => !after.has(id));
    if (gone.length > 0) {
      typedOver(update.view, gone);
    }
  });
}
