/**
 * The "Trust grants" section of the MCP Lab panel: grant an agent direct apply on a document or folder for a while; active grants with revoke.
 */
import { sectionFrame } from './dom';
import { IPanelContext, IPanelSection } from './section';

export class GrantsSection implements IPanelSection {
  readonly node: HTMLElement;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Trust grants', 'jp-McpLab-grants');
    this.node = frame.node;
    this._body = frame.body;
  }

  async refresh(): Promise<void> {
    // Filled in by the section's own work.
  }

  dispose(): void {
    this._body.replaceChildren();
  }

  protected _context: IPanelContext;
  protected _body: HTMLDivElement;
}
