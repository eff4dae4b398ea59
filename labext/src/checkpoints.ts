/**
 * The "Checkpoints" section of the MCP Lab panel: applied agent changes, each with a revert button.
 */
import { sectionFrame } from './dom';
import { IPanelContext, IPanelSection } from './section';

export class CheckpointsSection implements IPanelSection {
  readonly node: HTMLElement;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Checkpoints', 'jp-McpLab-checkpoints');
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
