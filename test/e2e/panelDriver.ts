// The Spinlock Lab panel as the e2e test sees it: the stable ids of docs/panel.md inside the webview, driven the way a
// user drives them (typing into a field, clicking an option, ticking a box), with waits on conditions only.
// (The root tsconfig has no DOM types: code run in the page names only the properties it reads.)
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { webview } from './workbench';
import { GiveUp, waitFor } from './codeServer';

export const CHARTS = ['throughput', 'spinlocks', 'waits', 'latches', 'log', 'cpu'] as const;
export type ChartName = (typeof CHARTS)[number];

export class PanelDriver {
  readonly frame: FrameLocator;

  constructor(readonly page: Page) {
    this.frame = webview(page);
  }

  el(selector: string): Locator {
    return this.frame.locator(selector).first();
  }

  /** Shows one of the panel's views (docs/panel.md): a click on its tab in the header. */
  async view(name: string): Promise<void> {
    await this.el(`#tab-${name}`).click();
    await this.el(`#view-${name}:not([hidden])`).waitFor({ state: 'attached', timeout: 5_000 });
  }

  /** Waits for the element to be drawn and shows the view that holds it, as a user clicks that view's tab first. */
  private async showViewOf(l: Locator, timeoutMs: number): Promise<void> {
    await l.waitFor({ state: 'attached', timeout: timeoutMs });
    const hidden = await l.evaluate((e) => {
      const v = (e as unknown as { closest(s: string): { getAttribute(n: string): string | null; hidden: boolean } | null }).closest(
        '[data-view]',
      );
      return v?.hidden ? v.getAttribute('data-view') : null;
    });
    if (hidden) await this.view(hidden);
  }

  async visible(selector: string, timeoutMs = 10_000): Promise<Locator> {
    const l = this.el(selector);
    try {
      await this.showViewOf(l, timeoutMs);
      await l.waitFor({ state: 'visible', timeout: timeoutMs });
    } catch {
      throw new Error(`expected ${selector} to be visible in the panel within ${timeoutMs} ms`);
    }
    return l;
  }

  /** The element's tag, lower case ('vscode-textfield', 'input', 'select'...). */
  private async tag(selector: string): Promise<string> {
    return (await this.visible(selector)).evaluate((e) => e.tagName.toLowerCase());
  }

  /** The native input a user types into: the element itself, or the `input` inside a vscode-textfield. */
  private async input(selector: string): Promise<Locator> {
    const tag = await this.tag(selector);
    return tag === 'input' || tag === 'textarea' ? this.el(selector) : this.el(`${selector} input`);
  }

  /** Replaces a text field's content (`typed`: key by key, as for a password) and leaves the field (change fires). */
  async fill(selector: string, value: string, opts: { typed?: boolean } = {}): Promise<void> {
    const input = await this.input(selector);
    if (opts.typed) {
      await input.fill('');
      await input.pressSequentially(value, { delay: 10 });
    } else {
      await input.fill(value);
    }
    await input.press('Tab');
    const now = await this.value(selector);
    if (now !== value)
      throw new Error(
        `expected ${selector} to hold ${JSON.stringify(opts.typed ? '(the typed text)' : value)} after typing; it holds ${JSON.stringify(opts.typed ? `${now.length} characters` : now)}`,
      );
  }

  /** The element's current value (text fields, selects). */
  async value(selector: string): Promise<string> {
    return this.el(selector).evaluate((e) => String((e as unknown as { value?: unknown }).value ?? ''));
  }

  /** Picks an option of a native select by its value (the panel's selects are all native). */
  async select(selector: string, value: string): Promise<void> {
    await (await this.visible(selector)).selectOption(value);
    await waitFor(`${selector} to show "${value}" after picking it`, async () => (await this.value(selector)) === value, 5_000);
  }

  async isChecked(selector: string): Promise<boolean> {
    return this.el(selector).evaluate((e) => Boolean((e as unknown as { checked?: boolean }).checked));
  }

  /** Ticks or unticks a checkbox by clicking it (only when it is not already as wanted). */
  /** Connects through the panel's form as sa with a SQL login (password typed, not saved) and waits for Disconnect. */
  async connectWithForm(host: string, port: number, password: string): Promise<void> {
    await this.fill('#conn-server', host);
    await this.fill('#conn-port', String(port));
    await this.select('#conn-auth', 'sql');
    await this.fill('#conn-user', 'sa');
    await this.fill('#conn-password', password, { typed: true });
    await this.setChecked('#conn-trust', true);
    await this.setChecked('#conn-save-password', false);
    await this.click('#btn-connect');
    await this.visible('#btn-disconnect', 30_000);
  }

  async setChecked(selector: string, checked: boolean): Promise<void> {
    await this.visible(selector);
    if ((await this.isChecked(selector)) !== checked) {
      // Space on the focused box, as a keyboard user does: a vscode-checkbox toggles only on a click on its inner
      // label, which the layout can put away from the element's own box.
      await this.el(selector).press('Space');
    }
    await waitFor(`${selector} to be ${checked ? 'ticked' : 'unticked'}`, async () => (await this.isChecked(selector)) === checked, 5_000);
  }

