/**
 * The "Trust grants" section of the MCP Lab panel: let one agent (by its MCP
 * client name) apply directly to a file or folder for a while, and see and
 * revoke the active grants. Every change made under a grant is still a
 * checkpoint (see checkpoints.ts), so a grant trades review for revert.
 *
 * `GrantsModel` is pure (the requester is injected, no DOM): the active
 * grants, the agents seen recently (for the form's suggestions), create and
 * revoke with their errors, the live refresh on `grant` events.
 * `GrantsSection` renders it.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import { errorText } from './checkpoints';
import { button, el, sectionFrame } from './dom';
import type { IServerEvent } from './events';
import type { IPanelContext, IPanelSection, Request } from './section';

/** One grant, as `GET grants` answers it. */
export interface IGrant {
  id: string;
  scope: string;
  agent: string;
  agentKind: 'session' | 'client';
  created: number;
  expires: number;
  createdBy: string;
  revoked: number | null;
  active: boolean;
}

/** `POST grants`. */
export interface INewGrant {
  scope: string;
  agent: string;
  agentKind: 'session' | 'client';
  minutes: number;
}

/** An MCP session seen recently (`GET status`, `agents`). */
export interface IAgentSeen {
  session: string;
  client: string;
  user: string;
  lastActivity: number;
  calls: number;
}

/** What the form offers: the server allows up to a week. */
export const DURATIONS: ReadonlyArray<{ label: string; minutes: number }> = [
  { label: '15 minutes', minutes: 15 },
  { label: '1 hour', minutes: 60 },
  { label: '8 hours', minutes: 8 * 60 },
  { label: '1 day', minutes: 24 * 60 },
  { label: '1 week', minutes: 7 * 24 * 60 }
];

/** The form's default duration. */
export const DEFAULT_MINUTES = 60;

/** "45 s left", "14 min left", "7 h 59 min left", "6 days 23 h left", "expired". */
export function timeLeft(expires: number, now: number): string {
  const seconds = Math.floor(expires - now);
  if (seconds <= 0) {
    return 'expired';
  }
  if (seconds < 60) {
    return `${seconds} s left`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return `${minutes} min left`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    const rest = minutes % 60;
    return rest ? `${hours} h ${rest} min left` : `${hours} h left`;
  }
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const dayText = `${days} day${days === 1 ? '' : 's'}`;
  return rest ? `${dayText} ${rest} h left` : `${dayText} left`;
}

/** How a scope reads: "" is the whole workspace. */
export function scopeLabel(scope: string): string {
  return scope === '' ? 'the whole workspace' : scope;
}

/** The distinct client names of the agents seen, most recent first. */
export function agentNames(agents: IAgentSeen[]): string[] {
  const names: string[] = [];
  for (const agent of [...agents].sort(
    (a, b) => b.lastActivity - a.lastActivity
  )) {
    if (agent.client && !names.includes(agent.client)) {
      names.push(agent.client);
    }
  }
  return names;
}

/**
 * The workspace path of a document widget (`widget.context.path`), without a
 * drive prefix such as "RTC:"; null for anything that is not a document.
 */
export function documentPath(
  widget: unknown,
  localPath: (path: string) => string = path => path
): string | null {
  const path = (widget as any)?.context?.path;
  return typeof path === 'string' && path !== '' ? localPath(path) : null;
}

/** The path of the document in the main area's current widget, if any. */
export function activeDocumentPath(app: JupyterFrontEnd | null): string | null {
  if (!app) {
    return null;
  }
  const contents = (app.serviceManager as any)?.contents;
  return documentPath(app.shell.currentWidget, path =>
    typeof contents?.localPath === 'function' ? contents.localPath(path) : path
  );
}

/** Now, in the server's unit (Unix seconds). */
function nowSeconds(): number {
  return Date.now() / 1000;
}

/**
 * The grants model. `onChange` listeners run after every state change; the
 * section redraws from `grants`, `agents`, `busy`, `formError`, `error`.
 */
export class GrantsModel {
  constructor(request: Request) {
    this._request = request;
  }

