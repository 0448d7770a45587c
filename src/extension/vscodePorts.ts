// HostPorts over the vscode API: SecretStorage, globalState, a modal question, a cancellable progress notification,
// a Microsoft Entra session, the clipboard, the OS file manager, the output channel, the spinlab.* settings and
// Microsoft's SQL extension.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostPorts, LogPort } from '../host/ports';
import { vscodeSqlExtension } from './sqlExtension';
import { connectionProfileSchema, type ConnectionProfile } from '../shared/protocol';

const PROFILES_KEY = 'spinlab.profiles';
export const ENTRA_SCOPES = ['https://database.windows.net//.default'];

/** Profiles from globalState: each checked against the protocol's schema; a damaged one is dropped with a log line. */
function loadProfiles(context: vscode.ExtensionContext, log: LogPort): ConnectionProfile[] {
  const raw = context.globalState.get<unknown>(PROFILES_KEY);
  if (!Array.isArray(raw)) return [];
  const out: ConnectionProfile[] = [];
  for (const p of raw) {
    const r = connectionProfileSchema.safeParse(p);
    if (r.success) out.push(r.data);
    else log.warn(`dropped a saved connection profile that no longer fits: ${r.error.issues[0]?.message ?? 'invalid'}`);
  }
  return out;
}

export function resultsFolder(context: vscode.ExtensionContext): string {
  const configured = (vscode.workspace.getConfiguration('spinlab').get<string>('resultsFolder') ?? '').trim();
  if (!configured) return path.join(context.globalStorageUri.fsPath, 'experiments');
  return configured.startsWith('~') ? path.join(os.homedir(), configured.slice(1)) : path.resolve(configured);
}

export function createVscodePorts(context: vscode.ExtensionContext, webview: vscode.Webview, log: LogPort): HostPorts {
  return {
    post(message) {
      // A disposed webview throws; a hidden one drops the message (it asks again with `ready`).
      try {
        void Promise.resolve(webview.postMessage(message)).catch(() => undefined);
      } catch {
        /* the panel is gone */
      }
    },
    secrets: {
      get: (key) => Promise.resolve(context.secrets.get(key)),
      store: (key, value) => Promise.resolve(context.secrets.store(key, value)),
      delete: (key) => Promise.resolve(context.secrets.delete(key)),
    },
    profiles: {
      load: () => loadProfiles(context, log),
      save: (profiles) => Promise.resolve(context.globalState.update(PROFILES_KEY, profiles)),
    },
    state: {
      get: <T>(key: string) => context.globalState.get<T>(key),
      update: (key, value) => Promise.resolve(context.globalState.update(key, value)),
    },
    async confirm(title, detail, actionLabel, more) {
      const details = 'Show details';
      const choice = await vscode.window.showWarningMessage(title, { modal: true, detail }, actionLabel, ...(more ? [details] : []));
      if (choice !== details || !more) return choice === actionLabel;
      const again = await vscode.window.showWarningMessage(title, { modal: true, detail: `${detail}\n\n${more}` }, actionLabel);
      return again === actionLabel;
    },
    withProgress(title, task) {
      return Promise.resolve(
        vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
          const ac = new AbortController();
          const sub = token.onCancellationRequested(() => ac.abort());
          if (token.isCancellationRequested) ac.abort();
          return task((u) => progress.report(u), ac.signal).finally(() => sub.dispose());
        }),
      );
    },
    async getEntraToken() {
      const session = await vscode.authentication.getSession('microsoft', ENTRA_SCOPES, { createIfNone: true });
      return session.accessToken;
    },
    copyToClipboard: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
    async revealPath(p) {
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(p));
    },
    async pickSaveFile(defaultName, filters) {
      const base = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
      const uri = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(base, defaultName), filters });
      return uri?.fsPath;
    },
    async pickFolder(title) {
      const uris = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        title,
        openLabel: 'Export here',
      });
      return uris?.[0]?.fsPath;
    },
    async openFile(p) {
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(p));
    },
    log,
    sqlExtension: vscodeSqlExtension(),
    settings: () => ({
      confirmServerChanges: vscode.workspace.getConfiguration('spinlab').get<boolean>('confirmServerChanges') ?? true,
      resultsFolder: resultsFolder(context),
    }),
  };
}
