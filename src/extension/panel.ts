// The Spinlock Lab panel: one WebviewPanel at a time, its HTML from host/html.ts, every webview message handed to
// the LabController, and the controller disposed (a running experiment stopped and its settings restored) when the
// panel closes. After a reload VS Code brings the panel back through the serializer registered in extension.ts.
// Part of the heavy half (lab.ts), loaded on first use.
import * as vscode from 'vscode';
import { LabController } from '../host/labController';
import { makeNonce, panelHtml } from '../host/html';
import { TITLE, VIEW_TYPE, type PanelDeps } from './panelDeps';
import { createVscodePorts } from './vscodePorts';

export { TITLE, VIEW_TYPE, type PanelDeps };

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class LabPanel {
  static current: LabPanel | undefined;
  /** The panel's state changed ('state') or a run moved ('progress'); 'state' also when the panel closes. */
  static readonly changed = new vscode.EventEmitter<'state' | 'progress'>();
  readonly controller: LabController;
  private readonly disposables: vscode.Disposable[] = [];
  private closing: Promise<void> | undefined;

  /** Shows the panel, creating it when there is none. */
  static show(deps: PanelDeps): LabPanel {
    if (LabPanel.current) {
      LabPanel.current.panel.reveal();
      return LabPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, TITLE, vscode.ViewColumn.Active, webviewOptions(deps.context.extensionUri));
    return new LabPanel(panel, deps);
  }

  /** A panel VS Code restored after a reload. */
  static revive(panel: vscode.WebviewPanel, deps: PanelDeps): LabPanel {
    // As when the panel closes (onDidDispose below): the old controller stops its run and restores the server on its
    // own; the restored panel need not wait for it.
    void LabPanel.current?.dispose();
    panel.webview.options = webviewOptions(deps.context.extensionUri);
    return new LabPanel(panel, deps);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    deps: PanelDeps,
  ) {
    LabPanel.current = this;
    const webview = panel.webview;
    const root = deps.context.extensionUri;
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'panel.css')).toString(),
    });
    // Everything the controller tells the webview also moves the Activity Bar view and the status bar item.
    const ports = createVscodePorts(deps.context, webview, deps.log);
    const post = ports.post.bind(ports);
    ports.post = (m) => {
      post(m);
      // The Now view's readings (about one a second) change nothing the Activity Bar or the status bar shows.
      if (m.type !== 'nowUpdate') LabPanel.changed.fire(m.type === 'state' ? 'state' : 'progress');
    };
    this.controller = new LabController(ports, { editor: deps.editor });
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => void this.controller.receive(m)),
      panel.onDidDispose(() => void this.dispose()),
      // The Now view reads the server only while the panel is shown.
      panel.onDidChangeViewState((e) => this.controller.setVisible(e.webviewPanel.visible)),
    );
    void this.controller.start();
  }

  /** Closes the panel's work: stops a running experiment (its settings are put back) and the connection. */
  dispose(): Promise<void> {
    if (this.closing) return this.closing;
    if (LabPanel.current === this) LabPanel.current = undefined;
    this.closing = this.controller.dispose();
    void this.closing.finally(() => LabPanel.changed.fire('state'));
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    return this.closing;
  }
}
