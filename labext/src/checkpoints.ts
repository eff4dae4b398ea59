/**
 * The "Checkpoints" section of the MCP Lab panel: every applied agent change,
 * newest first, with its diff and a Revert button. The state is
 * `CheckpointsModel`'s (checkpoints_model.ts).
 */
import {
  checkpointCells,
  checkpointWhere,
  moreCells
} from './checkpoint_cells';
import {
  CheckpointsModel,
  ICheckpoint,
  sourceLabel,
  sourceTitle
} from './checkpoints_model';
import { confirmAction } from './confirm';
import { DiffBoxes } from './diff';
import { button, el, sectionFrame, sentence } from './dom';
import { keyed, replaceKeepingFocus } from './focus_keys';
import { renderPartChange } from './part_change_view';
import { connectModel, IPanelContext, IPanelSection } from './section';
import { nowSeconds, timeAgo } from './time';

/** How often the relative times ("5 min ago") are redrawn. */
const TICK_MS = 30_000;

/** Changed text longer than this is cut in the row (the diff has it all). */
const PREVIEW_CHARS = 240;

function preview(text: string): string {
  return text.length > PREVIEW_CHARS
    ? `${text.slice(0, PREVIEW_CHARS)}…`
    : text;
}

export class CheckpointsSection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: CheckpointsModel;

  constructor(context: IPanelContext) {
    const frame = sectionFrame('Checkpoints', 'jp-McpLab-checkpoints');
    this.node = frame.node;
    this._heading = frame.heading;
    this._heading.tabIndex = -1; // where the focus goes when its row is gone
    this._body = frame.body;
    this.model = new CheckpointsModel(context.request);
    this.model.onChange(() => this.render());
    this._disconnect = connectModel(context.events, ['checkpoint'], this.model);
    this._timer = window.setInterval(() => this._updateTimes(), TICK_MS);
    this.render();
  }

  async refresh(): Promise<void> {
    await this.model.refresh();
  }

  dispose(): void {
    this._disconnect();
    window.clearInterval(this._timer);
    this._body.replaceChildren();
  }

  /**
   * Redraw from the model; open diffs stay open, a focused button keeps the
   * focus (the heading takes it when its row is gone).
   */
  render(): void {
    const model = this.model;
    this._heading.textContent = model.loaded
      ? `Checkpoints (${model.checkpoints.length}${model.hasMore ? '+' : ''})`
      : 'Checkpoints';
    const children: Node[] = [];
    if (model.error) {
      children.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (!model.loaded) {
      children.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (model.checkpoints.length === 0) {
      children.push(
        el('p', 'jp-McpLab-empty', 'No agent change was applied yet.')
      );
    }
    const list = el('ol', 'jp-McpLab-checkpointList');
    const now = nowSeconds();
    for (const cp of model.checkpoints) {
      list.append(this._renderCheckpoint(cp, now));
    }
    if (model.checkpoints.length > 0) {
      children.push(list);
    }
    if (model.hasMore) {
      const more = button(
        'Show more',
        'jp-mod-minimal jp-McpLab-showMore',
        'Show older checkpoints',
        () => void model.showMore()
      );
      children.push(keyed(more, 'checkpoints:more'));
    }
    // The shown relative times first, as this render drew them: else a label a
    // minute older than the tick's makes an unchanged list look changed.
    this._updateTimes(now);
    replaceKeepingFocus(this._body, children, [this._heading]);
  }

  private _renderCheckpoint(cp: ICheckpoint, now: number): HTMLElement {
    const model = this.model;
    const row = el('li', 'jp-McpLab-checkpoint');
    row.dataset.id = cp.id;
    row.dataset.source = cp.source;
    const reverted = cp.revertedBy !== null;
    row.classList.toggle('jp-mod-reverted', reverted);

    const meta = el('div', 'jp-McpLab-meta');
    const source = el(
      'span',
      `jp-McpLab-source jp-McpLab-source-${cp.source}`,
      sourceLabel(cp.source)
    );
    source.title = cp.label
      ? `${sourceTitle(cp.source)} (${cp.label})`
      : sourceTitle(cp.source);
    const time = el('time', 'jp-McpLab-cpTime', timeAgo(cp.created, now));
    time.dataset.created = String(cp.created);
    time.dateTime = new Date(cp.created * 1000).toISOString();
    time.title = new Date(cp.created * 1000).toLocaleString();
    meta.append(
      el('span', 'jp-McpLab-path', cp.path),
      el('span', 'jp-McpLab-lines', checkpointWhere(cp)),
      source,
      el('span', 'jp-McpLab-author', cp.author || 'unknown agent'),
      time
    );
    if (reverted) {
      meta.append(el('span', 'jp-McpLab-revertedTag', 'reverted'));
    }
    row.append(meta);
    if (cp.rationale) {
      row.append(el('p', 'jp-McpLab-rationale', cp.rationale));
    }

    row.append(this._renderChange(cp));

    const failure = model.rowError(cp.id);
    if (failure) {
      const message = el(
        'p',
        `jp-McpLab-cpError${failure.conflict ? ' jp-mod-conflict' : ''}`
      );
      message.setAttribute('role', 'alert');
      message.append(
        el(
          'strong',
          undefined,
          failure.conflict
            ? 'Conflict: nothing was changed. '
            : 'Revert failed: '
        ),
        sentence(failure.message)
      );
      row.append(message);
    }

    const diff = this._diffs.render(cp.id);
    const actions = el('div', 'jp-McpLab-actions');
    if (!reverted) {
      const busy = model.busy.has(cp.id);
      const revert = button(
        busy ? 'Reverting…' : 'Revert',
        'jp-mod-reject',
        'Undo this change where it is now (refused if later edits touched the same text)',
        () => void this._revert(cp)
      );
      revert.disabled = busy;
      actions.append(keyed(revert, `${cp.id}:revert`));
    }
    actions.append(keyed(diff.toggle, `${cp.id}:diff`));
    row.append(actions, diff.box);
    return row;
  }

  /**
   * What changed: a notebook's cells as the pending cards show a cell change
   * (part_change_view.ts); else the old and new text.
   */
  private _renderChange(cp: ICheckpoint): HTMLElement {
    const change = el('div', 'jp-McpLab-change');
    const cells = checkpointCells(cp);
    if (cells.length > 0) {
      change.classList.add('jp-McpLab-cpCells');
      change.append(...cells.map(s => renderPartChange(s)));
      const more = moreCells(cp);
      if (more) {
        change.append(el('div', 'jp-McpLab-cellMore', more));
      }
      return change;
    }
    if (cp.old) {
      change.append(el('del', 'jp-McpLab-original', preview(cp.old)));
    }
    if (cp.new) {
      change.append(el('ins', 'jp-McpLab-new', preview(cp.new)));
    }
    return change;
  }

  /** Revert once the person confirmed it (Cancel has the focus). */
  private async _revert(cp: ICheckpoint): Promise<void> {
    const confirmed = await confirmAction({
      title: 'Revert this change?',
      body: [
        `${cp.author || 'An agent'}'s change to ${cp.path} (${checkpointWhere(cp)}) is undone where it is now; the document is saved.`,
        'The revert is itself a checkpoint, which you can revert in turn.'
      ],
      action: 'Revert'
    });
    if (confirmed) {
      await this.model.revert(cp.id);
    }
  }

  /** Redraw only the relative times (a full render could eat a click). */
  private _updateTimes(now = nowSeconds()): void {
    for (const node of this._body.querySelectorAll<HTMLElement>(
      '.jp-McpLab-cpTime'
    )) {
      node.textContent = timeAgo(Number(node.dataset.created), now);
    }
  }

  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _disconnect: () => void;
  private _timer: number;
  private _diffs = new DiffBoxes(
    id => this.model.diff(id),
    () => this.render()
  );
}
