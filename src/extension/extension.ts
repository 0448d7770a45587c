// The extension's entry point: it only wires. The panel's logic lives in src/host (plain Node, no vscode).
import * as vscode from 'vscode';
import { loadAzdata, setAzdataContext } from './azdata';
import { registerCommands } from './commands';
import { registerLabView } from './labView';
import { registerLoadTestQuery } from './loadTestQuery';
import { LabPanel, VIEW_TYPE, type PanelDeps } from './panel';
import { outputLog } from './vscodePorts';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Spinlock Lab');
  const azdata = loadAzdata();
  void setAzdataContext(azdata);
  const deps: PanelDeps = { context, log: outputLog(channel), host: azdata ? 'azdata' : 'vscode' };
  context.subscriptions.push(
    channel,
    ...registerCommands(deps, azdata),
    ...registerLabView(deps),
    registerLoadTestQuery(deps),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
        LabPanel.revive(panel, deps);
      },
    }),
  );
}

/** VS Code is closing: stop a running experiment so its server settings are put back. */
export function deactivate(): Promise<void> | undefined {
  return LabPanel.current?.dispose();
}
