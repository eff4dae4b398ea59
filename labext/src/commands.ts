/**
 * The review's commands, in the command palette (category "MCP Lab") with
 * stable ids, so a person can bind keys to them in Settings → Keyboard
 * Shortcuts (defaults in schema/plugin.json).
 *
 * In a file editor the suggestion commands act on what inline review shows
 * there: "at the cursor" is the suggestion whose text the cursor is on, and
 * next/previous move the cursor from one to the next (and select its card).
 * Anywhere else they act on the panel's selection, as its keys do.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import type { CodeEditor } from '@jupyterlab/codeeditor';

import { openReviewBoard } from './board_link';
import {
  activeDocumentPath,
  contextPath,
  editorOf,
  isDocumentWidget
} from './documents';
import {
  IInlineItem,
  ILocatedList,
  locateEndpoint,
  placeSuggestions
} from './inline_model';
import { requestAPI } from './request';
import { IMcpLab } from './tokens';
import { RejectUndo } from './undo';
import { rangeAt, stepFrom } from './review_nav';
import { revisionOf } from './revision';
import type { SuggestionsModel } from './suggestions';

/** Command ids: stable, people bind keys to them. */
export namespace ReviewCommandIDs {
  export const next = 'jupyter-mcp-lab:next-suggestion';
  export const previous = 'jupyter-mcp-lab:previous-suggestion';
  export const accept = 'jupyter-mcp-lab:accept-suggestion';
  export const reject = 'jupyter-mcp-lab:reject-suggestion';
  export const acceptAll = 'jupyter-mcp-lab:accept-all-in-document';
  export const undoReject = 'jupyter-mcp-lab:undo-reject';
  export const openBoard = 'jupyter-mcp-lab:open-review-board';
}

/** What the commands work with. */
export interface IReviewCommandsOptions {
  model: SuggestionsModel;
  undo: RejectUndo;
  /** Show the panel (the fallback where there is no editor). */
  openPanel: () => void;
  palette: ICommandPalette | null;
}

/** The current file editor, its document's path, and the suggestions shown in it. */
interface IEditorSuggestions {
  editor: CodeEditor.IEditor;
  path: string;
  items: IInlineItem[];
  cursor: number;
}

/** The main area's file editor and the suggestions placed in its text now; null elsewhere. */
async function editorSuggestions(
  app: JupyterFrontEnd
): Promise<IEditorSuggestions | null> {
  const widget = app.shell.currentWidget;
  if (!isDocumentWidget(widget) || !widget.content.hasClass('jp-FileEditor')) {
    return null;
  }
  const editor = editorOf(widget);
  if (!editor) {
    return null;
  }
  const path = contextPath(widget.context);
  const list = await requestAPI<ILocatedList>(locateEndpoint(path));
  const text = editor.model.sharedModel.getSource();
  const { items } = placeSuggestions(
    text,
    list,
    () => revisionOf(text) === list.revision
  );
  const cursor = editor.getOffsetAt(editor.getCursorPosition());
  return { editor, path, items, cursor };
}

function say(message: string): void {
  Notification.info(message, { autoClose: 4000 });
}

