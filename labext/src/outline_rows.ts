/**
 * The rows of the outlines the panel shows suggestions on, by path: a row
 * suggestion names rows by id, and its card says "under 'Research'" and
 * "with 3 rows below it" from the outline as the server reads it now (`GET
 * outline?path=`). Fetched once per path when a card first asks, again when
 * the server says the document changed; listeners redraw when rows arrive.
 * The requester is injected; no DOM.
 */
import type { IOutline } from './api_types';
import { normalizePath } from './documents';
import type { ServerEvents } from './events';
import type { Request } from './request';
import { IRowIndex, rowIndex } from './row_change';

export class OutlineRows {
  constructor(request: Request, events?: ServerEvents) {
    this._request = request;
    this._unsubscribe =
      events?.subscribe(['document'], event => {
        const path = normalizePath(event.data?.path);
        const known = this._rows.get(path);
        if (this._loading.has(path)) {
          this._again.add(path); // the answer on its way may be older
        } else if (
          known !== undefined &&
          known?.revision !== event.data?.revision
        ) {
          void this._fetch(path); // only paths a card asked for
        }
      }) ?? null;
  }

  /** The rows of the outline at `path` as an index; null until they are read. */
  index(path: string): IRowIndex | null {
    const key = normalizePath(path);
    const known = this._rows.get(key);
    if (known === undefined) {
      void this._fetch(key);
      return null;
    }
    return known?.index ?? null;
  }

  /** Called when some outline's rows arrive; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  dispose(): void {
    this._unsubscribe?.();
    this._listeners.clear();
  }

  private async _fetch(path: string): Promise<void> {
    if (this._loading.has(path)) {
      return;
    }
    this._loading.add(path);
    if (!this._rows.get(path)) {
      this._rows.set(path, null); // asked: not again until it changes
    }
    try {
      const outline = await this._request<IOutline>(
        `outline?path=${encodeURIComponent(path)}`
      );
      this._rows.set(path, {
        revision: outline.revision,
        index: rowIndex(outline.rows ?? [])
      });
      this._listeners.forEach(listener => listener());
    } catch (error) {
      // The cards still say what they can from the suggestion alone.
      console.warn(`MCP Lab: could not read the rows of ${path}`, error);
    } finally {
      this._loading.delete(path);
    }
    if (this._again.delete(path)) {
      void this._fetch(path);
    }
  }

  private _request: Request;
  private _unsubscribe: (() => void) | null;
  private _rows = new Map<
    string,
    { revision: string; index: IRowIndex } | null
  >();
  private _loading = new Set<string>();
  private _again = new Set<string>();
  private _listeners = new Set<() => void>();
}
