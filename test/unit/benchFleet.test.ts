// The fleet bench's figures (bench/fleetReport.ts): the names the acceptance reads from bench/results.json,
// their goals, and the cost of one more watched server.
import assert from 'node:assert/strict';
import type { FleetRow } from '../../bench/fleet';
import { addFleetFigures, cpuMsPerTick, fleetSection, perServer } from '../../bench/fleetReport';
import type { Figures } from '../../bench/figures';

const row = (servers: number, cpuPctOfCore: number, rssMaxMb: number, build = 'this build'): FleetRow => ({
  build,
  servers,
  seconds: 60,
  cpuPctOfCore,
  simCpuPctOfCore: 10,
  rttP50Ms: 5,
  rttP99Ms: 9,
  rssMaxMb,
  rssEndMb: rssMaxMb - 1,
  ticks: servers * 60,
  worstJitterP99Ms: 3,
  worstJitterMaxMs: 4,
  worstServer: 'sim01',
  allJitterP99Ms: 2,
  skippedTicks: 0,
  worstSkipped: 0,
  loopDelayP99Ms: 1,
  loopDelayMaxMs: 2,
  troubleLines: 0,
  trouble: [],
});

describe('bench: the fleet figures', () => {
  it('names the 50-server CPU and RSS with their goals, and the cost per server from the smallest and largest fleet', () => {
    const rows = [row(1, 1, 100), row(10, 4, 118), row(50, 20.6, 198), row(50, 99, 999, 'other build')];
    const f: Figures = {};
    addFleetFigures(f, rows);
    assert.deepEqual(f.fleet_50_servers_cpu_pct_of_core.goal, { op: '<=', target: 25 });
    assert.equal(f.fleet_50_servers_cpu_pct_of_core.value, 20.6);
    assert.equal(f.fleet_50_servers_cpu_pct_of_core.met, true);
    assert.deepEqual(f.fleet_50_servers_rss_mb.goal, { op: '<=', target: 300 });
    assert.equal(f.fleet_50_servers_rss_mb.value, 198);
    assert.equal(f.fleet_50_servers_ticks_skipped.met, true);
    assert.equal(f.fleet_50_servers_tick_delay_p99_ms.value, 3);
    assert.equal(f.fleet_1_servers_cpu_pct_of_core.goal, undefined);
    assert.deepEqual(perServer(rows), { cpuPct: (20.6 - 1) / 49, rssMb: (198 - 100) / 49 });
    // 20.6% of a core over 60 s is 12,360 ms, over 3,000 ticks.
    assert.equal(cpuMsPerTick(rows[2]), 4.12);
    assert.match(fleetSection(rows).join('\n'), /\| 50 \| this build \| 60 s \| 20\.6% \|/);
  });
});
