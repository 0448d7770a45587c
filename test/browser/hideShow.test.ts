// The panel hidden and shown again with 8 hours of ticks loaded (250 ms ticks: 115,200), in every theme: VS Code
// recreates a hidden webview (no retainContextWhenHidden), which posts `ready` on load and again on visibilitychange,
// and the host answers each with a full snapshot whose ticks travel as columns. Each snapshot goes first through a
// re-implementation of VS Code's message path (test/helpers/vscodeWebviewWire.ts, where the panel went blank before).
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState, ToWebviewMessage } from '../../src/shared/protocol';
import { fullStatePayload } from '../../src/shared/stateSnapshot';
import * as b from '../helpers/builders';
import { throughVsCode } from '../helpers/vscodeWebviewWire';
import { useBrowser, waitForPoints, type Panel, type Theme } from './harness';
import { assertNotBlank, settle } from './panelShown';

const EIGHT_HOURS = (8 * 3600 * 1000) / 250;

/** What just ended, as the active experiment: its runs share the 8 hours. */
function after(what: 'preset' | 'rerun'): PanelState {
  const arms =
    what === 'preset'
      ? [
          { id: 'A', label: 'A: delayed durability off' },
          { id: 'B', label: 'B: FORCED' },
        ]
      : [null];
  const per = EIGHT_HOURS / arms.length;
  const active: ActiveExperimentView = {
    experimentId: what === 'preset' ? 'exp-preset' : 'exp-rerun',
    title: what === 'preset' ? 'writelog preset' : 'disk-insert (re-run)',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'completed',
    message: '',
    events: [],
    runs: arms.map((arm, i) => ({
      index: i,
      threads: 2,
      status: 'completed' as const,
      ticks: b.ticks(per, { threads: 2, intervalMs: 250, seed: i + 1 }),
      ...(arm ? { arm } : {}),
    })),
  };
  return b.connectedState({ active });
}

/** The host's answer to `ready`, as the webview receives it through VS Code. */
function snapshot(state: PanelState): ToWebviewMessage {
  const { data, buffers } = throughVsCode({ type: 'state', payload: fullStatePayload(state) });
  assert.equal(buffers, 1, 'one buffer for every tick column');
  return data as ToWebviewMessage;
}

const readies = async (p: Panel) => (await p.posted()).filter((m) => m.type === 'ready').length;

describe('the panel hidden and shown again with 8 hours of ticks', function () {
  this.timeout(300_000);
  const ui = useBrowser();
  const states = { preset: after('preset'), rerun: after('rerun') };
  const messages = { preset: snapshot(states.preset), rerun: snapshot(states.rerun) };

  // Every theme after a preset; the re-run (a new experiment over the old) in one, to keep the tier near two minutes.
  for (const [theme, what] of [
    ['light', 'preset'],
    ['dark', 'preset'],
    ['hc', 'preset'],
    ['dark', 'rerun'],
  ] as [Theme, 'preset' | 'rerun'][])
    it(`${theme}: after a ${what}, a reload and a visibilitychange each draw the server and every tick`, async () => {
      const p = await ui.open(theme);
      try {
        const ticks = states[what].active!.runs[0].ticks.length;
        await p.send(messages[what]);
        await assertNotBlank(p, 'before hiding');
        // Hidden and shown: VS Code loads the webview again; it posts `ready` and the host answers.
        await p.page.reload();
        await p.page.waitForFunction(() => (globalThis as unknown as { __posted: unknown[] }).__posted.length > 0);
        assert.equal(await readies(p), 1, 'the reloaded panel asked for the state');
        await p.send(messages[what]);
        await assertNotBlank(p, 'after the reload');
        await p.page.locator('#section-charts').scrollIntoViewIfNeeded();
        await waitForPoints(p.page, 'throughput', ticks, 60_000);
        // The visibilitychange path: a second `ready`, so two full snapshots arrive one after the other.
        await p.page.evaluate(() =>
          (globalThis as unknown as { document: { dispatchEvent(e: unknown): void } }).document.dispatchEvent(
            new Event('visibilitychange'),
          ),
        );
        await settle(p);
        assert.equal(await readies(p), 2, 'shown again: ready once more');
        await p.send(messages[what]);
        await p.send(messages[what]);
        await assertNotBlank(p, 'after visibilitychange');
        await waitForPoints(p.page, 'throughput', ticks, 60_000);
        assert.equal(await p.page.locator('#state-notice').count(), 0, 'no state was refused');
        assert.equal((await p.posted()).filter((m) => m.type === 'stateResend').length, 0, 'nothing asked again');
        assert.deepEqual(await p.violations(), [], 'no Content-Security-Policy violation');
        assert.deepEqual(p.errors, [], 'no console error');
      } finally {
        await p.close();
      }
    });
});
