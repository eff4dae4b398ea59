/**
 * The "Activity" section of the MCP Lab panel: the tool calls of every agent (tool, arguments, status, duration), filterable.
 */
import { sectionFrame } from './dom';
import { IPanelContext, IPanelSection } from './section';

export class ActivitySection implements IPanelSection {
  readonly node: HTMLElement;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Activity', 'jp-McpLab-activity');
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