export function addReviewCommands(
  app: JupyterFrontEnd,
  options: IReviewCommandsOptions
): void {
  const { model, undo, openPanel, palette } = options;
  const { commands } = app;

  const step = async (direction: 'next' | 'previous') => {
    const here = await editorSuggestions(app);
    if (here && here.items.length > 0) {
      const target = stepFrom(here.items, here.cursor, direction)!;
      const position = here.editor.getPositionAt(target.from);
      if (position) {
        here.editor.setCursorPosition(position);
        here.editor.revealPosition(position);
      }
      here.editor.focus();
      model.select(target.id);
      return;
    }
    if (model.pendingCount === 0) {
      say('No suggestion is waiting for review.');
      return;
    }
    openPanel();
    model.moveSelection(direction);
  };

  /** The suggestion at the editor's cursor, else the panel's selected one. */
  const current = async (): Promise<string | null> => {
    const here = await editorSuggestions(app);
    if (here) {
      return rangeAt(here.items, here.cursor)?.id ?? null;
    }
    return model.selected;
  };

  const decide = async (action: 'accept' | 'reject') => {
    const id = await current();
    if (id === null) {
      say(
        'No suggestion here: put the cursor on a suggested change, or select one in the MCP Lab panel.'
      );
      return;
    }
    const result = await (action === 'accept'
      ? model.accept(id)
      : model.reject(id));
    if (result === null) {
      Notification.error(
        `Could not ${action} the suggestion: ${model.error ?? 'the server did not answer'}`,
        { autoClose: 8000 }
      );
    } else if (result.status === 'conflict') {
      Notification.warning(
        result.reason ??
          'Its original text changed since it was suggested; nothing was applied.',
        { autoClose: 8000 }
      );
    }
  };

  commands.addCommand(ReviewCommandIDs.next, {
    label: 'Go to Next Suggestion',
    caption:
      'Move to the next pending suggestion (in an editor: the next one in its text)',
    execute: () => step('next')
  });
  commands.addCommand(ReviewCommandIDs.previous, {
    label: 'Go to Previous Suggestion',
    caption:
      'Move to the previous pending suggestion (in an editor: the previous one in its text)',
    execute: () => step('previous')
  });
  commands.addCommand(ReviewCommandIDs.accept, {
    label: 'Accept Suggestion',
    caption:
      'Accept the suggestion at the cursor (outside an editor: the one selected in the panel)',
    execute: () => decide('accept')
  });
  commands.addCommand(ReviewCommandIDs.reject, {
    label: 'Reject Suggestion',
    caption:
      'Reject the suggestion at the cursor (outside an editor: the one selected in the panel); Undo puts it back',
    execute: () => decide('reject')
  });
  commands.addCommand(ReviewCommandIDs.acceptAll, {
    label: 'Accept All Suggestions in This Document',
    caption:
      'Accept every pending suggestion on the current document (outside an editor: the selected suggestion’s)',
    execute: async () => {
      const selected = model.groups.find(g =>
        g.suggestions.some(s => s.id === model.selected)
      );
      const path = activeDocumentPath(app) ?? selected?.path ?? null;
      const group = model.groups.find(g => g.path === path);
      if (!path || !group) {
        say('The current document has no pending suggestions.');
        return;
      }
      const result = await model.acceptAll(path);
      if (result && (result.conflicts ?? []).length > 0) {
        Notification.warning(
          `${result.conflicts.length} of the suggestions on ${path} conflict with later changes; the panel lists them.`,
          { autoClose: 8000 }
        );
      }
    }
  });
  commands.addCommand(ReviewCommandIDs.undoReject, {
    label: 'Undo the Last Rejection',
    caption: 'Put the suggestions you just rejected back, pending',
    execute: async () => {
      if (!(await undo.undoLast())) {
        say('There is no rejection to undo (Undo lasts a few seconds).');
      }
    }
  });
  commands.addCommand(ReviewCommandIDs.openBoard, {
    label: 'Open the Review Board',
    caption:
      'Every pending suggestion in a table, with filters and the agents’ activity (a Panel app in a new tab)',
    execute: () =>
      openReviewBoard().catch(error =>
        Notification.error(
          `The review board could not be set up: ${(error as Error).message}`,
          { autoClose: 8000 }
        )
      )
  });

  for (const command of [
    ReviewCommandIDs.next,
    ReviewCommandIDs.previous,
    ReviewCommandIDs.accept,
    ReviewCommandIDs.reject,
    ReviewCommandIDs.acceptAll,
    ReviewCommandIDs.undoReject,
    ReviewCommandIDs.openBoard
  ]) {
    palette?.addItem({ command, category: 'MCP Lab' });
  }
}

/** The review commands and the undo offer, for the panel's suggestions. */
export const reviewCommandsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:review-commands',
  description:
    'Commands to walk, accept and reject suggestions, undo a rejection, open the review board.',
  autoStart: true,
  requires: [IMcpLab],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    mcpLab: IMcpLab,
    palette: ICommandPalette | null
  ) => {
    addReviewCommands(app, {
      model: mcpLab.suggestions,
      undo: new RejectUndo(mcpLab.suggestions, requestAPI),
      openPanel: () => mcpLab.openPanel(),
      palette
    });
  }
};
