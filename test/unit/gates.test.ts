// CI gates (--assert): the parser takes what a pipeline author writes and nothing else; the evaluator judges every
// completed run, names the run and value, and fails a gate it cannot judge. Fuzzed: any string either parses or throws
// GateError naming the gate.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateGates, GateError, parseGate } from '../../src/shared/gates';
import { runRecord } from '../helpers/builders';

describe('gates: parse', () => {
  it('reads latency with its unit into microseconds', () => {
    assert.deepEqual(parseGate('p99<5ms'), { text: 'p99<5ms', metric: { kind: 'latency', stat: 'p99' }, op: '<', value: 5000 });
    assert.equal(parseGate('p50 <= 250us').value, 250);
    assert.equal(parseGate('max<1.5s').value, 1_500_000);
    assert.equal(parseGate('p99<1us').value, 1);
  });
  it('reads rates with k/M suffixes, and NAME.per-row metrics with the name upper-cased', () => {
    assert.deepEqual(parseGate('rows_per_sec>20000').metric, { kind: 'rate', stat: 'rows_per_sec' });
    assert.equal(parseGate('rows_per_sec>20k').value, 20000);
    assert.deepEqual(parseGate('LOGCACHE_ACCESS.spins_per_row<50').metric, {
      kind: 'per-row',
      name: 'LOGCACHE_ACCESS',
      stat: 'spins_per_row',
    });
    assert.deepEqual(parseGate('writelog.wait_ms_per_row<=0.2').metric, { kind: 'per-row', name: 'WRITELOG', stat: 'wait_ms_per_row' });
    assert.equal(parseGate('errors==0').op, '=');
  });
  it('refuses a latency without a unit, an unknown metric and junk, naming the gate', () => {
    assert.throws(
      () => parseGate('p99<5'),
      (e: Error) => e instanceof GateError && /p99<5/.test(e.message) && /unit/.test(e.message),
    );
    assert.throws(
      () => parseGate('p98<5ms'),
      (e: Error) => e instanceof GateError && /unknown metric 'p98'/.test(e.message),
    );
    assert.throws(() => parseGate('rows_per_sec>>5'), GateError);
    assert.throws(() => parseGate('FOO.spins<5'), GateError);
    assert.throws(() => parseGate(''), GateError);
  });
  it('fuzz: any string parses or throws GateError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        try {
          const g = parseGate(s);
          assert.ok(Number.isFinite(g.value));
        } catch (e) {
          assert.ok(e instanceof GateError, `not a GateError: ${(e as Error).name} ${(e as Error).message}`);
          assert.ok((e as Error).message.includes(`"${s}"`));
        }
      }),
      { seed: 0x6a7e, numRuns: 500 },
    );
  });
  it('fuzz: well-formed gates round-trip their metric, operator and value', () => {
    const metric = fc.constantFrom('p50', 'p99', 'max', 'rows_per_sec', 'calls_per_sec', 'errors', 'LOCK_HASH.spins_per_row');
    fc.assert(
      fc.property(metric, fc.constantFrom('<', '<=', '>', '>=', '=', '!='), fc.integer({ min: 0, max: 1e6 }), (m, op, n) => {
        const unit = m.startsWith('p') || m === 'max' ? 'us' : '';
        const g = parseGate(`${m}${op}${n}${unit}`);
        assert.equal(g.op, op);
        assert.equal(g.value, n);
      }),
      { seed: 0x6a7f, numRuns: 300 },
    );
  });
});

describe('gates: evaluate', () => {
  const run = (p99Us: number) => {
    const r = runRecord(0, 4, { latency: true });
    r.latency = { ...r.latency!, p99Us };
    r.derived = { ...r.derived, rowsPerSec: 30000, spinsPerRow: { LOGCACHE_ACCESS: 60 } };
    return r;
  };
  const twice = (p99Us: number) => [run(p99Us), { ...run(p99Us), index: 1, repetition: 2 }];
  it('passes and fails on the repetitions, naming the cell and the value', () => {
    const res = evaluateGates(
      [parseGate('p99<5ms'), parseGate('rows_per_sec>20000'), parseGate('LOGCACHE_ACCESS.spins_per_row<50')],
      twice(4000),
    );
    assert.deepEqual(
      res.map((r) => r.outcome),
      ['pass', 'pass', 'fail'],
    );
    assert.equal(res[2].run, '4 threads');
    assert.equal(res[2].actual, '60 [60, 60]');
    assert.equal(evaluateGates([parseGate('p99<5ms')], twice(6000))[0].actual, '6ms [6ms, 6ms]');
  });
  it('never decides a figure on one run: inconclusive, saying a gate needs two repetitions and --repeat auto', () => {
    const res = evaluateGates(
      [parseGate('p99<5ms'), parseGate('rows_per_sec>20000'), parseGate('LOGCACHE_ACCESS.spins_per_row<50')],
      [run(4000)],
    );
    assert.deepEqual(
      res.map((r) => r.outcome),
      ['inconclusive', 'inconclusive', 'inconclusive'],
    );
    assert.equal(res[2].actual, '60');
    assert.equal(res[2].note, '1 run: no interval');
    assert.match(
      res[1].settle!,
      /^one run has no interval, so a gate needs 2 repetitions or more: use --repeat auto .*; at 5 to 15% run-to-run noise, about \d+( to \d+)? in all$/,
    );
  });
  it('fails a latency gate on a run without latency, and any gate when no run completed', () => {
    const r = run(1);
    r.latency = null;
    const [g] = evaluateGates([parseGate('p99<5ms')], [r]);
    assert.equal(g.ok, false);
    assert.match(g.actual, /no per-call latency/);
    const failed = { ...run(1), status: 'failed' as const };
    assert.equal(evaluateGates([parseGate('p99<5ms')], [failed])[0].ok, false);
  });
  it('treats a spinlock that did not move as zero per row', () => {
    assert.equal(evaluateGates([parseGate('XDESMGR.spins_per_row<1')], twice(1))[0].ok, true);
  });
});
