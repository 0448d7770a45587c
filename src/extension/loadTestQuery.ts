// "Spinlock Lab: Load Test This Query" on .sql editors and files: the selection (or the whole file) goes to the
// panel's Custom workload form through the host (LabController.fillCustom); nothing runs until the user presses Run.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadLab } from './loadLab';
import type { PanelDeps } from './panelDeps';

async function queryOf(arg: unknown): Promise<{ sql: string; source: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  // From the explorer (or an editor's title) the file's Uri comes as the argument.
  if (arg instanceof vscode.Uri && (!editor || editor.document.uri.toString() !== arg.toString())) {
    const doc = await vscode.workspace.openTextDocument(arg);
    return { sql: doc.getText(), source: path.basename(arg.fsPath) };
  }
  if (!editor) return undefined;
  const doc = editor.document;
  const sel = editor.selection;
  const name = path.basename(doc.uri.fsPath || doc.uri.path) || 'the editor';
  if (!sel.isEmpty) return { sql: doc.getText(sel), source: `${name} (selection)` };
  return { sql: doc.getText(), source: name };
}

export function registerLoadTestQuery(deps: PanelDeps): vscode.Disposable {
  return vscode.commands.registerCommand('spinlab.loadTestQuery', async (arg?: unknown) => {
    const q = await queryOf(arg);
    if (!q || q.sql.trim() === '') {
      void vscode.window.showInformationMessage(
        'Spinlock Lab: open a .sql file (or select a statement in it), then run Load Test This Query.',
      );
      return;
    }
    (await loadLab()).LabPanel.show(deps).controller.fillCustom(q);
  });
}
