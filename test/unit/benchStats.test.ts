// The benchmark's pure figures: medians and percentiles, tick jitter against a fixed schedule, ratios and formatting,
// the 10% target and the results file.
import assert from 'node:assert/strict';
import { fmt, markdownTable, median, percentile, ratioText, tickJitter } from '../../bench/stats';
import { driverVerdict, renderResults, type BenchResults } from '../../bench/report';
import type { ClientFigures } from '../../bench/driver';

it('median and nearest-rank percentile', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
  const xs = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(xs, 50), 50);
  assert.equal(percentile(xs, 99), 99);
  assert.equal(percentile(xs, 100), 100);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});

it('tick jitter: deviations from the slot each tick started in', () => {
  const j = tickJitter([1000.4, 2001.0, 3000.2, 4003.0], 1000, 1000);
  assert.equal(j.ticks, 4);
  assert.ok(Math.abs(j.p50Ms - 0.7) < 1e-9, String(j.p50Ms));
  assert.ok(Math.abs(j.maxMs - 3) < 1e-9);
  assert.equal(j.p99Ms, 3);
  assert.equal(j.skipped, 0);
});

it('tick jitter: a start just before its slot counts as early, not as a whole interval late', () => {
  const j = tickJitter([999.8, 2000.1], 1000, 1000);
  assert.ok(Math.abs(j.maxMs - 0.2) < 1e-9, String(j.maxMs));
  assert.equal(j.skipped, 0);
  // A timer on a whole-millisecond clock can fire most of a millisecond early.
  const k = tickJitter([250.3, 499.1, 750.0], 250, 250);
  assert.ok(Math.abs(k.maxMs - 0.9) < 1e-9, String(k.maxMs));
  assert.equal(k.skipped, 0);
});

it('tick jitter: slots with no tick (an overrun) are counted as skipped', () => {
  // Slots at 0, 250, 500, 750, 1000: the tick for 250 ran long, so 500 was skipped.
  const j = tickJitter([0.5, 250.5, 750.2, 1000.1], 0, 250);
  assert.equal(j.skipped, 1);
  assert.equal(j.ticks, 4);
});

it('ratios say which way the gap goes', () => {
  assert.equal(ratioText(95, 100), '0.95 (5% worse)');
  assert.equal(ratioText(120, 100), '1.20 (20% better)');
  assert.equal(ratioText(120, 100, false), '1.20 (20% worse)');
  assert.equal(ratioText(100, 100), '1.00 (level)');
  assert.equal(ratioText(1, 0), 'n/a');
});

it('figures get digits by size', () => {
  assert.equal(fmt(12345.6), '12,346');
  assert.equal(fmt(42.17), '42.2');
  assert.equal(fmt(3.14159, 'ms'), '3.14 ms');
  assert.equal(fmt(0.1234), '0.123');
  assert.equal(fmt(NaN), 'n/a');
  assert.equal(markdownTable(['a', 'b'], [['1', '2']]), '| a | b |\n| --- | --- |\n| 1 | 2 |');
});

const client = (kind: ClientFigures['kind'], callsPerSec: number, clientUsPerCall: number): ClientFigures => ({
  kind,
  callsPerSec,
  clientUsPerCall,
  serverUsPerCall: 50,
  rounds: [],
});

it('the 10% target needs both throughput and CPU per call within 10% of bare tedious', () => {
  assert.equal(driverVerdict(client('ours', 950, 105), client('tedious', 1000, 100)).met, true);
  assert.equal(driverVerdict(client('ours', 850, 100), client('tedious', 1000, 100)).met, false);
  const slowCpu = driverVerdict(client('ours', 1000, 125), client('tedious', 1000, 100));
  assert.equal(slowCpu.met, false);
  assert.match(slowCpu.text, /NOT met: ours makes 100% .* and 80% of its calls per client CPU-second/);
});

it('results name the machine, the simulator caveat, the ratios, and end with a README section', () => {
  const r: BenchResults = {
    machine: { date: '2025-01-01 00:00 UTC', cpu: 'Test CPU', cores: 2, memoryGiB: 24, node: 'v20.0.0', os: 'Linux', loadAverage: 0.5 },
    quick: false,
    seconds: 300,
    failures: [],
    driver: {
      sessions: 16,
      seconds: 10,
      rounds: 3,
      procedure: 'dbo.p',
      nativeMissing: null,
      clients: [client('ours', 4000, 200), client('tedious', 4200, 190), client('native', 20000, 30)],
    },
    sampler: [
      {
        way: 'full',
        intervalMs: 1000,
        sessions: 64,
        ticks: 60,
        bytesSent: 8000,
        bytesReceived: 7000,
        rttP50Ms: 40,
        rttP99Ms: 60,
        jitter: { ticks: 60, p50Ms: 0.5, p99Ms: 1.2, maxMs: 1.5, skipped: 0 },
        problems: [],
      },
    ],
    panel: {
      loadedTicks: 3600,
      loadMs: 400,
      loadFrameMs: 410,
      loadSamples: [390, 400, 420],
      tickSamples: [10, 12],
      tickP50Ms: 11,
      tickP95Ms: 12,
      tickFrameP50Ms: 20,
      tickFrameP95Ms: 25,
      eightHours: null,
    },
    activation: { codeLoadingMs: 1.5, activateMs: 0.5, totalMs: 2, firstUseMs: 120, chunks: 'extension.js', runs: 10 },
    vsix: { bytes: 880_000, files: 39, built: false },
  };
  const md = renderResults(r);
  assert.match(md, /Test CPU, 2 CPUs/);
  assert.match(md, /they compare clients, they are not SQL Server numbers/);
  assert.match(md, /ours \/ bare tedious: calls\/s 0\.95 \(5% worse\)/);
  assert.match(md, /target \(ours within 10% of bare tedious\): met/);
  assert.match(md, /native \/ ours: calls\/s 5\.00 \(400% better\)/);
  assert.match(md, /\| 1000 ms \| 60 \| 8,000 \| 7,000 \|/);
  assert.ok(md.trimEnd().endsWith('```'));
  assert.ok(md.indexOf('## For the README') > md.indexOf('## Panel'));
});

it('a native client that could not be built is said, not given a number', () => {
  const r: BenchResults = {
    machine: { date: 'd', cpu: 'c', cores: 2, memoryGiB: 1, node: 'v20', os: 'o', loadAverage: 0 },
    quick: true,
    seconds: 1,
    failures: [],
    driver: {
      sessions: 4,
      seconds: 1,
      rounds: 1,
      procedure: 'dbo.p',
      nativeMissing: 'freetds-dev missing',
      clients: [client('ours', 1, 1), client('tedious', 1, 1)],
    },
    sampler: null,
    panel: null,
    activation: null,
    vsix: null,
  };
  const md = renderResults(r);
  assert.match(md, /native client: not measured: freetds-dev missing/);
  assert.match(md, /FreeTDS db-lib in C \| not measured/);
  assert.match(md, /QUICK RUN/);
});
