// The Custom workload form in the panel's webview (Chromium, real CSP): a fill from "Load Test This Query" shows the
// T-SQL in a monospace editor, fields are validated as typed (Run waits until they are right), and Run posts
// customRun with the form as the user left it.
import assert from 'node:assert/strict';
import * as b from '../helpers/builders';
import { fill, useBrowser, waitForPosted, showView } from './harness';

const SPINS = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';

describe('the Custom workload form in Chromium', () => {
  const ui = useBrowser();

  it('filled from a .sql file, validated as typed, and Run posts customRun', async () => {
    const p = await ui.open();
    try {
      const base = b.connectedState();
      const state = {
        ...base,
        selection: { ...base.selection, scenarioId: 'custom' },
        customFill: { sql: SPINS, source: 'spins.sql', seq: 1 },
      };
      await p.send({ type: 'state', payload: { state } });
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#custom-workload');
      assert.equal(await p.page.inputValue('#custom-sql'), SPINS);
      assert.match((await p.page.textContent('#custom-source')) ?? '', /Filled in from spins\.sql/);
      type Styled = { getComputedStyle(e: unknown): { fontFamily: string } };
      const font = (sel: string) => p.page.$eval(sel, (e) => (globalThis as unknown as Styled).getComputedStyle(e).fontFamily);
      assert.notEqual(await font('#custom-sql'), await font('body'), 'the T-SQL editor has the editor font, not the body font');
      assert.match(await font('#custom-sql'), /mono/i);
      assert.equal(await p.page.locator('#custom-database input').inputValue(), 'master');
      assert.equal(await p.page.locator('#btn-deploy').count(), 0, 'nothing to deploy for a custom workload');

      await fill(p.page, '#custom-iterations', '0');
      await p.page.waitForSelector('#custom-iterations-error');
      assert.match((await p.page.textContent('#custom-iterations-error')) ?? '', /whole number of 1 or more/);
      assert.equal(await p.page.getAttribute('#btn-run-custom', 'disabled'), '', 'Run waits for valid fields');

      await fill(p.page, '#custom-iterations', '25');
      await fill(p.page, '#custom-threads', '4');
      await p.page.fill('#custom-sql', 'SELECT 1');
      await p.page.waitForSelector('#btn-run-custom:not([disabled])');
      await p.page.click('#btn-run-custom');
      const m = await waitForPosted(p, 'customRun');
      assert.equal(m.payload.form.sql, 'SELECT 1');
      assert.equal(m.payload.form.iterations, '25');
      assert.equal(m.payload.form.threads, '4');
      assert.equal(m.payload.form.database, 'master');
      assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
      assert.deepEqual(p.errors, [], 'no console error');
    } finally {
      await p.close();
    }
  });

  it('row order, row scope and stop-on-error: shown with a parameter source, set with the keyboard, and sent with Run', async () => {
    const p = await ui.open();
    try {
      const base = b.connectedState();
      const state = {
        ...base,
        selection: { ...base.selection, scenarioId: 'custom' },
        customFill: { sql: 'SELECT name FROM sys.dm_os_spinlock_stats WHERE spins > @id', source: 'q.sql', seq: 1 },
      };
      await p.send({ type: 'state', payload: { state } });
      await showView(p.page, 'experiment');
      await p.page.waitForSelector('#custom-workload');
      assert.equal(await p.page.locator('#custom-paramsOrder').count(), 0, 'no row order without a parameter source');
      assert.equal(
        await p.page.textContent('label[for="knob-dd"]'),
        'Delayed durability ([master])',
        "the knob names the workload's database",
      );
      // Pick a CSV source with the keyboard: the select opens on Enter, moves with the arrows, picks on Enter.
      // A closed native select steps its value with the arrow keys (Chromium on Linux and Windows).
      const pick = async (sel: string, downs: number) => {
        await p.page.focus(sel);
        for (let i = 0; i < downs; i++) await p.page.keyboard.press('ArrowDown');
      };
      await pick('#custom-paramsSource', 1);
      await p.page.waitForSelector('#custom-paramsOrder');
      await fill(p.page, '#custom-paramsCsv', 'ids.csv');
      assert.equal(await p.page.$eval('#custom-paramsOrder', (e) => (e as unknown as { value: string }).value), 'round-robin');
      assert.equal(await p.page.$eval('#custom-paramsScope', (e) => (e as unknown as { value: string }).value), 'session');
      await pick('#custom-paramsOrder', 1);
      await pick('#custom-paramsScope', 1);
      await p.page.focus('#custom-stopOnError');
      await p.page.keyboard.press('Space');
      await p.page.waitForSelector('#btn-run-custom:not([disabled])');
      await p.page.focus('#btn-run-custom');
      await p.page.keyboard.press('Enter');
      const m = await waitForPosted(p, 'customRun');
      assert.equal(m.payload.form.paramsSource, 'csv');
      assert.equal(m.payload.form.paramsCsv, 'ids.csv');
      assert.equal(m.payload.form.paramsOrder, 'random');
      assert.equal(m.payload.form.paramsScope, 'shared');
      assert.equal(m.payload.form.stopOnError, true);
      assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
      assert.deepEqual(p.errors, [], 'no console error');
    } finally {
      await p.close();
    }
  });
});
