// The commands: open the panel, stop the experiment, restore from the journal, and open from another tool's Object
// Explorer (Microsoft's SQL extension's tree node, or Azure Data Studio's: connect with the secret it keeps), and
// run a saved notebook's experiment again against the connected server. Registered at activation; each loads the
// panel and what is behind it (loadLab.ts) when it first runs.
import * as vscode from 'vscode';
import { azdataSecret, type AzdataApi } from './azdata';
import { currentPanel, loadLab } from './loadLab';
import type { PanelDeps } from './panelDeps';

/**
 * The notebook to re-run: the one the command was invoked on (toolbar or explorer), else the active notebook editor's,
 * else one the user picks.
 */
async function notebookFile(arg: unknown): Promise<string | undefined> {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  const fromToolbar = (arg as { notebookEditor?: { notebookUri?: vscode.Uri } } | undefined)?.notebookEditor?.notebookUri;
  if (fromToolbar) return fromToolbar.fsPath;
  const active = vscode.window.activeNotebookEditor?.notebook.uri;
  if (active?.fsPath.endsWith('.ipynb')) return active.fsPath;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { 'Spinlock Lab notebook': ['ipynb'] },
    openLabel: 'Run again',
  });
  return picked?.[0]?.fsPath;
}

export function registerCommands(deps: PanelDeps, azdata: AzdataApi | undefined): vscode.Disposable[] {
  const fail = (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    deps.log.error(message);
    void vscode.window.showErrorMessage(`Spinlock Lab: ${message}`);
  };
  /** The panel, loading the heavy half first when this is its first use. */
  const show = async () => (await loadLab()).LabPanel.show(deps);
  const register = <A extends unknown[]>(id: string, fn: (...args: A) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: A) => {
      try {
        await fn(...args);
      } catch (err) {
        fail(err);
      }
    });
  return [
    register('spinlab.open', show),
    vscode.commands.registerCommand('spinlab.stop', () => {
      // Nothing loaded means no panel, so no experiment: no need to load anything to say so.
      if (!currentPanel()?.controller.stop()) void vscode.window.showInformationMessage('Spinlock Lab: no experiment is running.');
    }),
    vscode.commands.registerCommand('spinlab.restore', async () => {
      const panel = await show();
      if (panel.controller.state.connection.status !== 'connected') {
        void vscode.window.showInformationMessage(
          'Spinlock Lab: connect to the server in the panel first; Restore then puts back what its journal recorded.',
        );
        return;
      }
      await panel.controller.restoreCommand();
    }),
    vscode.commands.registerCommand('spinlab.rerunNotebook', async (arg?: unknown) => {
      const file = await notebookFile(arg);
      if (!file) return;
      const panel = await show();
      await panel.controller.rerunNotebook(file);
    }),
    // Microsoft's SQL extension's Object Explorer: connects at once with the credentials that extension keeps (or, when
    // this version of it shares none, fills the form to ask once); failures show in the panel.
    register('spinlab.openFromObjectExplorer', async (node: unknown) => {
      const panel = (await loadLab()).LabPanel.show(deps);
      await panel.controller.connectSqlExtension({ node });
    }),
    register('spinlab.openFromAzdataObjectExplorer', async (context: unknown) => {
      const lab = await loadLab();
      const panel = lab.LabPanel.show(deps);
      const { profile, connectionId } = lab.profileFromAzdata(context);
      const prefilled = panel.controller.prefill(profile);
      if (!azdata || !connectionId) return; // the user types the password in the form
      const secret = await azdataSecret(azdata, connectionId);
      if (secret.password || secret.accessToken || prefilled.authentication === 'entra') {
        await panel.controller.connectWithSecret(prefilled, secret);
      }
    }),
  ];
}
