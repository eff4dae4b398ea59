/**
 * The "Trust grants" section of the MCP Lab panel: the form granting an agent
 * direct apply (see grants_form.ts), and the active grants counting down,
 * each with its Revoke button. The state is `GrantsModel`'s (grants_model.ts).
 */
import { confirmAction } from './confirm';
import { button, el, sectionFrame } from './dom';
import { keyed, replaceKeepingFocus } from './focus_keys';
import { GrantForm } from './grants_form';
import { GrantsModel, IGrant, scopeLabel } from './grants_model';
import { connectModel, IPanelContext, IPanelSection } from './section';
import { nowSeconds, timeLeft } from './time';

/** How often "time left" is redrawn. */
const TICK_MS = 1000;

export class GrantsSection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: GrantsModel;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Trust grants', 'jp-McpLab-grants');
    this.node = frame.node;
    this._heading = frame.heading;
    this._heading.tabIndex = -1; // where the focus goes when its grant is gone
    this._body = frame.body;
    this.model = new GrantsModel(context.request);

    this._form = new GrantForm(this.model, context.app);
    this._list = el('ul', 'jp-McpLab-grantList');
    this._message = el('div', 'jp-McpLab-grantMessage');
    this._body.append(
      this._form.node,
      this._form.error,
      this._message,
      this._list
    );

    this.model.onChange(() => this.render());
    this._disconnect = connectModel(context.events, ['grant'], this.model);
    // Follow the active document into the scope field until the person types in it.
    context.app?.shell.currentChanged?.connect(this._onCurrentChanged, this);
    this._form.prefillScope();
    this._timer = window.setInterval(() => this._tick(), TICK_MS);
    this.render();
  }

  async refresh(): Promise<void> {
    this._form.prefillScope();
    await this.model.refresh();
  }

  dispose(): void {
    this._disconnect();
    this._context.app?.shell.currentChanged?.disconnect(
      this._onCurrentChanged,
      this
    );
    window.clearInterval(this._timer);
    this._body.replaceChildren();
  }

  /**
   * Redraw from the model. The form is kept (what the person typed stays); a
   * focused Revoke keeps the focus (the heading takes it when its grant is gone).
   */
  render(): void {
    const model = this.model;
    const now = nowSeconds();
    const active = model.activeAt(now);
    this._shown = active.map(g => g.id);
    this._heading.textContent = `Trust grants (${active.length})`;
    this._form.render();

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
    this._updateTimes(now); // as this render draws them (see replaceChildrenIfChanged)
    replaceKeepingFocus(
      this._list,
      active.map(g => this._renderGrant(g, now)),
      [this._heading]
    );
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
      () => void this._revoke(g)
    );
    revoke.disabled = busy;
    row.append(meta, keyed(revoke, `${g.id}:revoke`));
    return row;
  }

  /** Revoke once the person confirmed it (Cancel has the focus). */
  private async _revoke(g: IGrant): Promise<void> {
    const confirmed = await confirmAction({
      title: 'Revoke this grant?',
      body: [
        `${g.agent} stops applying directly to ${scopeLabel(g.scope)}: its next changes wait for your review again.`,
        'A revoked grant cannot be resumed; grant again to allow it.'
      ],
      action: 'Revoke'
    });
    if (confirmed) {
      await this.model.revoke(g.id);
    }
  }

  private _onCurrentChanged(): void {
    this._form.prefillScope();
  }

  /** Count down; a grant that ran out leaves the list. */
  private _tick(): void {
    const now = nowSeconds();
    const active = this.model.activeAt(now).map(g => g.id);
    if (active.join() !== this._shown.join()) {
      this.render();
      return;
    }
    this._updateTimes(now);
  }

  /** The time left on each shown grant, as of `now`. */
  private _updateTimes(now: number): void {
    for (const node of this._list.querySelectorAll<HTMLElement>(
      '.jp-McpLab-timeLeft'
    )) {
      node.textContent = timeLeft(Number(node.dataset.expires), now);
    }
  }

  private _context: IPanelContext;
  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _form: GrantForm;
  private _message: HTMLDivElement;
  private _list: HTMLUListElement;
  private _shown: string[] = [];
  private _disconnect: () => void;
  private _timer: number;
}
