/**
 * Asking first, for what a person cannot take back with one click (a revert
 * changes the document; a revoke ends an agent's grant): a JupyterLab dialog
 * whose Cancel has the focus, so Enter or Escape changes nothing.
 */
import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

/** What the dialog says and what its button does. */
export interface IConfirmation {
  title: string;
  /** Plain text, one paragraph per item (never markup: paths and names are agents'). */
  body: string[];
  /** The label of the button that goes ahead, e.g. "Revert". */
  action: string;
}

/** Whether the person went ahead; Cancel, Escape, Enter and closing say no. */
export async function confirmAction(
  confirmation: IConfirmation
): Promise<boolean> {
  const node = document.createElement('div');
  node.className = 'jp-McpLab-confirm';
  for (const text of confirmation.body) {
    const p = document.createElement('p');
    p.textContent = text;
    node.appendChild(p);
  }
  const result = await showDialog({
    title: confirmation.title,
    body: new Widget({ node }),
    buttons: [
      Dialog.cancelButton(),
      Dialog.warnButton({ label: confirmation.action })
    ],
    defaultButton: 0
  });
  return result.button.accept;
}
