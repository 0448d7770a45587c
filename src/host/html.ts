// The panel's HTML: a strict CSP, one nonce'd external script (dist/webview.js), one stylesheet (media/panel.css),
// and an empty body the webview fills. No inline script and no inline style.
import * as crypto from 'node:crypto';

export interface PanelHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  /** asWebviewUri(dist/webview.js) as a string. */
  scriptUri: string;
  /** asWebviewUri(media/panel.css) as a string. */
  styleUri: string;
}

export function makeNonce(): string {
  return crypto.randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; style-src ${cspSource}; img-src ${cspSource} data:; font-src ${cspSource}; script-src 'nonce-${nonce}';`;
}

function attr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function panelHtml(i: PanelHtmlInput): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(i.cspSource, i.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(i.styleUri)}">
<title>Spinlock Lab</title>
</head>
<body>
<script nonce="${attr(i.nonce)}" src="${attr(i.scriptUri)}"></script>
</body>
</html>
`;
}
