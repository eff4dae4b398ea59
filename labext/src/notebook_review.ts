/**
 * Review in the open notebook: every cell with a pending suggestion is marked
 * (`jp-McpLab-cellPending`) and carries a bar below it (in its footer) saying
 * what the agent suggests (cell_change.ts), the diff of a source edit, and
 * Accept / Reject; a cell the agent inserts shows as a ghost bar after the
 * cell it follows (in that cell's footer; at the top: in the first cell's
 * header), until it is accepted.
 *
 * The suggestions are the panel's (`IMcpLab.suggestions`, refreshed on the
 * server's events), so the marks follow them live; they are placed by cell id
 * (notebook_review_model.ts) and drawn again when cells move, come and go. The
 * buttons decide through the same model as the panel's cards (the same REST
 * calls). Accepting writes the notebook on the server: a live (collaborative)
 * notebook gets the change through its shared document, a clean one is
 * reloaded by the agent-change follower (editors.ts), as text editors are.
 *
 * Notebooks are found among the shell's document widgets, as inline review
 * finds file editors; notebook_marks.ts draws each one's marks.
 */
import {
  ILabShell,
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { IDocumentWidget } from '@jupyterlab/docregistry';

import type { ISuggestion } from './api_types';
import { documentWidgets } from './documents';
import { IMarksOwner, MarkedNotebook, notebookOf } from './notebook_marks';
import { notebookSuggestions } from './notebook_review_model';
import { conflictReason } from './suggestions';
import { IMcpLab } from './tokens';

/** Marks the pending suggestions of every open notebook. */
export class NotebookReview implements IMarksOwner {
  constructor(
    private _app: JupyterFrontEnd,
    private _mcpLab: IMcpLab
  ) {
    _mcpLab.suggestions.onChange(() => this.renderAll());
  }

  /** Start marking the notebooks that opened since the last scan. */
  scan(): void {
    for (const widget of documentWidgets(this._app)) {
      const notebook = notebookOf(widget);
      if (!notebook || this._marked.has(widget)) {
        continue;
      }
      const marked = new MarkedNotebook(this, widget, notebook);
      this._marked.set(widget, marked);
      widget.disposed.connect(() => {
        marked.dispose();
        this._marked.delete(widget);
      });
    }
  }

  /** Draw every notebook's marks again. */
  renderAll(): void {
    for (const marked of this._marked.values()) {
      marked.render();
    }
  }

  /** The pending cell suggestions of a notebook. */
  suggestionsOf(path: string): ISuggestion[] {
    return notebookSuggestions(this._mcpLab.suggestions.groups, path);
  }

  isBusy(id: string): boolean {
    return this._mcpLab.suggestions.isBusy(id);
  }

  /** Accept or reject from a cell's bar, as the panel's buttons do. */
  async decide(id: string, action: 'accept' | 'reject'): Promise<void> {
    const model = this._mcpLab.suggestions;
    if (model.isBusy(id)) {
      return;
    }
    const result =
      action === 'accept' ? await model.accept(id) : await model.reject(id);
    if (!result) {
      Notification.error(
        `Could not ${action} the suggestion: ${model.error ?? 'the server did not answer'}`,
        { autoClose: 8000 }
      );
    } else if (result.status === 'conflict') {
      Notification.warning(conflictReason(result), { autoClose: 8000 });
    }
  }

  private _marked = new Map<IDocumentWidget, MarkedNotebook>();
}

export const notebookReviewPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:notebook-review',
  description: 'Marks the cells with pending suggestions in open notebooks.',
  autoStart: true,
  requires: [IMcpLab],
  optional: [ILabShell],
  activate: (
    app: JupyterFrontEnd,
    mcpLab: IMcpLab,
    labShell: ILabShell | null
  ) => {
    const review = new NotebookReview(app, mcpLab);
    // New notebooks: the dock's layout changes when one opens.
    const scan = () => review.scan();
    labShell?.layoutModified.connect(scan);
    labShell?.currentChanged.connect(scan);
    app.shell.currentChanged?.connect(scan);
    void app.restored.then(scan);
  }
};
