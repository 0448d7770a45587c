// A fuzz of state messages (stateIntake.ts): whatever arrives (truncated, reordered, every typed-array width, NaN,
// -0, wrong lengths, missing fields, garbage; a detached buffer cannot be posted at all: DataCloneError), the panel that showed a connected server still shows
// it and its sections, never "not connected" and "Loading...". A message it refuses puts up a notice and asks the host
// for a fresh copy (`stateResend`), at most three times; a message it can read is drawn.
import assert from 'node:assert/strict';
import type { ActiveExperimentView, PanelState } from '../../src/shared/protocol';
import { fullStatePayload, type StatePayload } from '../../src/shared/stateSnapshot';
import type { TickColumn } from '../../src/shared/tickColumns';
import * as b from '../helpers/builders';
import { usePanels, type Panel } from './harness';
import { assertNotBlank, settle } from './panelShown';

const TICKS = 60;

export function sweepState(runs = 3, ticks = TICKS): PanelState {
  const active: ActiveExperimentView = {
    experimentId: 'exp-fuzz',
    title: 'disk-insert sweep',
    scenarioId: 'disk-insert',
    simulated: true,
    status: 'completed',
    message: '',
    events: [],
    runs: Array.from({ length: runs }, (_, i) => ({
      index: i,
      threads: 2 ** (i + 1),
      status: 'completed' as const,
      ticks: b.ticks(ticks, { threads: 2 ** (i + 1), seed: i + 1 }),
    })),
  };
  return b.connectedState({ active });
}

type Case = { name: string; payload: () => unknown; refused: boolean };

const cols = (p: StatePayload, run = 0): TickColumn[] => p.ticks![run].columns.columns;
const good = () => fullStatePayload(sweepState());
function withColumn(change: (c: TickColumn, p: StatePayload) => void, j = 5): () => StatePayload {
  return () => {
    const p = good();
    change(cols(p)[j], p);
    return p;
  };
}
const setValues = (values: unknown) => withColumn((c) => ((c as { values: unknown }).values = values));

function cases(): Case[] {
  const r = b.rng(46);
  const out: Case[] = [
    // Readable: each is drawn.
    { name: 'the columns reordered', payload: () => ((p) => (cols(p).reverse(), p))(good()), refused: false },
    {
      name: "the state's keys reordered",
      payload: () => ((p) => ({ ...p, state: Object.fromEntries(Object.entries(p.state).reverse()) }))(good()),
      refused: false,
    },
    { name: 'a run of ticks left out', payload: () => ((p) => ({ ...p, ticks: p.ticks!.slice(1) }))(good()), refused: false },
    { name: 'NaN in a float64 column', payload: setValues(new Float64Array(TICKS).fill(NaN)), refused: false },
    { name: '-0 in a float32 column', payload: setValues(new Float32Array(TICKS).fill(-0)), refused: false },
    ...(['Uint8Array', 'Uint16Array', 'Uint32Array', 'Float32Array', 'Float64Array'] as const).map((w) => ({
      name: `a column as ${w}`,
      payload: setValues(new globalThis[w](TICKS).fill(7)),
      refused: false,
    })),
    // Unreadable: each is refused.
    ...(['Int8Array', 'Uint8ClampedArray', 'Int16Array', 'Int32Array'] as const).map((w) => ({
      name: `a column as ${w}`,
      payload: setValues(new globalThis[w](TICKS).fill(1)),
      refused: true,
    })),
    { name: 'a column as BigInt64Array', payload: setValues(new BigInt64Array(TICKS)), refused: true },
    { name: 'a column truncated by one tick', payload: withColumn((c) => (c.values = c.values.subarray(1))), refused: true },
    { name: 'a column empty (its buffer lost on the way)', payload: setValues(new Float64Array(0)), refused: true },
    { name: 'a column as a plain list', payload: setValues(Array.from({ length: TICKS }, () => 1)), refused: true },
    {
      name: 'the tick count one more than the columns hold',
      payload: () => ((p) => (p.ticks![0].columns.length++, p))(good()),
      refused: true,
    },
    { name: 'a state array of the wrong length', payload: withColumn((c) => (c.state = new Uint8Array(3))), refused: true },
    { name: 'a column without its path', payload: withColumn((c) => delete (c as Partial<TickColumn>).path), refused: true },
    { name: 'a column of another kind', payload: withColumn((c) => ((c as { kind: string }).kind = 'string')), refused: true },
    { name: 'two runs with one index', payload: () => ((p) => ((p.ticks![1].index = 0), p))(good()), refused: true },
    { name: 'no state', payload: () => ({ ticks: good().ticks }), refused: true },
    { name: 'null', payload: () => null, refused: true },
    ...(['connection', 'server', 'selection', 'scenarios', 'presets', 'history', 'active', 'editor'] as const).map((k) => ({
      name: `the state without ${k}`,
      payload: () => ((p) => (delete (p.state as Partial<PanelState>)[k], p))(good()),
      refused: true,
    })),
    {
      name: 'the state cut to its first half',
      payload: () => ((p) => ({ ...p, state: Object.fromEntries(Object.entries(p.state).slice(0, 8)) }))(good()),
      refused: true,
    },
    {
      name: 'a run without its ticks list',
      payload: () => ((p) => (delete (p.state.active!.runs[0] as { ticks?: unknown }).ticks, p))(good()),
      refused: true,
    },
    {
      name: 'a server without its identity',
      payload: () => ((p) => (delete (p.state.server as Partial<NonNullable<PanelState['server']>>).identity, p))(good()),
      refused: true,
    },
  ];
  // Garbage: random values where the state, the ticks or a column's values go.
  const junk = (): unknown => {
    const k = Math.floor(r() * 6);
    return [
      () => r() * 1e9,
      () => 'x'.repeat(Math.floor(r() * 50)),
      () => [r(), 'y', null],
      () => ({ a: r() }),
      () => true,
      () => undefined,
    ][k]();
  };
  for (let i = 0; i < 12; i++) {
    const where = i % 3;
    out.push({
      name: `garbage ${i} in ${['the state', 'the ticks', "a column's values"][where]}`,
      payload: () => {
        const p = good() as unknown as Record<string, unknown>;
        let v = junk();
        if (where === 0) p.state = v;
        else if (where === 1) p.ticks = v === undefined ? 7 : v;
        else {
          while (v === undefined) v = junk();
          (cols(p as unknown as StatePayload)[3] as { values: unknown }).values = v;
        }
        return p;
      },
      refused: true,
    });
  }
  return out;
}

