/**
 * From a card to the text: open (or bring forward) the document a suggestion
 * is on and put the editor's cursor on its change, scrolled into view and
 * briefly highlighted. Where the change is now comes from the server
 * (`locate`), placed in the editor's own text as inline review places it, so
 * unsaved typing above it does not send the cursor to the wrong line; failing
 * that, its line.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { IDocumentWidget } from '@jupyterlab/docregistry';
import { EditorView } from '@codemirror/view';
import { DockPanel } from '@lumino/widgets';

import { editorOf, isDocumentWidget } from './documents';
import { ILocatedList, locateEndpoint, placeSuggestions } from './inline_model';
import { viewOf } from './inline_editor';
import { revealCellBar } from './notebook_marks';
import type { Request } from './request';
import { revisionOf } from './revision';

/** What to reveal: a suggestion (by id) on a document, else a line there. */
export interface IRevealTarget {
  path: string;
  /** The suggestion, placed where it is now when it can be. */
  id?: string;
  /** 1-based line to go to when the suggestion cannot be placed. */
  line: number;
  /**
   * An outline row suggestion's rows to show in the tree view, the first it
   * has wins (part_change.ts `rowsToReveal`).
   */
  rows?: readonly string[];
}

/** What reveal uses of the outline tree view (outline_tree_view.ts). */
interface ITreeContent {
  model: { tree: { nodes: Map<string, unknown> } };
  revealRow(rowId: string, focus: boolean): void;
}

/** Show the first of `rows` the tree view has; false when it is no tree. */
function revealTreeRow(
  content: unknown,
  rows: readonly string[],
  focus: boolean
): boolean {
  const tree = content as Partial<ITreeContent> | null;
  const nodes = tree?.model?.tree?.nodes;
  if (!nodes || typeof tree?.revealRow !== 'function') {
    return false;
  }
  const row = rows.find(id => nodes.has(id));
  if (row !== undefined) {
    tree.revealRow(row, focus);
  }
  return true;
}

/** How long the revealed change stays highlighted. */
export const FLASH_MS = 1500;

/**
 * The open document widget showing `path`, opened if need be and brought to
 * the front of its tab area. With `activate` it also takes the focus (a
 * link); without, the focus stays where it is (a click on a card, whose keys
 * must keep working: Enter then accepts, it does not type into the file).
 */
export async function openDocument(
  app: JupyterFrontEnd,
  path: string,
  activate = true
): Promise<IDocumentWidget | null> {
  const widget = await app.commands.execute('docmanager:open', {
    path,
    options: { activate }
  });
  if (!isDocumentWidget(widget)) {
    return null;
  }
  if (!activate && widget.parent instanceof DockPanel) {
    widget.parent.selectWidget(widget); // its tab in front, no focus taken
  }
  await widget.context.ready;
  return widget;
}

/**
 * Open the target's document and put the cursor on it. With `focus` the
 * editor takes the keyboard; without, the focus stays where it is (a click on
 * a card leaves the panel's keys working). Resolves to false when the document has
 * no text editor (a notebook, a rendered view): it is open, and a notebook
 * shows the suggestion's cell bar (notebook_marks.ts), scrolled to and lit.
 */
export async function reveal(
  app: JupyterFrontEnd,
  request: Request,
  target: IRevealTarget,
  options: { focus: boolean }
): Promise<boolean> {
  const widget = await openDocument(app, target.path, options.focus);
  const editor = widget ? editorOf(widget) : null;
  if (widget && !editor && target.rows?.length) {
    // An outline's tree view: its row, unfolded and focused.
    revealTreeRow(widget.content, target.rows, options.focus);
  } else if (widget && !editor && target.id) {
    // A notebook: its cell's review bar, if it shows one.
    await revealCellBar(widget.node, target.id, FLASH_MS);
  }
  if (!widget || !editor) {
    return false;
  }
  const text = editor.model.sharedModel.getSource();
  let range: { from: number; to: number } | null = null;
  if (target.id) {
    try {
      const list = await request<ILocatedList>(locateEndpoint(target.path));
      const { items } = placeSuggestions(
        text,
        list,
        () => revisionOf(text) === list.revision
      );
      range = items.find(item => item.id === target.id) ?? null;
    } catch (error) {
      console.warn('MCP Lab: could not place the suggestion', error);
    }
  }
  if (range === null) {
    const line = Math.min(Math.max(target.line, 1), editor.lineCount) - 1;
    const at = editor.getOffsetAt({ line, column: 0 });
    range = { from: at, to: at };
  }
  const view = viewOf(editor);
  if (view) {
    view.dispatch({
      selection: { anchor: range.from, head: range.to },
      effects: EditorView.scrollIntoView(range.from, { y: 'center' })
    });
  } else {
    const position = editor.getPositionAt(range.from);
    if (position) {
      editor.setCursorPosition(position);
      editor.revealPosition(position);
    }
  }
  if (options.focus) {
    editor.focus();
  }
  flash(widget, target.id);
  return true;
}

/** Highlight the suggestion's inline marks for a moment, so the eye finds them. */
function flash(widget: IDocumentWidget, id: string | undefined): void {
  if (!id) {
    return;
  }
  // The inline decorations are drawn on the next frame after a scroll.
  window.requestAnimationFrame(() => {
    const marks = widget.node.querySelectorAll(
      `[data-suggestion-id="${CSS.escape(id)}"]`
    );
    marks.forEach(mark => mark.classList.add('jp-mod-flash'));
    window.setTimeout(
      () => marks.forEach(mark => mark.classList.remove('jp-mod-flash')),
      FLASH_MS
    );
  });
}
