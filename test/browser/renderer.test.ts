// The notebook renderer (dist/renderer.js) in Chromium: every chart payload the notebook writer emits becomes a
// chart.js canvas, re-rendering an output replaces its chart, and a broken payload shows a message instead of
// throwing. The page gives the editor's --vscode-* theme variables, as VS Code's notebook output does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { launch, root } from './harness';
import { buildNotebook } from '../../src/engine/notebook/write';
import { SERIES_MIME } from '../../src/shared/seriesPayload';
import { experiment } from '../helpers/builders';

it('the notebook renderer draws every chart a saved notebook carries, and refuses a broken one with a message', async () => {
  const nb = buildNotebook([experiment('2026-01-01T00-00-00-000Z-disk-insert', [1, 2, 4], { ticks: 30 })]);
  const payloads = nb.cells
    .flatMap((c) => (c.cell_type === 'code' ? c.outputs : []))
    .map((o) => o.data[SERIES_MIME])
    .filter(Boolean);
  assert.ok(payloads.length >= 6);
  const pageHtml = `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/themes/dark.css"></head>
<body class="vscode-dark"><div id="outputs"></div><script type="module" src="/host.js"></script></body></html>`;
  const routes: Record<string, [string, string]> = {
    '/': ['text/html', pageHtml],
    '/payloads.json': ['application/json', JSON.stringify(payloads)],
    '/host.js': ['text/javascript', fs.readFileSync(path.join(root, 'test', 'browser', 'rendererHost.js'), 'utf8')],
    '/dist/renderer.js': ['text/javascript', fs.readFileSync(path.join(root, 'dist', 'renderer.js'), 'utf8')],
    '/themes/dark.css': ['text/css', fs.readFileSync(path.join(root, 'test', 'browser', 'themes', 'dark.css'), 'utf8')],
  };
  const server = http.createServer((req, res) => {
    const r = routes[req.url ?? ''];
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': r[0] }).end(r[1]);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 2400 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (globalThis as unknown as { __disposed?: boolean }).__disposed === true, undefined, {
      timeout: 20_000,
    });
    const r = await page.evaluate(
      () => (globalThis as unknown as { __rendered: { canvases: number; drawn: number; bad: string } }).__rendered,
    );
    assert.equal(r.canvases, payloads.length, 'one canvas per chart, the re-rendered one replaced rather than added');
    assert.equal(r.drawn, payloads.length, 'every canvas has a size (chart.js drew it)');
    assert.match(r.bad, /cannot draw this chart: series 1, point 1 is not a pair of numbers/);
    assert.deepEqual(errors, []);
    fs.mkdirSync(path.join(root, 'test-artifacts', 'browser'), { recursive: true });
    await page.screenshot({ path: path.join(root, 'test-artifacts', 'browser', 'notebook-renderer.png'), fullPage: false });
  } finally {
    await browser.close();
    server.close();
  }
});
