// The browser tier's harness (no tests here): a tiny HTTP server serving the panel the way VS Code's webview does
// (the same CSP as a <meta>, a nonce on the scripts, media/panel.css, dist/webview.js), a stub acquireVsCodeApi, and
// one stylesheet per theme with the --vscode-* variables and the body class VS Code sets. Plus Chromium through
// playwright-core and helpers to post host messages and read what the panel posted back.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PanelState, ToHostMessage, ToWebviewMessage } from '../../src/shared/protocol';
import type { PanelRequestMap } from '../../src/shared/panelRequests';
import type { ParamsOf, ResultOf } from '../../src/shared/requests';
import type { PanelView } from '../../src/shared/panelViews';

/** What the page callbacks reach through globalThis (this tsconfig has no DOM types). */
export interface PageGlobals {
  __posted: ToHostMessage[];
  __violations: unknown[];
  __state: unknown;
  postMessage(message: unknown, target: string): void;
}
const pageGlobals = (): PageGlobals => globalThis as unknown as PageGlobals;
void pageGlobals;

export const root = path.resolve(__dirname, '..', '..', '..');
const sources = path.join(root, 'test', 'browser');

export type Theme = 'light' | 'dark' | 'hc';
const bodyClass: Record<Theme, string> = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

export interface Harness {
  origin: string;
  url(theme: Theme): string;
  close(): Promise<void>;
}

const files: Record<string, { file: string; type: string }> = {
  '/media/panel.css': { file: path.join(root, 'media', 'panel.css'), type: 'text/css' },
  '/dist/webview.js': { file: path.join(root, 'dist', 'webview.js'), type: 'text/javascript' },
  '/stub.js': { file: path.join(sources, 'stub.js'), type: 'text/javascript' },
  '/themes/light.css': { file: path.join(sources, 'themes', 'light.css'), type: 'text/css' },
  '/themes/dark.css': { file: path.join(sources, 'themes', 'dark.css'), type: 'text/css' },
  '/themes/hc.css': { file: path.join(sources, 'themes', 'hc.css'), type: 'text/css' },
  '/themes/vscodeDefaults.css': { file: path.join(sources, 'themes', 'vscodeDefaults.css'), type: 'text/css' },
};

function page(origin: string, theme: Theme, nonce: string): string {
  const csp = `default-src 'none'; style-src ${origin}; img-src ${origin} data:; font-src ${origin}; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${origin}/themes/${theme}.css">
<link rel="stylesheet" href="${origin}/themes/vscodeDefaults.css">
<link rel="stylesheet" href="${origin}/media/panel.css">
<title>Spinlock Lab</title>
</head>
<body class="${bodyClass[theme]}">
<div id="app"></div>
<script nonce="${nonce}" src="${origin}/stub.js"></script>
<script nonce="${nonce}" src="${origin}/dist/webview.js"></script>
</body>
</html>`;
}

