/**
 * Editors following agents' changes, the pure part. The server sends a
 * `document` event `{path, revision}` for every applied agent change; for
 * each open document on that path:
 *
 * - the editor already shows `revision`, or the file on disk is still the
 *   version the editor last loaded or saved (the change has not reached the
 *   disk, or the editor reloaded already): nothing to do;
 * - the document is clean: reload it from disk;
 * - it has unsaved changes: ask the person, who reloads (their changes are
 *   lost) or keeps theirs. Keeping takes the disk's version as the one the
 *   editor is based on, so their next save overwrites the agent's change.
 *
 * `decide` and `AgentChangeFollower` work on an injected host (editors.ts is
 * JupyterLab's; the tests have a fake).
 */
import { normalizePath } from './documents';
import type { IServerEvent, ServerEvents } from './events';
import { revisionOf } from './revision';

/** A version of a file on disk, as the contents API describes it. */
export interface IDiskVersion {
  hash?: string | null;
  lastModified?: string | null;
}

/** Whether two descriptions name the same version (unknown: assume not). */
export function sameVersion(
  a: IDiskVersion | null,
  b: IDiskVersion | null
): boolean {
  if (!a || !b) {
    return false;
  }
  if (a.hash && b.hash) {
    return a.hash === b.hash;
  }
  if (a.lastModified && b.lastModified) {
    return a.lastModified === b.lastModified;
  }
  return false;
}

/** What a follower needs of one open document (a context, or a fake). */
export interface IFollowedDocument {
  /** Root-relative, as the server's events name documents. */
  readonly path: string;
  /** Whether it has unsaved changes. */
  readonly dirty: boolean;
  /** Gone (closed): nothing more to do for it. */
  readonly disposed: boolean;
  /** The text the editor shows. */
  text(): string;
  /** The version on disk the editor last loaded or saved. */
  base(): IDiskVersion | null;
  /** The version on disk now. */
  disk(): Promise<IDiskVersion>;
  /** Load the file from disk. */
  reload(): Promise<void>;
  /** Take `disk` as the base: the next save overwrites it without asking. */
  adopt(disk: IDiskVersion): void;
}

/** What to do about one document after an agent changed its file. */
export type Decision = 'none' | 'reload' | 'ask';

/** The decision once the disk's version is known (see the module's doc). */
export function decide(
  doc: Pick<IFollowedDocument, 'dirty' | 'base'>,
  disk: IDiskVersion
): Decision {
  if (sameVersion(doc.base(), disk)) {
    return 'none';
  }
  return doc.dirty ? 'ask' : 'reload';
}

/** The person's choice for a dirty document. */
export interface IChoices {
  reload: () => Promise<void>;
  keep: () => void;
}

/** Where the follower finds documents and asks the person. */
export interface IFollowerHost {
  /** The open documents on `path` (one per context). */
  documents(path: string): IFollowedDocument[];
  /** Tell the person an agent changed `doc` under their unsaved changes. */
  ask(doc: IFollowedDocument, choices: IChoices): void;
}

/** Follows `document` events for the documents a host has open. */
export class AgentChangeFollower {
  constructor(host: IFollowerHost, events: ServerEvents) {
    this._host = host;
    this._unsubscribe = events.subscribe(['document'], event => {
      void this.handle(event);
    });
  }

  /**
   * Act on one `document` event; resolves when its documents are handled.
   * Events for one path are handled in order, one at a time.
   */
  handle(event: IServerEvent): Promise<void> {
    const path = normalizePath(event.data?.path);
    if (!path) {
      return Promise.resolve();
    }
    const revision =
      typeof event.data?.revision === 'string' ? event.data.revision : null;
    const previous = this._queues.get(path) ?? Promise.resolve();
    const next = previous.then(() => this._process(path, revision));
    this._queues.set(path, next);
    void next.then(() => {
      if (this._queues.get(path) === next) {
        this._queues.delete(path);
      }
    });
    return next;
  }

  dispose(): void {
    this._unsubscribe();
  }

  private async _process(path: string, revision: string | null) {
    for (const doc of this._host.documents(path)) {
      try {
        await this._follow(doc, revision);
      } catch (error) {
        console.error(`MCP Lab: could not follow the change to ${path}`, error);
      }
    }
  }

  private async _follow(doc: IFollowedDocument, revision: string | null) {
    if (doc.disposed || (revision && revisionOf(doc.text()) === revision)) {
      return; // it shows that revision already (e.g. the person's own save)
    }
    const disk = await doc.disk();
    if (doc.disposed) {
      return;
    }
    switch (decide(doc, disk)) {
      case 'reload':
        await doc.reload();
        break;
      case 'ask':
        this._host.ask(doc, {
          reload: () => (doc.disposed ? Promise.resolve() : doc.reload()),
          keep: () => {
            if (!doc.disposed) {
              doc.adopt(disk);
            }
          }
        });
        break;
    }
  }

  private _host: IFollowerHost;
  private _unsubscribe: () => void;
  private _queues = new Map<string, Promise<void>>();
}
