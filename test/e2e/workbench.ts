// Driving the VS Code workbench (code-server) from Chromium through playwright-core: the command palette, the
// webview frames, modal dialogs, notifications and the colour theme. Only what a user can see and do.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { DARK_THEME, HC_THEME, LIGHT_THEME, waitFor } from './codeServer';

export const CHROMIUM = process.env.SPINLAB_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not at ${CHROMIUM}: run scripts/e2e-setup.sh`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
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

/** Opens the workbench and waits until it is usable (the status bar is drawn and the extension host is up). */
export async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
  return page;
}

/**
 * Runs a command by its title from the command palette: F1, type the title, check the highlighted entry is exactly
 * that command, Enter. The palette lists only the commands known when it opened, and an extension's contributions
 * arrive a few seconds after the workbench is drawn: so when the title is not listed yet, close and try again.
 */
export async function runCommand(page: Page, title: string, opts: { timeoutMs?: number; opensQuickPick?: boolean } = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const row = widget.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: exactly(title) }) }).first();
  const deadline = Date.now() + timeoutMs;
  let lastError: string;
  for (;;) {
    try {
      if (await widget.isVisible()) {
        await page.keyboard.press('Escape');
        await widget.waitFor({ state: 'hidden', timeout: 3_000 });
      }
      // F1 pressed inside a webview is forwarded to the workbench, but focus stays in the webview's frame and the
      // palette closes again: take focus out of any frame first.
      await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { activeElement: { tagName: string; blur(): void } | null } }).document;
        if (doc.activeElement?.tagName === 'IFRAME') doc.activeElement.blur();
      });
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      // The quick input closes when focus moves away (a webview taking focus after a layout change): short timeouts,
      // and the whole attempt again.
      await input.fill(`>${title}`, { timeout: 3_000 });
      await row.waitFor({ state: 'visible', timeout: 2_000 });
      break;
    } catch (e) {
      lastError = (e as Error).message.split('\n')[0];
      if (Date.now() < deadline) continue;
      const rows = await widget
        .locator('.monaco-list-row')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(
        `expected the command palette to list "${title}" within ${timeoutMs} ms; it shows: ${JSON.stringify(rows.slice(0, 8))} (last: ${lastError})`,
        { cause: e },
      );
    }
  }
  const focused = widget.locator('.monaco-list-row.focused .label-name');
  if ((await focused.innerText().catch(() => '')).replace(/\s+/g, ' ').trim() === title) {
    await input.press('Enter');
  } else {
    await row.click();
  }
  if (opts.opensQuickPick) {
    // The command opened its own quick pick in the same widget: wait until the palette's text is gone.
    await waitFor(`"${title}" to open its quick pick`, async () => (await input.inputValue()) !== `>${title}`, 10_000);
  } else {
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

function exactly(s: string): RegExp {
  return new RegExp(`^\\s*${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** The content of the (active) webview: two iframes deep. */
export function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
}

/** The editor tab of a webview panel by its title. */
export function editorTab(page: Page, title: string | RegExp): Locator {
  return page.locator('.tabs-container .tab', { hasText: title });
}

/** The open modal dialog, if any. */
export function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

/** Waits for a modal dialog, returns its full text (message and detail). */
export async function dialogText(page: Page, timeoutMs = 15_000): Promise<string> {
  const box = dialog(page);
  await box.waitFor({ state: 'visible', timeout: timeoutMs });
  return (await box.innerText()).replace(/\s+\n/g, '\n');
}

/** Clicks a modal dialog's button by its label and waits for the dialog to close. */
export async function clickDialogButton(page: Page, label: string): Promise<void> {
  const box = dialog(page);
  const button = box.locator('.dialog-buttons .monaco-button', { hasText: exactly(label) });
  try {
    await button.first().waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    const labels = await box
      .locator('.dialog-buttons .monaco-button')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(`the dialog has no button "${label}"; its buttons: ${JSON.stringify(labels)}`);
  }
  await button.first().click();
  await box.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Texts of the notification toasts now shown. */
export async function notifications(page: Page): Promise<string[]> {
  return page.locator('.notifications-toasts .notification-toast').allInnerTexts();
}

/** Waits until a notification toast matches `re`; returns its text. */
export async function waitForNotification(page: Page, re: RegExp, timeoutMs = 15_000): Promise<string> {
  const found = await waitFor(`a notification matching ${re}`, async () => (await notifications(page)).find((t) => re.test(t)), timeoutMs);
  return found;
}

/** The theme kind the workbench shows: 'light', 'dark' (or high contrast variants). */
export async function workbenchThemeKind(page: Page): Promise<string> {
  const cls = (await page.locator('.monaco-workbench').getAttribute('class')) ?? '';
  if (/\bhc-light\b/.test(cls)) return 'hc-light';
  if (/\bhc-black\b/.test(cls)) return 'hc-dark';
  if (/\bvs-dark\b/.test(cls)) return 'dark';
  if (/\bvs\b/.test(cls)) return 'light';
  return `unknown (${cls})`;
}

/**
 * Switches the colour theme the way a user does: 'Preferences: Color Theme', type the theme's name, Enter; then waits
 * until the workbench shows it (`kind`: 'light', 'dark' or 'hc-dark').
 */
export async function setColorTheme(page: Page, theme: string, kind: 'light' | 'dark' | 'hc-dark'): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme', { opensQuickPick: true });
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(theme);
  // A theme row reads 'Dark Modern  Default Dark Modern' (its label, then the settings id as description).
  const row = widget.locator('.monaco-list-row', { hasText: theme }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
  await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  await waitFor(`the workbench to show the ${kind} theme ${theme}`, async () => (await workbenchThemeKind(page)) === kind, 15_000);
}

/** Saves a full-page screenshot; never throws (used from failure paths). */
export async function screenshot(page: Page | null | undefined, file: string): Promise<string | null> {
  if (!page) return null;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file, fullPage: false, timeout: 15_000 });
    return file;
  } catch {
    return null;
  }
}

/** The three theme kinds every saved screenshot exists in: its file suffix, the theme, the workbench's kind, the webview's body class. */
const THEME_KINDS = [
  { suffix: 'light', theme: LIGHT_THEME, kind: 'light', body: 'vscode-light' },
  { suffix: 'dark', theme: DARK_THEME, kind: 'dark', body: 'vscode-dark' },
  { suffix: 'hc', theme: HC_THEME, kind: 'hc-dark', body: 'vscode-high-contrast' },
] as const;

/**
 * Switches to each theme kind in turn (light, dark, high contrast), waits until the panel's webview shows it, and
 * runs `shoot` with the kind's file suffix; each file `shoot` names must be a real screenshot (over `minBytes`).
 */
export async function inEachThemeKind(page: Page, shoot: (suffix: string) => Promise<string[]>, minBytes = 10_000): Promise<void> {
  for (const k of THEME_KINDS) {
    await setColorTheme(page, k.theme, k.kind);
    await webview(page).locator(`body.${k.body}`).waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300); // the charts repaint in the theme's colours on the next frame
    for (const file of await shoot(k.suffix)) {
      assert.ok(fs.statSync(file).size > minBytes, `expected ${file} to be a real screenshot`);
    }
  }
}
