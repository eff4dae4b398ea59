/**
 * The "Outline" section of the MCP Lab panel: the headings of the active document, following the editor.
 */
import { sectionFrame } from './dom';
import { IPanelContext, IPanelSection } from './section';

export class OutlineSection implements IPanelSection {
  readonly node: HTMLElement;

  constructor(context: IPanelContext) {
    this._context = context;
    const frame = sectionFrame('Outline', 'jp-McpLab-outline');
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