const resends = async (p: Panel) => (await p.posted()).filter((m) => m.type === 'stateResend').length;
const warnings = (p: Panel) => p.page.evaluate(() => (globalThis as unknown as { __warned?: number }).__warned ?? 0);

describe('state messages the panel cannot read (a fuzz)', function () {
  this.timeout(120_000);
  const panels = usePanels();

  it('never leave a connected panel blank: refused ones are noticed and asked for again, readable ones drawn', () =>
    panels.withPanel(null, async (p) => {
      // Count the panel's own "dropped a state message" warnings (one per refusal).
      await p.page.evaluate(() => {
        const g = globalThis as unknown as { __warned: number; console: { warn(...a: unknown[]): void } };
        g.__warned = 0;
        const warn = g.console.warn.bind(g.console);
        g.console.warn = (...a: unknown[]) => {
          if (String(a[0]).includes('dropped a state message')) g.__warned++;
          warn(...a);
        };
      });
      await p.send({ type: 'state', payload: good() });
      await assertNotBlank(p, 'the first state');
      let asked = 0;
      for (const c of cases()) {
        const before = await warnings(p);
        await p.send({ type: 'state', payload: c.payload() } as never);
        await assertNotBlank(p, c.name);
        await settle(p);
        const refused = (await warnings(p)) > before;
        assert.equal(refused, c.refused, `${c.name}: ${c.refused ? 'refused' : 'drawn'}`);
        if (c.refused) {
          const kind = await p.page.locator('#state-notice').getAttribute('data-kind');
          assert.ok(kind === 'refused' || kind === 'gaveUp', `${c.name}: a notice says so (${kind})`);
          assert.ok(await p.page.locator('#state-notice').isVisible(), `${c.name}: the notice is on screen`);
          asked = Math.min(asked + 1, 3);
          assert.equal(await resends(p), asked, `${c.name}: a fresh copy asked for, three times at most`);
        }
      }
      // The asks ran out: the panel says it gave up, and Try again asks once more.
      assert.equal(await p.page.locator('#state-notice').getAttribute('data-kind'), 'gaveUp');
      await p.page.locator('#btn-state-notice-retry').click();
      await settle(p);
      assert.equal(await resends(p), 4, 'Try again asks once more');
      await p.send({ type: 'state', payload: good() });
      await settle(p);
      assert.equal(await p.page.locator('#state-notice').getAttribute('data-kind'), 'recovered', 'a readable state after: recovered');
      await p.page.locator('#btn-state-notice-dismiss').click();
      assert.equal(await p.page.locator('#state-notice').count(), 0, 'Dismiss takes the notice away');
    }));

  it('a first state whose ticks cannot be read is drawn without them, with the notice', () =>
    panels.withPanel(null, async (p) => {
      await p.send({ type: 'state', payload: setValues(new Float64Array(0))() });
      await assertNotBlank(p, 'the first state, its ticks refused');
      assert.equal(await p.page.locator('#state-notice').getAttribute('data-kind'), 'refused');
      const asked = (await p.posted()).filter((m) => m.type === 'stateResend');
      assert.deepEqual(
        asked.map((m) => (m.payload as { ticks: string }).ticks),
        ['columns'],
        'asked once for a fresh copy, the same way',
      );
    }));
});
