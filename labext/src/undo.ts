/**
 * Undo for a rejection: every reject made here (Esc in the panel, ✕ in an
 * editor, a card's Reject, Reject all) shows "Rejected · Undo" for a few
 * seconds; Undo reopens the suggestions on the server (`POST
 * suggestions/{id}/reopen`, allowed to the person for a short while after the
 * rejection), so every window and a reload see them pending again. The last
 * rejection can also be undone with the command (Accel Alt Z by default).
 */
import { Notification } from '@jupyterlab/apputils';

import type { ISuggestion } from './api_types';
import type { Request } from './request';
import { rejectedText, SuggestionsModel } from './suggestions';

/** How long the toast offers Undo (the server allows it a while longer). */
export const UNDO_MS = 10_000;

export class RejectUndo {
  constructor(
    private _model: SuggestionsModel,
    private _request: Request
  ) {
    _model.onRejected(rejected => this.offer(rejected));
  }

  /** The ids of the last rejection while it can still be undone here. */
  get undoable(): readonly string[] {
    return Date.now() - this._at <= UNDO_MS ? this._last : [];
  }

  /** Show the toast for a rejection just made. */
  offer(rejected: readonly ISuggestion[]): void {
    const ids = rejected.filter(s => s.status === 'rejected').map(s => s.id);
    if (ids.length === 0) {
      return;
    }
    this._dismiss();
    this._last = ids;
    this._at = Date.now();
    this._toast = Notification.info(rejectedText(rejected), {
      autoClose: UNDO_MS,
      actions: [
        {
          label: 'Undo',
          caption: 'Put the suggestion back, pending (Accel Alt Z)',
          displayType: 'accent',
          callback: () => void this.undo(ids)
        }
      ]
    });
  }

  /** Undo the last rejection (the command); false when there is none to undo. */
  async undoLast(): Promise<boolean> {
    const ids = this.undoable;
    if (ids.length === 0) {
      return false;
    }
    await this.undo(ids);
    return true;
  }

  /** Reopen these rejected suggestions; the panel and editors list them again. */
  async undo(ids: readonly string[]): Promise<void> {
    this._dismiss();
    if (ids === this._last) {
      this._last = [];
    }
    const failed: string[] = [];
    for (const id of ids) {
      try {
        await this._request<ISuggestion>(
          `suggestions/${encodeURIComponent(id)}/reopen`,
          { method: 'POST' }
        );
      } catch (error) {
        failed.push((error as Error)?.message ?? String(error));
      }
    }
    this._model.reopened(ids);
    if (failed.length > 0) {
      Notification.error(`Could not undo the rejection: ${failed[0]}`, {
        autoClose: 8000
      });
    }
  }

  private _dismiss(): void {
    if (this._toast !== null) {
      Notification.dismiss(this._toast);
      this._toast = null;
    }
  }

  private _last: readonly string[] = [];
  private _at = 0;
  private _toast: string | null = null;
}