  /** Clicks a button once it is enabled. */
  async click(selector: string, timeoutMs = 15_000): Promise<void> {
    await this.visible(selector, timeoutMs);
    await waitFor(
      `${selector} to be enabled`,
      () =>
        this.el(selector).evaluate(
          (e) =>
            !e.hasAttribute('disabled') && e.getAttribute('aria-disabled') !== 'true' && !(e as unknown as { disabled?: boolean }).disabled,
        ),
      timeoutMs,
    );
    await this.el(selector).click();
  }

  async attr(selector: string, name: string): Promise<string | null> {
    return this.el(selector).getAttribute(name, { timeout: 5_000 });
  }

  async text(selector: string): Promise<string> {
    return (await this.el(selector).innerText({ timeout: 5_000 })).replace(/\s+/g, ' ').trim();
  }

  /**
   * Waits until `selector`'s attribute satisfies `ok`; stops early when `hopeless` says it will not get there (an
   * error status). The error names what was expected, what was there, and the panel's error banner.
   */
  async waitAttr(
    selector: string,
    name: string,
    ok: (v: string | null) => boolean,
    expected: string,
    timeoutMs: number,
    hopeless: (v: string | null) => boolean = () => false,
  ): Promise<string | null> {
    let last: string | null | undefined;
    try {
      await waitFor(
        `${selector} ${name} ${expected}`,
        async () => {
          last = await this.el(selector).getAttribute(name, { timeout: 1_000 });
          if (!ok(last) && hopeless(last)) throw new GiveUp('hopeless');
          return ok(last);
        },
        timeoutMs,
        100,
      );
    } catch (e) {
      const banner = await this.errorBanner();
      const when = e instanceof GiveUp ? '' : ` within ${timeoutMs} ms`;
      throw new Error(
        `expected ${selector} [${name}] ${expected}${when}; it is ${JSON.stringify(last ?? null)}${banner ? `; the panel's error banner says: ${banner}` : ''}`,
        { cause: e },
      );
    }
    return last ?? null;
  }

  /** The status a status element carries (`data-status`). */
  status(selector: string): Promise<string | null> {
    return this.attr(selector, 'data-status');
  }

  /** Waits for one of the `wanted` statuses; gives up at once on an error status (error, failed) not wanted. */
  async waitStatus(selector: string, wanted: string | string[], timeoutMs: number): Promise<string> {
    const list = Array.isArray(wanted) ? wanted : [wanted];
    return (await this.waitAttr(
      selector,
      'data-status',
      (v) => v !== null && list.includes(v),
      `to be ${list.join(' or ')}`,
      timeoutMs,
      (v) => v === 'error' || v === 'failed',
    ))!;
  }

  /**
   * Records every distinct value `selector`'s data-status takes (polled every 100 ms) until stop() is called: to check
   * a status the panel shows on the way (running) without racing for it.
   */
  watchStatus(selector: string): { seen: string[]; stop(): Promise<string[]> } {
    const seen: string[] = [];
    let busy: Promise<void> | null = null;
    const poll = () => {
      if (busy) return;
      busy = this.el(selector)
        .getAttribute('data-status', { timeout: 500 })
        .then(
          (v) => {
            if (v !== null && seen[seen.length - 1] !== v) seen.push(v);
          },
          () => undefined,
        )
        .finally(() => {
          busy = null;
        });
    };
    poll();
    const timer = setInterval(poll, 100);
    return {
      seen,
      async stop() {
        clearInterval(timer);
        await busy;
        return seen;
      },
    };
  }

  /** Data points a live chart has drawn so far. */
  async chartPoints(chart: ChartName): Promise<number> {
    const v = await this.el(`[data-chart="${chart}"]`).getAttribute('data-points', { timeout: 2_000 });
    return v === null ? -1 : Number(v);
  }

  /** Scrolls the live charts to the top of the panel: the panel draws only the charts in view (or near it). */
  async showCharts(): Promise<void> {
    await this.showViewOf(this.el('#section-charts'), 10_000);
    await this.el('#section-charts').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  }

  /**
   * Every live chart's data points. The panel draws only the charts in view, and the Experiment view stacks them
   * beside its form (more than a screen), so each is brought into view first: it catches up on its ticks then, and
   * the next poll reads them.
   */
  async allChartPoints(): Promise<Record<ChartName, number>> {
    const out = {} as Record<ChartName, number>;
    for (const c of CHARTS) {
      await this.el(`[data-chart="${c}"]`)
        .scrollIntoViewIfNeeded({ timeout: 2_000 })
        .catch(() => undefined);
      out[c] = await this.chartPoints(c).catch(() => -1);
    }
    return out;
  }

  /** The error banner's text when it is shown, else ''. */
  async errorBanner(): Promise<string> {
    const b = this.frame.locator('#error-banner');
    try {
      if ((await b.count()) && (await b.first().isVisible()))
        return (await b.first().innerText({ timeout: 1_000 })).replace(/\s+/g, ' ').trim();
    } catch {
      /* the frame may be gone */
    }
    return '';
  }
}
