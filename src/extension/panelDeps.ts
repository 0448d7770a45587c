// What the light half of the extension (activation: commands, the Activity Bar tree, the status bar) and the heavy
// half (the panel, the controller, the engine and the driver, loaded on first use by loadLab.ts) both need. Nothing
// here may import the heavy half: activate() loads this module, and activation must stay light.
import type * as vscode from 'vscode';
import type { LogPort } from '../host/ports';
import type { PanelState } from '../shared/protocol';

export const VIEW_TYPE = 'spinlab.panel';
export const TITLE = 'Spinlock Lab';

export interface PanelDeps {
  context: vscode.ExtensionContext;
  log: LogPort;
  editor: PanelState['editor'];
}

export function outputLog(channel: vscode.OutputChannel): LogPort {
  const line = (level: string, text: string) => channel.appendLine(`${new Date().toISOString()} [${level}] ${text}`);
  return { info: (t) => line('info', t), warn: (t) => line('warn', t), error: (t) => line('error', t) };
}
