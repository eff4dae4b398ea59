/**
 * The "Activity" section of the MCP Lab panel: the tool calls of every agent
 * (tool, client, arguments, status, duration) and the person's own decisions
 * (accept, reject, revert, grant, revoke, Allow/Deny), newest first,
 * filterable; an entry opens to its full arguments and result. The state is
 * `ActivityModel`'s (activity_model.ts).
 */
import {
  ActivityModel,
  IActivityEntry,
  isError,
  isPerson,
  prettyArguments,
  toolLabel
} from './activity_model';
import { el, sectionFrame } from './dom';
import { keyed, replaceKeepingFocus } from './focus_keys';
import { connectModel, IPanelContext, IPanelSection } from './section';
import { formatDuration, formatTime } from './time';

/** Redraws come at most this often while calls stream in. */
const RENDER_DELAY_MS = 100;

export class ActivitySection implements IPanelSection {
  readonly node: HTMLElement;
  readonly model: ActivityModel;

  constructor(context: IPanelContext) {
    const frame = sectionFrame('Activity', 'jp-McpLab-activity');
    this.node = frame.node;
    this._heading = frame.heading;
    this._heading.tabIndex = -1; // where the focus goes when its entry is gone
    this._body = frame.body;
    this.model = new ActivityModel(context.request);

    const controls = el('div', 'jp-McpLab-activityControls');
    this._filter = el('input', 'jp-mod-styled jp-McpLab-activityFilter');
    this._filter.type = 'search';
    this._filter.placeholder = 'Filter by tool, client, arguments, result';
    this._filter.setAttribute('aria-label', 'Filter the activity');
    this._filter.addEventListener('input', () =>
      this.model.setFilter(this._filter.value)
    );
    const toggle = el('label', 'jp-McpLab-activityErrorsOnly');
    this._errorsOnly = el('input');
    this._errorsOnly.type = 'checkbox';
    this._errorsOnly.addEventListener('change', () =>
      this.model.setErrorsOnly(this._errorsOnly.checked)
    );
    toggle.append(this._errorsOnly, document.createTextNode(' Errors only'));
    controls.append(this._filter, toggle);
    this._list = el('div', 'jp-McpLab-activityList');
    this._body.append(controls, this._list);

    this.model.onChange(() => this._scheduleRender());
    this._disconnect = connectModel(context.events, ['activity'], this.model);
    this.render();
  }

  async refresh(): Promise<void> {
    await this.model.refresh();
  }

  dispose(): void {
    this._disconnect();
    if (this._renderTimer !== null) {
      window.clearTimeout(this._renderTimer);
      this._renderTimer = null;
    }
    this._body.replaceChildren();
  }

  /**
   * Redraw the list from the model (the filter controls stay as they are); a
   * focused entry keeps the focus (the heading takes it when the entry is gone).
   */
  render(): void {
    const model = this.model;
    const visible = model.visible;
    const total = model.entries.length;
    const filtered = model.filterText.trim() !== '' || model.errorsOnly;
    this._heading.textContent = !model.loaded
      ? 'Activity'
      : filtered
        ? `Activity (${visible.length} of ${total})`
        : `Activity (${total})`;
    const children: Node[] = [];
    if (model.error) {
      children.push(el('p', 'jp-McpLab-error', model.error));
    }
    if (!model.loaded && total === 0) {
      children.push(el('p', 'jp-McpLab-loading', 'Loading…'));
    } else if (total === 0) {
      children.push(
        el('p', 'jp-McpLab-empty', 'No agent has called a tool yet.')
      );
    } else if (visible.length === 0) {
      children.push(el('p', 'jp-McpLab-empty', 'No call matches the filter.'));
    }
    if (visible.length > 0) {
      const list = el('ol', 'jp-McpLab-activityEntries');
      list.append(
        ...visible.map(entry =>
          renderEntry(entry, model.isExpanded(entry.seq), () =>
            model.toggleExpanded(entry.seq)
          )
        )
      );
      children.push(list);
    }
    replaceKeepingFocus(this._list, children, [this._heading]);
  }

