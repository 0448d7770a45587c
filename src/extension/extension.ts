// The extension's entry point: it only wires. The panel's logic lives in src/host (plain Node, no vscode).
// Activation stays light (a window opens fast, and a user who never opens the lab never loads the driver): the
// commands, the Activity Bar tree, the status bar items and the panel's serializer are registered here, and the panel,
// the engine, the driver and the notebook code behind them load on first use (loadLab.ts; dist/lab.js in the
// bundle). test/unit/activation.test.ts fails if activation loads them.
import * as vscode from 'vscode';
import { loadAzdata, setAzdataContext } from './azdata';
import { registerCommands } from './commands';
import { registerLabView } from './labView';
import { registerLoadTestQuery } from './loadTestQuery';
import { currentPanel, loadLab } from './loadLab';
import { outputLog, VIEW_TYPE, type PanelDeps } from './panelDeps';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Spinlock Lab');
  const azdata = loadAzdata();
  void setAzdataContext(azdata);
  const deps: PanelDeps = { context, log: outputLog(channel), editor: azdata ? 'azdata' : 'vscode' };
  context.subscriptions.push(
    channel,
    ...registerCommands(deps, azdata),
    ...registerLabView(deps),
    registerLoadTestQuery(deps),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
        (await loadLab()).LabPanel.revive(panel, deps);
      },
    }),
  );
}

/** VS Code is closing: stop a running experiment so its server settings are put back (none if nothing loaded). */
export function deactivate(): Promise<void> | undefined {
  return currentPanel()?.dispose();
}
