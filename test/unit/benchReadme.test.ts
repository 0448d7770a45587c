// The README's performance block (bench/readme.ts): written between its markers from one run's figures, a table per
// dimension a user scales along, and the goals with their verdicts.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { README_BEGIN, README_END, readmeBlock, replaceReadmeBlock } from '../../bench/readme';
import type { ScaleCell } from '../../bench/scaleReport';
import { addFigure, type Figures } from '../../bench/figures';

const machine = { date: '2026-11-29 05:00 UTC', cpu: 'CPU', cores: 2, memoryGiB: 24, node: 'v20', loadAverage: 0.42 };

function cell(kind: ScaleCell['kind'], schedulers: number, sessions: number, bytes: number, cpu: number): ScaleCell {
  return {
    kind,
    topology: 'x',
    schedulers,
    sessions,
    sessionsSeen: sessions,
    requestsSeen: sessions,
    ticks: 3,
    bytesSent: 100,
    bytesReceived: bytes - 100,
    rttP50Ms: 1,
    rttP99Ms: 2,
    serverCpuMsPerTick: cpu,
  };
}

describe('bench README block', () => {
  it('has a table per dimension, each step a row, and the goals with verdicts', () => {
    const scale = [
      cell('sampler', 256, 64, 2048, 1),
      cell('sampler', 256, 2048, 7168, 15),
      cell('watch', 256, 64, 4096, 5),
      cell('watch', 256, 2048, 11264, 30),
      cell('sampler', 32, 2048, 3072, 9),
      cell('watch', 32, 2048, 9216, 20),
    ];
    const f: Figures = {};
    addFigure(f, 'watch_server_cpu_ms_per_tick_256sched_2048sess', 30, 'ms', { op: '<=', target: 20 });
    const text = readmeBlock({ machine, driver: null, scale, panel: null }, f).join('\n');
    assert.match(text, /load average 0\.42/);
    assert.match(text, /\| watch_server_cpu_ms_per_tick_256sched_2048sess \| 30 ms \| <= 20 ms \| not met \|/);
    assert.match(
      text,
      /\*\*Busy sessions\*\* \(at 256 schedulers[^\n]*\n\n[^\n]*\n[^\n]*\n\| 64 \| 2\.00 KiB \| 1\.00 ms \| 4\.00 KiB \| 5\.00 ms \|\n\| 2,048 \| 7\.00 KiB \| 15\.0 ms \| 11\.0 KiB \| 30\.0 ms \|/,
    );
    assert.match(
      text,
      /\*\*Schedulers\*\* \(at 2,048 busy sessions\)[^\n]*\n\n[^\n]*\n[^\n]*\n\| 32 \| 3\.00 KiB \| 9\.00 ms \| 9\.00 KiB \| 20\.0 ms \|\n\| 256 \|/,
    );
  });

  it('replaces only what lies between the markers, and the README has them', () => {
    const before = `# x\n\n${README_BEGIN}\nold\n${README_END}\n\nafter\n`;
    assert.equal(replaceReadmeBlock(before, ['new']), `# x\n\n${README_BEGIN}\n\nnew\n${README_END}\n\nafter\n`);
    assert.throws(() => replaceReadmeBlock('# no block', ['x']), /no .* block/);
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    assert.ok(readme.includes(README_BEGIN) && readme.indexOf(README_END) > readme.indexOf(README_BEGIN));
  });
});
