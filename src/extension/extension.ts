// Placeholder entry while the panel is built (issue #4): proves the bundle carries the engine and the driver.
import * as vscode from 'vscode';
import { listScenarios } from '../engine/scenarios';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('spinlab.open', () => {
    void vscode.window.showInformationMessage(`Spinlock Lab: ${listScenarios().length} scenarios`);
  }));
}

export function deactivate(): void {}
