// The host's reveal in Chromium (the Activity Bar's preset, Watch and experiment items): the panel opens the section,
// selects the item and brings it into view and focus, and obeys each reveal once (the host sends it again after the
// webview's `ready`, and a later pick by the user must not be undone by that repeat).
import assert from 'node:assert/strict';
import * as b from '../helpers/builders';
import type { RevealMessage } from '../../src/shared/reveal';
import { answer, showView, waitForRequest, type Panel, usePanels } from './harness';

describe('reveal: the panel shows what the Activity Bar item names', () => {
  const { withPanel } = usePanels();
  const reveal = (p: Panel, m: RevealMessage) => p.send({ type: 'reveal', payload: m });
  const isOpen = (p: Panel, id: string) =>
    p.page.evaluate(
      (sel) =>
        (globalThis as unknown as { document: { querySelector(s: string): { open?: boolean } | null } }).document.querySelector(sel)
          ?.open === true,
      id,
    );

  it('a preset: the Presets section open on it, its picker focused; the same reveal again changes nothing', () =>
    withPanel(b.connectedState({ presetPlans: [] }), async (p) => {
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#preset');
      // The user closed the Presets section earlier.
      await p.page.click('#section-presets > summary');
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { open: boolean } } }).document.querySelector(
            '#section-presets',
          ).open === false,
      );
      await reveal(p, { seq: 's-1', reveal: { target: 'preset', id: 'writelog' } });
      // writelog may already be the picker's value, so the reveal is seen done when the section is open again too.
      await p.page.waitForFunction(() => {
        const d = (globalThis as unknown as { document: { querySelector(s: string): { value?: string; open?: boolean } | null } }).document;
        return d.querySelector('#preset')?.value === 'writelog' && d.querySelector('#section-presets')?.open === true;
      });
      assert.equal(await isOpen(p, '#section-presets'), true);
      await p.page.waitForFunction(
        () => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id === 'preset',
      );
      // The user picks another preset; the host's repeat of the same reveal (after a `ready`) must not undo it.
      const other = await p.page.$$eval('#preset option', (els) => els.map((e) => e.getAttribute('value')).find((v) => v !== 'writelog')!);
      await p.page.selectOption('#preset', other);
      await reveal(p, { seq: 's-1', reveal: { target: 'preset', id: 'writelog' } });
      await p.send({ type: 'toast', payload: { message: 'after the repeat' } });
      await p.page.waitForSelector('#toast:has-text("after the repeat")');
      assert.equal(
        await p.page.evaluate(
          () =>
            (globalThis as unknown as { document: { querySelector(s: string): { value: string } } }).document.querySelector('#preset')
              .value,
        ),
        other,
      );
    }));

  it('a reveal that arrives before the toggle of a click that closed the section still opens it', () =>
    withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'watch');
      await p.page.waitForSelector('#section-watch');
      if (!(await p.page.$eval('#section-watch', (e) => (e as unknown as { open: boolean }).open)))
        await p.page.click('#section-watch > summary');
      await p.page.waitForSelector('#btn-watch-start');
      // The click closes the section now and queues its 'toggle' event; the reveal is handled in the same task, before
      // that event (a browser may run a message's task first): the section must end open.
      await p.page.evaluate(
        (m) => {
          const g = globalThis as unknown as {
            document: { querySelector(s: string): { open: boolean; click(): void } };
            dispatchEvent(e: unknown): void;
            MessageEvent: new (t: string, i: { data: unknown }) => unknown;
          };
          g.document.querySelector('#section-watch > summary').click();
          g.dispatchEvent(new g.MessageEvent('message', { data: { type: 'reveal', payload: m } }));
        },
        { seq: 's-race', reveal: { target: 'watch' } } as RevealMessage,
      );
      await p.page.waitForSelector('#btn-watch-start');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await p.page.$eval('#section-watch', (e) => (e as unknown as { open: boolean }).open), true, 'the section stays open');
    }));

  it('the Watch section: opened, in view and its heading focused', () =>
    withPanel(b.connectedState(), async (p) => {
      await showView(p.page, 'watch');
      await p.page.waitForSelector('#section-watch');
      // Closed first (it may start open or closed), so the reveal has to open it.
      if (await p.page.$eval('#section-watch', (e) => (e as unknown as { open: boolean }).open))
        await p.page.click('#section-watch > summary');
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { open: boolean } } }).document.querySelector('#section-watch')
            .open === false,
      );
      await reveal(p, { seq: 's-2', reveal: { target: 'watch' } });
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): { open: boolean } } }).document.querySelector('#section-watch')
            .open === true,
      );
      await p.page.waitForSelector('#btn-watch-start');
      await p.page.waitForFunction(() => {
        const d = (
          globalThis as unknown as { document: { activeElement: { parentElement: { id: string } | null; tagName: string } | null } }
        ).document;
        return d.activeElement?.tagName === 'SUMMARY' && d.activeElement.parentElement?.id === 'section-watch';
      });
      const box = await p.page.locator('#section-watch').boundingBox();
      assert.ok(box && box.y >= -1 && box.y < 900, `the Watch section is in view (top at ${box?.y})`);
    }));

  it('a saved experiment: the panel asks for it and shows its results, its picker focused; its history row marked', () => {
    const e = b.experiment('exp-9', [1, 2], { title: 'an earlier sweep' });
    return withPanel(b.connectedState({ history: [b.summaryOf(b.experiment('exp-8', [1])), b.summaryOf(e)] }), async (p) => {
      await p.page.waitForSelector('#history li[data-experiment="exp-9"]', { state: 'attached' });
      await reveal(p, { seq: 's-3', reveal: { target: 'experiment', id: 'exp-9' } });
      const asked = await waitForRequest(p, 'experimentOpen');
      assert.deepEqual(asked.params, { id: 'exp-9' });
      await answer(p, asked, { experiment: e, preset: null });
      await p.page.waitForSelector('#view-results:not([hidden]) #results-experiment');
      await p.page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ===
          'results-experiment',
      );
      assert.equal(await p.page.$eval('#results-experiment', (el) => (el as unknown as { value: string }).value), 'exp-9');
      await p.page.waitForSelector(
        '#history li[data-experiment="exp-9"][aria-current="true"] [data-analysis="exp-9"][aria-pressed="true"]',
        { state: 'attached' },
      );
      assert.equal(await p.page.getAttribute('#history li[data-experiment="exp-8"]', 'aria-current'), 'false');
    });
  });
});
