// The Agents view's place in the activation bundle: a tree that asks the runtime for its items when the
// view is shown (loading it then, as the chat view does). Everything else is in agents-view.ts.
import * as vscode from 'vscode';
import type { RuntimeHost } from './runtime-host';

export const AGENTS_VIEW_ID = 'sextant.agents';

export class AgentsTree implements vscode.TreeDataProvider<vscode.TreeItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.TreeItem | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<vscode.TreeItem>;

  constructor(private readonly host: RuntimeHost) {
    this.view = vscode.window.createTreeView(AGENTS_VIEW_ID, { treeDataProvider: this });
    host.agentsTree = this;
  }

  getTreeItem(element: vscode.TreeItem): vscode.TreeItem {
    return element;
  }

  async getChildren(element?: vscode.TreeItem): Promise<vscode.TreeItem[]> {
    return (await this.host.get()).agents.children(element);
  }

  getParent(): undefined {
    return undefined;
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}
