/**
 * Tell the person when agents stage suggestions: a JupyterLab notification
 * (one per agent and document for a burst of hunks) and, if they asked for
 * it, the MCP Lab panel opens by itself. Both are settings of the extension.
 */
import type { ServerEvents } from './events';

/** The extension's settings (schema/plugin.json). */
export interface INotifySettings {
  notifications: boolean;
  autoOpen: boolean;
}

export const DEFAULT_SETTINGS: INotifySettings = {
  notifications: true,
  autoOpen: false
};

/** One notice: an agent staged `count` suggestions on `path`. */
export interface INotice {
  author: string;
  path: string;
  count: number;
}

/** The text of a notice. */
export function noticeText(notice: INotice): string {
  const what = notice.count === 1 ? 'a change' : `${notice.count} changes`;
  return `${notice.author || 'An agent'} suggests ${what} to ${notice.path}`;
}

/**
 * Groups the "created" suggestion events of a burst (an edit staged as
 * several hunks, or an agent working fast) into one notice per agent and
 * document, after `delayMs` of quiet. Replayed events are ignored: they
 * happened before this page was listening.
 */
export class SuggestionNotifier {
  constructor(
    events: ServerEvents,
    private readonly _show: (notices: INotice[]) => void,
    private readonly _delayMs = 400
  ) {
    this._unsubscribe = events.subscribe(['suggestion'], event => {
      const s = event.data?.suggestion;
      if (event.replayed || event.data?.action !== 'created' || !s) {
        return;
      }
      const key = `${s.author ?? ''}\u0000${s.path ?? ''}`;
      const notice = this._pending.get(key) ?? {
        author: String(s.author ?? ''),
        path: String(s.path ?? ''),
        count: 0
      };
      notice.count += 1;
      this._pending.set(key, notice);
      if (this._timer !== null) {
        clearTimeout(this._timer);
      }
      this._timer = setTimeout(() => this._flush(), this._delayMs);
    });
  }

  dispose(): void {
    this._unsubscribe();
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }

  private _flush(): void {
    this._timer = null;
    const notices = [...this._pending.values()];
    this._pending.clear();
    if (notices.length > 0) {
      this._show(notices);
    }
  }

  private _pending = new Map<string, INotice>();
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _unsubscribe: () => void;
}
