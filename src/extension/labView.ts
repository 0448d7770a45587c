// The Activity Bar view and the status bar item: thin adapters over src/host/labTree.ts (which decides what they
// show) and the commands their items run, each opening the panel on what the item names (the controller's reveal:
// the preset, the Watch section, the saved experiment). The data is the panel's controller state; with no panel,
// nothing is connected and the view shows its welcome (package.json viewsWelcome) unless a restore journal waits. Both are in
// place at activation without the panel's code: until a command or a tree item loads it (loadLab.ts) there is no
// panel, so the tree shows only the local journals, which host/labTree.ts reads without the engine or the driver.
// Activation loads only the tree's shell: what it lists (treeData.ts, with the journal reader and the message schemas)
// loads on the tree's first getChildren, which VS Code asks for once the view shows, just after activation.
import * as vscode from 'vscode';
import type { LabTreeNode } from '../host/labTree';
import { runStatus } from '../host/runStatus';
import { treeItemId, TREE_COMMANDS } from '../host/treeCommands';
import { currentPanel, labChanged, loadLab, type LabModule } from './loadLab';
import type * as TreeData from './treeData';
import { vscodeSqlExtension } from './sqlExtension';
import type { PanelDeps } from './panelDeps';
import { PANEL_VIEWS, PANEL_VIEW_INFO, type PanelView } from '../shared/panelViews';

/** The palette's question: which of the panel's views to open. */
function pickView(): Thenable<{ label: string; detail: string; view: PanelView } | undefined> {
  const items = PANEL_VIEWS.map((v) => ({ label: PANEL_VIEW_INFO[v].name, detail: PANEL_VIEW_INFO[v].question, view: v }));
  return vscode.window.showQuickPick(items, { title: 'Spinlock Lab: open a view of the panel' });
}

export const HOME_VIEW = 'spinlab.home';

class LabTreeProvider implements vscode.TreeDataProvider<LabTreeNode> {
  private readonly emitter = new vscode.EventEmitter<LabTreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  private readonly sqlExtension = vscodeSqlExtension();