  /** A burst of calls (an agent at work, a replay) redraws once. */
  private _scheduleRender(): void {
    if (this._renderTimer !== null) {
      return;
    }
    this._renderTimer = window.setTimeout(() => {
      this._renderTimer = null;
      this.render();
    }, RENDER_DELAY_MS);
  }

  private _heading: HTMLHeadingElement;
  private _body: HTMLDivElement;
  private _list: HTMLDivElement;
  private _filter: HTMLInputElement;
  private _errorsOnly: HTMLInputElement;
  private _disconnect: () => void;
  private _renderTimer: number | null = null;
}

/**
 * One call (or one decision of the person): tool and status; client,
 * duration and time; the arguments in a line. The tool's button opens the
 * full arguments and the result.
 */
function renderEntry(
  entry: IActivityEntry,
  expanded: boolean,
  toggle: () => void
): HTMLElement {
  const failed = isError(entry);
  const person = isPerson(entry);
  const row = el('li', 'jp-McpLab-activityEntry');
  row.classList.toggle('jp-mod-error', failed);
  row.classList.toggle('jp-mod-person', person);
  row.classList.toggle('jp-mod-expanded', expanded);
  row.dataset.seq = String(entry.seq);
  row.dataset.status = entry.status;
  row.dataset.actor = person ? 'person' : 'agent';

  const head = el('div', 'jp-McpLab-activityHead');
  const tool = el('button', 'jp-McpLab-activityTool', toolLabel(entry));
  tool.type = 'button';
  tool.title = person
    ? `${entry.tool}: done in JupyterLab by ${entry.user} (show the details)`
    : `${entry.tool} (profile ${entry.profile}): show the arguments and the result`;
  tool.setAttribute('aria-expanded', String(expanded));
  tool.addEventListener('click', toggle);
  head.append(keyed(tool, `${entry.seq}:details`));
  if (person) {
    const tag = el('span', 'jp-McpLab-activityActor', 'you');
    tag.title = `A decision of ${entry.user} in JupyterLab, not an agent's call`;
    head.append(tag);
  }
  const status = el(
    'span',
    `jp-McpLab-activityStatus ${failed ? 'jp-mod-error' : 'jp-mod-ok'}`,
    entry.status
  );
  status.title = failed
    ? `It failed: ${entry.status}`
    : person
      ? 'Done'
      : 'The call succeeded';
  head.append(status);

  const meta = el('div', 'jp-McpLab-activityMeta');
  const client = el(
    'span',
    'jp-McpLab-activityClient',
    entry.client || (person ? entry.user : 'unknown client')
  );
  client.title = person
    ? `${entry.user}, in JupyterLab`
    : `MCP client ${entry.client || '(unnamed)'}, user ${entry.user}, session ${entry.session}`;
  const duration = el(
    'span',
    'jp-McpLab-activityDuration',
    formatDuration(entry.durationMs)
  );
  duration.title = 'How long it took on the server';
  const time = el('time', 'jp-McpLab-activityTime', formatTime(entry.time));
  const when = new Date(entry.time * 1000);
  time.dateTime = when.toISOString();
  time.title = when.toLocaleString();
  meta.append(client, duration, time);

  row.append(head, meta);
  if (entry.arguments && !expanded) {
    const args = el('div', 'jp-McpLab-activityArgs', entry.arguments);
    args.title = entry.arguments;
    row.append(args);
  }
  if (expanded) {
    const detail = el('dl', 'jp-McpLab-activityDetail');
    const args = el('dd');
    args.append(el('pre', 'jp-McpLab-activityFull', prettyArguments(entry)));
    detail.append(el('dt', undefined, 'Arguments'), args);
    if (entry.result) {
      const result = el('pre', 'jp-McpLab-activityResult', entry.result);
      const dd = el('dd');
      dd.append(result);
      detail.append(el('dt', undefined, failed ? 'Error' : 'Result'), dd);
    }
    row.append(detail);
  }
  return row;
}
