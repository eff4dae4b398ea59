/**
 * The "Trust grants" section's form: an agent (the names of those seen
 * recently are offered), a scope (the active document until the person types
 * one) and a duration. The fields keep what was typed across redraws.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';

import { activeDocumentPath } from './documents';
import { el } from './dom';
import { DEFAULT_MINUTES, DURATIONS, GrantsModel } from './grants_model';

let formCount = 0;

export class GrantForm {
  /** The <form>, and below it the message of a refused grant. */
  readonly node: HTMLFormElement;
  readonly error: HTMLParagraphElement;

  constructor(model: GrantsModel, app: JupyterFrontEnd | null) {
    this._model = model;
    this._app = app;
    const id = `jp-McpLab-grantAgents-${++formCount}`;
    this.node = el('form', 'jp-McpLab-grantForm');
    this.node.setAttribute('aria-label', 'Grant an agent direct apply');

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

    this.node.append(
      labelled('Agent', this._agentInput),
      this._agentOptions,
      labelled('Scope', this._scopeInput),
      labelled('For', this._durationSelect),
      this._grantButton
    );
    this.node.addEventListener('submit', event => {
      event.preventDefault();
      void this._submit();
    });

    this.error = el('p', 'jp-McpLab-error jp-McpLab-grantError');
    this.error.setAttribute('role', 'alert');
  }

  /** Redraw the agents offered, the button and the error from the model. */
  render(): void {
    const model = this._model;
    this._agentOptions.replaceChildren(
      ...model.agents.map(name => {
        const option = el('option');
        option.value = name;
        return option;
      })
    );
    this._grantButton.disabled = model.creating;
    this._grantButton.textContent = model.creating ? 'Granting…' : 'Grant';
    this.error.textContent = model.formError ?? '';
    this.error.hidden = !model.formError;
  }

  /** The active document's path in the scope field, unless the person typed one. */
  prefillScope(): void {
    if (this._scopeTouched) {
      return;
    }
    const path = activeDocumentPath(this._app);
    if (path !== null) {
      this._scopeInput.value = path;
    }
  }

  private async _submit(): Promise<void> {
    const grant = await this._model.create(
      this._agentInput.value,
      this._scopeInput.value,
      Number(this._durationSelect.value)
    );
    if (grant) {
      this._agentInput.value = '';
      this._scopeTouched = false;
      this.prefillScope();
    }
  }

  private _model: GrantsModel;
  private _app: JupyterFrontEnd | null;
  private _agentInput: HTMLInputElement;
  private _agentOptions: HTMLDataListElement;
  private _scopeInput: HTMLInputElement;
  private _durationSelect: HTMLSelectElement;
  private _grantButton: HTMLButtonElement;
  private _scopeTouched = false;
}

/** A form field with its visible label. */
function labelled(text: string, field: HTMLElement): HTMLLabelElement {
  const label = el('label', 'jp-McpLab-field');
  label.append(el('span', 'jp-McpLab-fieldLabel', text), field);
  return label;
}
