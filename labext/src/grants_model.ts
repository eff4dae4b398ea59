/**
 * Trust grants, the pure part: let one agent (by its MCP client name) apply
 * directly to a file or folder for a while. Every change made under a grant
 * is still a checkpoint, so a grant trades review for revert.
 *
 * `GrantsModel` holds the active grants, the agents seen recently (for the
 * form's suggestions), create and revoke with their errors, and refreshes on
 * `grant` events. The requester is injected; no DOM.
 */
import type {
  IAgent,
  IGrant,
  IGrantList,
  INewGrant,
  IStatus
} from './api_types';
import type { IServerEvent } from './events';
import { errorText, ListModel } from './model_base';
import type { Request } from './request';

// One grant (`GET grants`) and a new one (`POST grants`).
export type { IGrant, INewGrant };

/** An MCP session seen recently (`GET status`, `agents`). */
export type IAgentSeen = IAgent;

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
 * The grants model; the section redraws from `grants`, `agents`, `busy`,
 * `creating`, `formError` and `error` on every change.
 */
export class GrantsModel extends ListModel {
  constructor(request: Request) {
    super();
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

  /** Why the last grant was refused (the server's validation message), or null. */
  get formError(): string | null {
    return this._formError;
  }

  /** Whether a grant is being created. */
  get creating(): boolean {
    return this._creating;
  }

  /** A server event: a grant created or revoked (here or elsewhere) refreshes. */
  handleEvent(event: IServerEvent): void {
    if (event.type === 'grant') {
      this.refreshIfStarted();
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
    this.emit();
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
    this.emit();
    await this.refresh();
    return grant;
  }

  /** Revoke a grant now; a failure is kept as `error`. */
  revoke(id: string): Promise<IGrant | null> {
    return this.act(id, async () => {
      const grant = await this._request<IGrant>(
        `grants/${encodeURIComponent(id)}`,
        { method: 'DELETE' }
      );
      this._grants = this._grants.filter(g => g.id !== id);
      return grant;
    });
  }

  protected async fetch(): Promise<void> {
    const [list, status] = await Promise.all([
      this._request<IGrantList>('grants?active=true'),
      // The agents are a convenience for the form: the grants show without them.
      this._request<IStatus>('status').catch(() => null)
    ]);
    this._grants = (list.grants ?? []).filter(g => g.active);
    if (status) {
      this._agents = agentNames(status.agents ?? []);
    }
  }

  private _upsert(grant: IGrant): void {
    this._grants = [...this._grants.filter(g => g.id !== grant.id), grant];
  }

  private _request: Request;
  private _grants: IGrant[] = [];
  private _agents: string[] = [];
  private _formError: string | null = null;
  private _creating = false;
}
