/**
 * `.opml` files open in a tree view (file type `opml`, widget factory
 * "Outline Tree", the default for that type). The view reads the rows from
 * the server (`GET outline`), so row ids are the ones suggestions name; it
 * reads them again when the file changes (a save, a reload, an agent's
 * change). It does not edit the file itself: "Open With → Editor" still
 * opens the XML, and the person's edits go through the text editor. The
 * pending suggestions come from the panel's suggestions model and are
 * decided through it (the same REST calls as the panel).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  ABCWidgetFactory,
  DocumentRegistry,
  DocumentWidget,
  IDocumentWidget
} from '@jupyterlab/docregistry';
import { treeViewIcon } from '@jupyterlab/ui-components';

import { contextPath } from './documents';
import { OutlineTreeModel } from './outline_tree_model';
import { treeSuggestions } from './outline_tree_source';
import { OutlineTreeView } from './outline_tree_view';
import { requestAPI } from './request';
import { IMcpLab } from './tokens';

export const OPML_FILE_TYPE = 'opml';
export const TREE_FACTORY = 'Outline Tree';

class OutlineTreeFactory extends ABCWidgetFactory<
  IDocumentWidget<OutlineTreeView>,
  DocumentRegistry.ICodeModel
> {
  constructor(
    options: DocumentRegistry.IWidgetFactoryOptions,
    private _lab: IMcpLab
  ) {
    super(options);
  }

  protected createNewWidget(
    context: DocumentRegistry.IContext<DocumentRegistry.ICodeModel>
  ): IDocumentWidget<OutlineTreeView> {
    const lab = this._lab;
    const model = new OutlineTreeModel(
      contextPath(context),
      requestAPI,
      treeSuggestions(lab.suggestions),
      lab.events
    );
    const content = new OutlineTreeView(model, () => lab.openPanel());
    const widget = new DocumentWidget({ content, context });
    widget.title.icon = treeViewIcon;
    widget.addClass('jp-McpLab-treeDocument');
    void context.ready.then(() => model.refresh());
    context.fileChanged.connect(() => void model.refresh(), widget);
    context.pathChanged.connect(
      () => void model.setPath(contextPath(context)),
      widget
    );
    return widget;
  }
}

export const outlineTreePlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyter-mcp-lab:outline-tree',
  description: 'Opens .opml outlines in a tree view with their suggestions.',
  autoStart: true,
  requires: [IMcpLab],
  activate: (app: JupyterFrontEnd, lab: IMcpLab) => {
    app.docRegistry.addFileType({
      name: OPML_FILE_TYPE,
      displayName: 'OPML outline',
      extensions: ['.opml'],
      mimeTypes: ['text/x-opml'],
      contentType: 'file',
      fileFormat: 'text',
      icon: treeViewIcon
    });
    app.docRegistry.addWidgetFactory(
      new OutlineTreeFactory(
        {
          name: TREE_FACTORY,
          label: 'Outline Tree',
          modelName: 'text',
          fileTypes: [OPML_FILE_TYPE],
          defaultFor: [OPML_FILE_TYPE],
          readOnly: true
        },
        lab
      )
    );
  }
};
