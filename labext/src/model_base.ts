/**
 * What the panel's models share, so that each holds only its own state:
 * change listeners (`ModelBase`), a fetch whose failure is kept to be shown
 * (`FetchedModel`), and a list refreshed on request with actions on its items
 * (`ListModel`). No JupyterLab or DOM imports: the models run in plain Node.
 */

/** The message of a failed request. */
export function errorText(error: unknown): string {
  return (error as Error)?.message || String(error);
}

/** Change listeners; `T` is what they are told (nothing, or the new state). */
export class ModelBase<T = void> {
  /** Register a listener for state changes; returns a function removing it. */
  onChange(listener: (value: T) => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** Tell every listener; one that throws does not keep the others from it. */
  protected emit(value: T): void {
    for (const listener of [...this._listeners]) {
      try {
        listener(value);
      } catch (error) {
        console.error('MCP Lab: a model listener failed', error);
      }
    }
  }

  protected removeListeners(): void {
    this._listeners.clear();
  }

  private _listeners = new Set<(value: T) => void>();
}

/** A model fetched from the REST API; a failed fetch keeps what was fetched before. */
export class FetchedModel extends ModelBase {
  /** Whether the list was fetched at least once. */
  get loaded(): boolean {
    return this._loaded;
  }

  /** The failed fetch, or null. */
  get error(): string | null {
    return this.fetchError;
  }

  /**
   * Run one fetch: its failure is kept in `fetchError` until one succeeds;
   * either way the model counts as loaded and the listeners hear of it.
   */
  protected async load(fetch: () => Promise<void>): Promise<void> {
    try {
      await fetch();
      this.fetchError = null;
    } catch (error) {
      this.fetchError = errorText(error);
    }
    this._loaded = true;
    this.emit();
  }

  /** Refreshed by its section once: only then do events and reconnects fetch. */
  protected started = false;
  protected fetchError: string | null = null;
  private _loaded = false;
}

/**
 * A list its section refreshes, and events refresh once it was shown, with
 * actions on its items: an item with a request in flight is `busy`, and a
 * second request for it is not sent.
 */
export abstract class ListModel extends FetchedModel {
  /** The keys (item ids) with a request in flight. */
  get busy(): ReadonlySet<string> {
    return this._busy;
  }

  /** The last failed action, else the failed list fetch, else null. */
  get error(): string | null {
    return this.actionError ?? super.error;
  }

  /**
   * Fetch the list again. Concurrent calls share the fetch in flight, plus
   * one after it (it may have missed what changed meanwhile).
   */
  refresh(): Promise<void> {
    this.started = true;
    if (this._refreshing) {
      this._refreshAgain = true;
      return this._refreshing;
    }
    this._refreshing = this.load(() => this.fetch()).finally(() => {
      this._refreshing = null;
      if (this._refreshAgain) {
        this._refreshAgain = false;
        void this.refresh();
      }
    });
    return this._refreshing;
  }

  /** The stream reconnected: catch up on what was missed. */
  reconnected(): void {
    this.refreshIfStarted();
  }

  /** Refresh for an event, unless no section showed the list yet. */
  protected refreshIfStarted(): void {
    if (this.started) {
      void this.refresh();
    }
  }

  /** Fetch the list into the model's state; throws when the request fails. */
  protected abstract fetch(): Promise<void>;

  /**
   * Run `action` on item `key` (null and nothing sent while one runs), busy
   * meanwhile, then fetch the list again. A failure goes to `failed`, by
   * default into `actionError`, which a success clears.
   */
  protected async act<T>(
    key: string,
    action: () => Promise<T>,
    failed: (error: unknown) => void = error => {
      this.actionError = errorText(error);
    }
  ): Promise<T | null> {
    if (this._busy.has(key)) {
      return null;
    }
    this._busy.add(key);
    this.emit();
    let result: T | null = null;
    try {
      result = await action();
      this.actionError = null;
    } catch (error) {
      failed(error);
    } finally {
      this._busy.delete(key);
    }
    this.emit();
    await this.refresh();
    return result;
  }

  protected actionError: string | null = null;
  private _busy = new Set<string>();
  private _refreshing: Promise<void> | null = null;
  private _refreshAgain = false;
}