  constructor(private readonly log: PanelDeps['log']) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getTreeItem(n: LabTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      n.label,
      !n.children
        ? vscode.TreeItemCollapsibleState.None
        : n.collapsed
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = n.id;
    item.description = n.description;
    item.tooltip = n.tooltip;
    item.accessibilityInformation = { label: n.ariaLabel };
    item.iconPath = new vscode.ThemeIcon(n.icon, n.icon === 'warning' ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = n.contextValue;
    if (n.command) item.command = { command: n.command.command, title: n.command.title, arguments: n.command.args };
    return item;
  }

  async getChildren(n?: LabTreeNode): Promise<LabTreeNode[]> {
    if (n) return n.children ?? [];
    const data = await loadTreeData();
    return data.treeRoots(currentPanel()?.controller.state ?? null, this.sqlExtension, this.log);
  }
}

let treeData: Promise<typeof TreeData> | undefined;

/** The tree's data code, loaded once on first use (dist/tree.js in the bundle; a plain require under tsc). */
function loadTreeData(): Promise<typeof TreeData> {
  treeData ??= import(/* webpackChunkName: "tree", webpackMode: "lazy" */ './treeData').catch((err: unknown) => {
    treeData = undefined; // the next refresh tries again
    throw err;
  });
  return treeData;
}

export function registerLabView(deps: PanelDeps): vscode.Disposable[] {
  const tree = new LabTreeProvider(deps.log);
  const view = vscode.window.createTreeView(HOME_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const status = vscode.window.createStatusBarItem('spinlab.run', vscode.StatusBarAlignment.Left, 100);
  status.name = 'Spinlock Lab experiment';
  status.command = 'spinlab.open';
  const stop = vscode.window.createStatusBarItem('spinlab.stop', vscode.StatusBarAlignment.Left, 99);
  stop.name = 'Stop Spinlock Lab experiment';
  stop.text = '$(debug-stop) Stop';
  stop.tooltip = 'Stop the running experiment: its sessions stop and the server settings are put back.';
  stop.accessibilityInformation = { label: 'Stop the running Spinlock Lab experiment', role: 'button' };
  stop.command = TREE_COMMANDS.stop;

  const showStatus = () => {
    const s = runStatus(currentPanel()?.controller.state ?? null);
    if (!s) {
      status.hide();
      stop.hide();
      return;
    }
    status.text = s.text;
    status.tooltip = s.tooltip;
    status.accessibilityInformation = { label: s.ariaLabel, role: 'button' };
    status.show();
    stop.show();
  };

  type Panel = ReturnType<LabModule['LabPanel']['show']>;
  /** A command that shows the panel first; a failure is said in a notification (the controller's words and fix). */
  const withPanel = (fn: (panel: Panel, arg: unknown) => unknown) => async (arg: unknown) => {
    try {
      await fn((await loadLab()).LabPanel.show(deps), arg);
    } catch (err) {
      const e = err as Error & { ui?: { fix?: string } };
      const text = `${e.message ?? String(err)}${e.ui?.fix ? ` ${e.ui.fix}` : ''}`;
      deps.log.error(text);
      void vscode.window.showErrorMessage(`Spinlock Lab: ${text}`);
    }
  };
  const idOf = (arg: unknown, kind: 'preset' | 'experiment' | 'connection' | 'mssql') => {
    const id = treeItemId(arg, kind);
    if (id === null)
      throw new Error(`the ${kind} item did not say which ${kind} it is (${JSON.stringify(arg)?.slice(0, 80) ?? String(arg)})`);
    return id;
  };
  return [
    view,
    status,
    stop,
    labChanged.event((kind) => {
      if (kind === 'state') tree.refresh();
      showStatus();
    }),
    // A connection saved, renamed or removed in Microsoft's SQL extension: list what it has now.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('mssql.connections')) return;
      void (currentPanel()?.controller.refreshSqlExtension() ?? Promise.resolve()).then(() => tree.refresh());
    }),
    vscode.commands.registerCommand('spinlab.refreshView', async () => {
      await currentPanel()?.controller.refreshSqlExtension();
      tree.refresh();
    }),
    vscode.commands.registerCommand(
      TREE_COMMANDS.connectSqlExtension,
      withPanel((panel, arg) => panel.controller.connectSqlExtension({ id: idOf(arg, 'mssql') })),
    ),
    vscode.commands.registerCommand(
      TREE_COMMANDS.connectProfile,
      withPanel((panel, arg) => {
        const id = idOf(arg, 'connection');
        const profile = panel.controller.state.profiles.find((p) => p.id === id);
        if (profile && panel.controller.state.connection.profileId !== profile.id) panel.controller.prefill(profile);
      }),
    ),
    vscode.commands.registerCommand(
      TREE_COMMANDS.openPreset,
      withPanel((panel, arg) => panel.controller.reveal({ target: 'preset', id: idOf(arg, 'preset') })),
    ),
    vscode.commands.registerCommand(
      TREE_COMMANDS.openWatch,
      withPanel((panel) => panel.controller.reveal({ target: 'watch' })),
    ),
    vscode.commands.registerCommand(
      TREE_COMMANDS.openView,
      withPanel(async (panel, arg) => {
        // From the palette (no item): ask which view.
        const view = typeof arg === 'string' ? arg : (await pickView())?.view;
        if (view) panel.controller.reveal({ target: 'view', view: view as PanelView });
      }),
    ),
    vscode.commands.registerCommand(
      TREE_COMMANDS.openExperiment,
      withPanel((panel, arg) => {
        try {
          panel.controller.reveal({ target: 'experiment', id: idOf(arg, 'experiment') });
        } catch (err) {
          tree.refresh(); // a deleted experiment left the tree stale: list what is there now
          throw err;
        }
      }),
    ),
  ];
}
