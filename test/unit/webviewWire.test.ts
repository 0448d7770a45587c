// The state message over VS Code's real webview path (test/helpers/vscodeWebviewWire.ts): a full snapshot, the one a
// webview gets after it was hidden and recreated, must arrive whole however many runs and tick columns it holds.
// Before: one ArrayBuffer per typed array, so a preset's few runs of ~80 columns each overflowed the one-byte argument
// count of VS Code's RPC, the buffers past it were dropped, and the webview refused the state ("column 66's values
// are not 4 numbers in a typed array") and stayed blank.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import { checkStateTicks, fullStatePayload, type StatePayload } from '../../src/shared/stateSnapshot';
import { decodeTicks } from '../../src/shared/tickColumns';
import * as b from '../helpers/builders';
import { throughVsCode } from '../helpers/vscodeWebviewWire';

/** After a preset: `runs` runs (arms x repetitions) of `n` ticks each, every run with its own columns. */
function presetState(runs: number, n: number): PanelState {
  const active: ActiveExperimentView = {
    experimentId: 'exp-preset',
    title: 'writelog preset',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'completed',
    message: '',
    events: [],
    runs: Array.from({ length: runs }, (_, i) => ({
      index: i,
      threads: 2,
      status: 'completed' as const,
      ticks: b.ticks(n, { threads: 2, seed: i + 1, intervalMs: 1000 }),
    })),
  };
  return b.connectedState({ active });
}

describe("the state message over VS Code's webview path", () => {
  for (const [runs, n] of [
    [1, 4],
    [4, 4],
    [6, 4],
    [12, 40],
  ] as const) {
    it(`a full snapshot of ${runs} run(s) of ${n} ticks arrives whole and is accepted`, () => {
      const state = presetState(runs, n);
      const sent = fullStatePayload(state);
      const { data, buffers } = throughVsCode({ type: 'state', payload: sent });
      const got = (data as { payload: StatePayload }).payload;
      const ticks = checkStateTicks(got.ticks);
      assert.equal(ticks.length, runs);
      for (const r of ticks) assert.deepEqual(decodeTicks(r.columns), state.active!.runs[r.index].ticks, `run ${r.index}'s ticks`);
      assert.ok(buffers <= 1, `one buffer for the whole message, not ${buffers}`);
    });
  }

  it('the plainer forms the webview may ask for (stateResend): ticks as objects, or none with the totals kept', () => {
    const state = presetState(2, 4);
    const plain = fullStatePayload(state, 'plain');
    assert.equal(plain.ticks, undefined);
    assert.deepEqual(plain.state.active!.runs[1].ticks, state.active!.runs[1].ticks);
    const none = fullStatePayload(state, 'none');
    assert.equal(none.ticks, undefined);
    assert.deepEqual(none.state.active!.runs[1].ticks, []);
    assert.ok(none.state.active!.runs[1].totals, 'each run keeps its totals');
  });
});
