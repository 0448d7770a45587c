// The waits of a run's own sessions beside the server-wide waits they are part of: both over the same span and per
// second of it, so the own figure is never the larger by construction; where it still reads larger (whole-millisecond
// rounding, the own figures read on a connection of their own around the measured phase), the table says so.
import assert from 'node:assert/strict';
import type { RunRecord, WaitDelta } from '../../src/shared/experiment';
import { sessionWaitsSection } from '../../src/engine/custom/report';
import { foldTicks } from '../../src/engine/totals';
import * as b from '../helpers/builders';

/** Each wait type's "own / server-wide" cells of the section's table, as numbers. */
function cells(text: string): { type: string; own: number; server: number; marked: boolean }[] {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^threads\s/.test(l));
  const types = lines[head]
    .trim()
    .split(/\s{2,}/)
    .slice(1);
  const out = [];
  for (const line of lines.slice(head + 2)) {
    if (!/^\d/.test(line)) break;
    const parts = line
      .trim()
      .split(/\s{2,}/)
      .slice(1);
    for (const [i, c] of parts.entries()) {
      const m = /^([\d,.]+)(\*?) \/ ([\d,.]+)$/.exec(c);
      assert.ok(m, `a cell "${c}" in ${line}`);
      out.push({ type: types[i], own: Number(m[1].replace(/,/g, '')), server: Number(m[3].replace(/,/g, '')), marked: m[2] === '*' });
    }
  }
  return out;
}

const scaled = (waits: Record<string, WaitDelta>, k: number): Record<string, WaitDelta> =>
  Object.fromEntries(
    Object.entries(waits).map(([t, w]) => [t, { waitMs: Math.floor(w.waitMs * k), count: Math.floor(w.count * k), signalMs: 0 }]),
  );

describe("a run's own waits beside the server-wide waits", () => {
  it('a run that settled after two ticks: own and server-wide over the same span, the own never the larger', () => {
    const run = b.runRecord(0, 4, { ticks: 10 });
    // The own waits are read around the whole measured phase; the figures are over the steady window after 2 ticks.
    const all = foldTicks(run.timeline);
    const totals = foldTicks(run.timeline.slice(2));
    const settled: RunRecord = {
      ...run,
      totals,
      elapsedMs: totals.elapsedMs,
      steady: { rule: 'mser', warmupMs: 0, fromTick: 2, droppedTicks: 2, droppedMs: 2000, droppedRows: 0, p: 0.001, capped: false },
      sessionWaits: scaled(all.waits, 0.95),
    };
    const text = sessionWaitsSection([settled]);
    const c = cells(text);
    assert.ok(c.length >= 3, text);
    for (const x of c) assert.ok(x.own <= x.server, `${x.type}: own ${x.own} over server-wide ${x.server}\n${text}`);
    assert.doesNotMatch(text, /\*/);
  });

  it('an own figure above the server-wide one is marked and said why, not printed as if both were right', () => {
    const run = b.runRecord(0, 2, { ticks: 3 });
    const server = run.totals.waits.SOS_SCHEDULER_YIELD;
    const own = { ...scaled(run.totals.waits, 0.9), SOS_SCHEDULER_YIELD: { ...server, waitMs: server.waitMs + 1 } };
    const text = sessionWaitsSection([{ ...run, sessionWaits: own }]);
    const yieldCell = cells(text).find((x) => x.type === 'SOS_SCHEDULER_YIELD');
    assert.ok(yieldCell?.marked, text);
    assert.match(text, /\* own above server-wide: .*whole milliseconds/);
    assert.ok(
      cells(text)
        .filter((x) => x.type !== 'SOS_SCHEDULER_YIELD')
        .every((x) => !x.marked),
      text,
    );
  });
});