  /** The active grants, oldest first. */
  get grants(): IGrant[] {
    return this._grants;
  }

  /** The active grants at `now` (the list is fetched; time passes between). */
  activeAt(now: number): IGrant[] {
    return this._grants.filter(g => g.revoked === null && g.expires > now);
  }

  /** Client names of the agents seen in the last 30 minutes, most recent first. */
  get agents(): string[] {
    return this._agents;
  }

  /** Whether the list was fetched at least once. */
  get loaded(): boolean {
    return this._loaded;
  }

  /** The last failed revoke, else the failed list fetch, else null. */
  get error(): string | null {
    return this._actionError ?? this._listError;
  }

  /** Why the last grant was refused (the server's validation message), or null. */
  get formError(): string | null {
    return this._formError;
  }

  /** Whether a grant is being created. */
  get creating(): boolean {
    return this._creating;
  }

  /** The ids of grants with a revoke in flight. */
  get busy(): ReadonlySet<string> {
    return this._busy;
  }

  /** Register a listener for state changes; returns a function removing it. */
  onChange(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }

  /** Fetch the active grants and the agents seen. Concurrent calls share one request. */
  refresh(): Promise<void> {
    this._started = true;
    if (this._refreshing) {
      this._refreshAgain = true;
      return this._refreshing;
    }
    this._refreshing = this._doRefresh().finally(() => {
      this._refreshing = null;
      if (this._refreshAgain) {
        this._refreshAgain = false;
        void this.refresh();
      }
    });
    return this._refreshing;
  }

  /** A server event: a grant created or revoked (here or elsewhere) refreshes. */
  handleEvent(event: IServerEvent): void {
    if (event.type === 'grant' && this._started) {
      void this.refresh();
    }
  }

  /** The stream reconnected: catch up on what was missed. */
  reconnected(): void {
    if (this._started) {
      void this.refresh();
    }
  }

  /**
   * Let `agent` (an MCP client name) apply directly below `scope` for
   * `minutes`. The server validates (an empty agent, a scope with "..", a
   * duration over a week); its message is kept in `formError`.
   */
  async create(
    agent: string,
    scope: string,
    minutes: number
  ): Promise<IGrant | null> {
    if (this._creating) {
      return null;
    }
    this._creating = true;
    this._formError = null;
    this._emit();
    let grant: IGrant | null = null;
    try {
      const body: INewGrant = {
        scope: scope.trim(),
        agent: agent.trim(),
        agentKind: 'client',
        minutes
      };
      grant = await this._request<IGrant>('grants', {
        method: 'POST',
        body: JSON.stringify(body)
      });
      this._upsert(grant);
    } catch (error) {
      this._formError = errorText(error);
    } finally {
      this._creating = false;
    }
    this._emit();
    await this.refresh();
    return grant;
  }

  /** Revoke a grant now. */
  async revoke(id: string): Promise<IGrant | null> {
    if (this._busy.has(id)) {
      return null;
    }
    this._busy.add(id);
    this._emit();
    let grant: IGrant | null = null;
    try {
      grant = await this._request<IGrant>(`grants/${encodeURIComponent(id)}`, {
        method: 'DELETE'
      });
      this._grants = this._grants.filter(g => g.id !== id);
      this._actionError = null;
    } catch (error) {
      this._actionError = errorText(error);
    } finally {
      this._busy.delete(id);
    }
    this._emit();
    await this.refresh();
    return grant;
  }

  private async _doRefresh(): Promise<void> {
    try {
      const [list, status] = await Promise.all([
        this._request<{ grants: IGrant[] }>('grants?active=true'),
        // The agents are a convenience for the form: the grants show without them.
        this._request<{ agents?: IAgentSeen[] }>('status').catch(() => null)
      ]);
      this._grants = (list.grants ?? []).filter(g => g.active);
      if (status) {
        this._agents = agentNames(status.agents ?? []);
      }
      this._listError = null;
    } catch (error) {
      this._listError = errorText(error);
    }
    this._loaded = true;
    this._emit();
  }