export async function startHarness(): Promise<Harness> {
  if (!fs.existsSync(files['/dist/webview.js'].file)) {
    throw new Error('dist/webview.js is missing: build it with `npx webpack --config webpack.config.js --config-name webview`');
  }
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === '/panel.html') {
      const theme = (url.searchParams.get('theme') ?? 'dark') as Theme;
      const nonce = Buffer.from(String(Math.random())).toString('base64').replace(/=/g, '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(origin, theme, nonce));
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const f = files[url.pathname];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    fs.readFile(f.file, (err, body) => {
      if (err) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      else res.writeHead(200, { 'content-type': f.type }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (theme) => `${origin}/panel.html?theme=${theme}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Panel {
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
  /** Posts a host -> webview message, as the extension host does. */
  send(msg: ToWebviewMessage): Promise<void>;
  /** Every message the panel posted to the host. */
  posted(): Promise<ToHostMessage[]>;
  violations(): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function openPanel(
  browser: Browser,
  harness: Harness,
  theme: Theme = 'dark',
  viewport = { width: 1280, height: 900 },
): Promise<Panel> {
  const context = await browser.newContext({ viewport });
  const p = await context.newPage();
  const errors: string[] = [];
  p.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(harness.url(theme));
  await p.waitForFunction(() => (globalThis as unknown as PageGlobals).__posted.length > 0);
  return {
    page: p,
    errors,
    send: (msg) => p.evaluate((m) => (globalThis as unknown as PageGlobals).postMessage(m, '*'), msg as unknown),
    posted: () => p.evaluate(() => (globalThis as unknown as PageGlobals).__posted),
    violations: () => p.evaluate(() => (globalThis as unknown as PageGlobals).__violations),
    close: () => context.close(),
  };
}

/**
 * A harness and Chromium started before the enclosing suite (or the file) and stopped after it: `open` opens a panel
 * on them, `origin` is the harness's address.
 */
export function useBrowser(): { open(theme?: Theme, viewport?: { width: number; height: number }): Promise<Panel>; origin(): string } {
  let browser: Browser | undefined;
  let harness: Harness | undefined;
  before(async () => {
    harness = await startHarness();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });
  return {
    open: (theme = 'dark', viewport) => openPanel(browser!, harness!, theme, viewport),
    origin: () => harness!.origin,
  };
}

/**
 * The hooks most browser test files share: useBrowser's, and withPanel, which opens a panel, posts `state` when given one, runs the test body, checks
 * that nothing broke the Content-Security-Policy or logged a console error, and closes the panel however it ended.
 */
export function usePanels(): { withPanel(state: PanelState | null, fn: (p: Panel) => Promise<void>, theme?: Theme): Promise<void> } {
  const ui = useBrowser();
  return {
    async withPanel(state, fn, theme = 'dark') {
      const panel = await ui.open(theme);
      try {
        if (state) await panel.send({ type: 'state', payload: { state } });
        await fn(panel);
        assert.deepEqual(await panel.violations(), [], 'no Content-Security-Policy violation');
        assert.deepEqual(panel.errors, [], 'no console error');
      } finally {
        await panel.close();
      }
    },
  };
}

/** Waits until the panel has posted a message of this type (after `since` messages), and returns it. */
export async function waitForPosted<T extends ToHostMessage['type']>(
  panel: Panel,
  type: T,
  since = 0,
): Promise<Extract<ToHostMessage, { type: T }>> {
  const handle = await panel.page.waitForFunction(
    ([t, s]) => (globalThis as unknown as PageGlobals).__posted.slice(s as number).find((m) => m.type === t) ?? null,
    [type, since] as const,
  );
  return (await handle.jsonValue()) as Extract<ToHostMessage, { type: T }>;
}

/** A question the panel asked (requests.ts), as it posted it. */
export interface AskedRequest<K extends keyof PanelRequestMap> {
  type: 'request';
  id: number;
  method: K;
  params: ParamsOf<PanelRequestMap[K]>;
}

/** Waits until the panel has asked this question (after `since` posted messages), and returns the request. */
export async function waitForRequest<K extends keyof PanelRequestMap>(panel: Panel, method: K, since = 0): Promise<AskedRequest<K>> {
  const handle = await panel.page.waitForFunction(
    ([m, s]) =>
      ((globalThis as unknown as PageGlobals).__posted.slice(s as number) as unknown as { type: string; method?: string }[]).find(
        (x) => x.type === 'request' && x.method === m,
      ) ?? null,
    [method, since] as const,
  );
  return (await handle.jsonValue()) as AskedRequest<K>;
}

/** Answers a question as the host does, with its result. */
export function answer<K extends keyof PanelRequestMap>(
  panel: Panel,
  req: AskedRequest<K>,
  result: ResultOf<PanelRequestMap[K]>,
): Promise<void> {
  return panel.send({ type: 'response', payload: { id: req.id, ok: true, result } });
}

/** Answers a question as the host does when it fails. */
export function answerFailure(panel: Panel, req: AskedRequest<keyof PanelRequestMap>, message: string): Promise<void> {
  return panel.send({ type: 'response', payload: { id: req.id, ok: false, error: { message } } });
}

/** Fills a vscode-textfield the way a user does: into its inner input. */
export async function fill(page: Page, selector: string, value: string): Promise<void> {
  await page.locator(`${selector} input`).fill(value);
}

export async function points(page: Page, chart: string): Promise<number> {
  return Number(await page.getAttribute(`[data-chart="${chart}"]`, 'data-points'));
}

/** Waits until a chart's data-points reaches n. */
export async function waitForPoints(page: Page, chart: string, n: number, timeout = 10_000): Promise<void> {
  await page.locator(`[data-chart="${chart}"][data-points="${n}"]`).waitFor({ state: 'attached', timeout });
}

/** Waits until an input-like element's value is v (vscode-textfield exposes .value). */
export async function waitForValue(page: Page, selector: string, v: string): Promise<void> {
  await page.waitForFunction(
    ([sel, want]) => {
      const el = (globalThis as unknown as { document: { querySelector(s: string): { value?: string } | null } }).document.querySelector(
        sel,
      );
      return el?.value === want;
    },
    [selector, v] as const,
  );
}

/**
 * Brings a section of live charts wholly on screen: the panel draws only the charts in view (a chart off screen
 * catches up when scrolled to), so a test that reads every chart's points first makes the viewport tall enough for
 * the section and scrolls to it.
 */
export async function showCharts(page: Page, selector = '#section-charts'): Promise<void> {
  const el = page.locator(selector);
  await el.waitFor({ state: 'attached' });
  await showViewOf(page, selector);
  const height = await el.evaluate((e) => e.getBoundingClientRect().height);
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  if (height + 40 > size.height) await page.setViewportSize({ width: size.width, height: Math.ceil(height + 40) });
  await el.evaluate((e) => e.scrollIntoView({ block: 'start' }));
}

/** Shows one of the panel's views (a click on its tab in the header), as a user does before using what it holds. */
export async function showView(page: Page, view: PanelView): Promise<void> {
  await page.click(`#tab-${view}`);
  await page.waitForSelector(`#view-${view}:not([hidden])`, { state: 'attached' });
}

/** Shows the view that holds the element (drawn already), as a user clicks that view's tab first. */
export async function showViewOf(page: Page, selector: string): Promise<void> {
  await page.locator(selector).first().waitFor({ state: 'attached' });
  const view = await page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const v = (e as unknown as { closest(s: string): { hidden: boolean; getAttribute(n: string): string | null } | null }).closest(
        '[data-view]',
      );
      return v?.hidden ? v.getAttribute('data-view') : null;
    });
  if (view) await showView(page, view as PanelView);
}
