// The panel's HTML: the exact CSP, a fresh nonce on the one external script, the stylesheet, no inline code.
import assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, panelHtml } from '../../../src/host/html';

const input = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc+/=123',
  scriptUri: 'https://r/dist/webview.js',
  styleUri: 'https://r/media/panel.css',
};

it('the CSP is exactly the one docs/panel.md gives', () => {
  assert.equal(
    contentSecurityPolicy('SRC', 'N'),
    "default-src 'none'; style-src SRC; img-src SRC data:; font-src SRC; script-src 'nonce-N';",
  );
  const html = panelHtml(input);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(meta);
  assert.equal(
    meta[1],
    `default-src 'none'; style-src ${input.cspSource}; img-src ${input.cspSource} data:; font-src ${input.cspSource}; script-src 'nonce-abc+/=123';`,
  );
});

it('one script, external, with the nonce; one stylesheet; no inline script or style', () => {
  const html = panelHtml(input);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0][1], /nonce="abc\+\/=123"/);
  assert.match(scripts[0][1], /src="https:\/\/r\/dist\/webview\.js"/);
  assert.equal(scripts[0][2].trim(), '', 'no inline code');
  assert.match(html, /<link rel="stylesheet" href="https:\/\/r\/media\/panel\.css">/);
  assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
  assert.match(html, /<body>\s*<script/);
});

it('nonces are 16 random bytes in base64, different each time', () => {
  const a = makeNonce();
  assert.equal(Buffer.from(a, 'base64').length, 16);
  assert.notEqual(a, makeNonce());
});

it('attribute values are escaped', () => {
  assert.match(panelHtml({ ...input, scriptUri: 'x" onload="y' }), /src="x&quot; onload=&quot;y"/);
});