  private _upsert(grant: IGrant): void {
    this._grants = [...this._grants.filter(g => g.id !== grant.id), grant];
  }

  private _emit(): void {
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _request: Request;
  private _grants: IGrant[] = [];
  private _agents: string[] = [];
  private _busy = new Set<string>();
  private _listError: string | null = null;
  private _actionError: string | null = null;
  private _formError: string | null = null;
  private _creating = false;
  private _loaded = false;
  private _started = false;
  private _listeners = new Set<() => void>();
  private _refreshing: Promise<void> | null = null;
  private _refreshAgain = false;
}

/** How often "time left" is redrawn. */
const TICK_MS = 1000;

let formCount = 0;

export class GrantsSection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: GrantsModel;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Trust grants', 'jp-McpLab-grants');
    this.node = frame.node;
    this._heading = frame.heading;
    this._body = frame.body;
    this.model = new GrantsModel(context.request);

    this._form = this._buildForm();
    this._formError = el('p', 'jp-McpLab-error jp-McpLab-grantError');
    this._formError.setAttribute('role', 'alert');
    this._list = el('ul', 'jp-McpLab-grantList');
    this._message = el('div', 'jp-McpLab-grantMessage');
    this._body.append(this._form, this._formError, this._message, this._list);

    this.model.onChange(() => this.render());
    this._unsubscribe = context.events.subscribe(['grant'], event =>
      this.model.handleEvent(event)
    );
    this._unreconnect = context.events.onReconnect(() =>
      this.model.reconnected()
    );
    // Follow the active document into the scope field until the person types in it.
    const shell = context.app?.shell;
    shell?.currentChanged?.connect(this._onCurrentChanged, this);
    this._prefillScope();
    this._timer = window.setInterval(() => this._tick(), TICK_MS);
    this.render();
  }

  async refresh(): Promise<void> {
    this._prefillScope();
    await this.model.refresh();
  }

  dispose(): void {
    this._unsubscribe();
    this._unreconnect();
    this._context.app?.shell.currentChanged?.disconnect(
      this._onCurrentChanged,
      this
    );
    window.clearInterval(this._timer);
    this._body.replaceChildren();
  }

  /** Redraw from the model. The form is kept (what the person typed stays). */
  render(): void {
    const model = this.model;
    const now = nowSeconds();
    const active = model.activeAt(now);
    this._shown = active.map(g => g.id);
    this._heading.textContent = `Trust grants (${active.length})`;

    this._agentOptions.replaceChildren(
      ...model.agents.map(name => {
        const option = el('option');
        option.value = name;
        return option;
      })
    );
    this._grantButton.disabled = model.creating;
    this._grantButton.textContent = model.creating ? 'Granting…' : 'Grant';
    this._formError.textContent = model.formError ?? '';
    this._formError.hidden = !model.formError;

    const messages: Node[] = [];
    if (model.error) {
      messages.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (model.loaded && active.length === 0) {
      messages.push(
        el(
          'p',
          'jp-McpLab-empty',
          'No active grants: every agent change waits for review.'
        )
      );
    }
    this._message.replaceChildren(...messages);
    this._list.replaceChildren(...active.map(g => this._renderGrant(g, now)));
  }

  private _buildForm(): HTMLFormElement {
    const id = `jp-McpLab-grantAgents-${++formCount}`;
    const form = el('form', 'jp-McpLab-grantForm');
    form.setAttribute('aria-label', 'Grant an agent direct apply');

    this._agentInput = el('input', 'jp-mod-styled jp-McpLab-grantAgent');
    this._agentInput.name = 'agent';
    this._agentInput.placeholder = 'MCP client name';
    this._agentInput.autocomplete = 'off';
    this._agentInput.setAttribute('list', id);
    this._agentOptions = el('datalist');
    this._agentOptions.id = id;

    this._scopeInput = el('input', 'jp-mod-styled jp-McpLab-grantScope');
    this._scopeInput.name = 'scope';
    this._scopeInput.placeholder = 'file, folder/ or empty for all';
    this._scopeInput.addEventListener('input', () => {
      this._scopeTouched = true;
    });

    this._durationSelect = el(
      'select',
      'jp-mod-styled jp-McpLab-grantDuration'
    );
    this._durationSelect.name = 'duration';
    for (const { label, minutes } of DURATIONS) {
      const option = el('option', undefined, label);
      option.value = String(minutes);
      option.selected = minutes === DEFAULT_MINUTES;
      this._durationSelect.append(option);
    }

    this._grantButton = el(
      'button',
      'jp-Button jp-mod-styled jp-mod-accept',
      'Grant'
    );
    this._grantButton.type = 'submit';
    this._grantButton.title =
      'Let this agent apply its changes directly (each one stays revertible in Checkpoints)';

    form.append(
      labelled('Agent', this._agentInput),
      this._agentOptions,
      labelled('Scope', this._scopeInput),
      labelled('For', this._durationSelect),
      this._grantButton
    );
    form.addEventListener('submit', event => {
      event.preventDefault();
      void this._submit();
    });
    return form;
  }

  private async _submit(): Promise<void> {
    const grant = await this.model.create(
      this._agentInput.value,
      this._scopeInput.value,
      Number(this._durationSelect.value)
    );
    if (grant) {
      this._agentInput.value = '';
      this._scopeTouched = false;
      this._prefillScope();
    }
  }

  private _renderGrant(g: IGrant, now: number): HTMLElement {
    const row = el('li', 'jp-McpLab-grant');
    row.dataset.id = g.id;
    const meta = el('div', 'jp-McpLab-meta');
    const left = el('span', 'jp-McpLab-timeLeft', timeLeft(g.expires, now));
    left.dataset.expires = String(g.expires);
    left.title = `Until ${new Date(g.expires * 1000).toLocaleString()}`;
    meta.append(
      el('span', 'jp-McpLab-author', g.agent),
      el(
        'span',
        'jp-McpLab-agentKind',
        g.agentKind === 'session' ? '(session)' : ''
      ),
      el('span', 'jp-McpLab-scope', scopeLabel(g.scope)),
      left
    );
    const busy = this.model.busy.has(g.id);
    const revoke = button(
      busy ? 'Revoking…' : 'Revoke',
      'jp-mod-reject',
      `Stop ${g.agent} from applying directly to ${scopeLabel(g.scope)}`,
      () => void this.model.revoke(g.id)
    );
    revoke.disabled = busy;
    row.append(meta, revoke);
    return row;
  }

  private _onCurrentChanged(): void {
    this._prefillScope();
  }

  /** The active document's path in the scope field, unless the person typed one. */
  private _prefillScope(): void {
    if (this._scopeTouched) {
      return;
    }
    const path = activeDocumentPath(this._context.app);
    if (path !== null) {
      this._scopeInput.value = path;
    }
  }

  /** Count down; a grant that ran out leaves the list. */
  private _tick(): void {
    const now = nowSeconds();
    const active = this.model.activeAt(now).map(g => g.id);
    if (active.join() !== this._shown.join()) {
      this.render();
      return;
    }
    for (const node of this._list.querySelectorAll<HTMLElement>(
      '.jp-McpLab-timeLeft'
    )) {
      node.textContent = timeLeft(Number(node.dataset.expires), now);
    }
  }

  protected _context: IPanelContext;
  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _form: HTMLFormElement;
  private _formError: HTMLParagraphElement;
  private _message: HTMLDivElement;
  private _list: HTMLUListElement;
  private _agentInput!: HTMLInputElement;
  private _agentOptions!: HTMLDataListElement;
  private _scopeInput!: HTMLInputElement;
  private _durationSelect!: HTMLSelectElement;
  private _grantButton!: HTMLButtonElement;
  private _scopeTouched = false;
  private _shown: string[] = [];
  private _unsubscribe: () => void;
  private _unreconnect: () => void;
  private _timer: number;
}

/** A form field with its visible label. */
function labelled(text: string, field: HTMLElement): HTMLLabelElement {
  const label = el('label', 'jp-McpLab-field');
  label.append(el('span', 'jp-McpLab-fieldLabel', text), field);
  return label;
}
