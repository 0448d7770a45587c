// A watch's x axis on the clock: ticks at round times of day, whatever second the watch started on.
import assert from 'node:assert/strict';
import { clockLabel, clockTicks } from '../../../src/webview/views/chartPlugins';

describe('clock ticks of a watch chart', () => {
  const start = Date.parse('2026-11-24T10:00:07.400Z');

  it('fall on round seconds of the clock, at most the ticks asked for', () => {
    const t = clockTicks(0, 120, start, 7);
    assert.deepEqual(
      t.map((v) => new Date(start + v * 1000).toISOString().slice(11, 19)),
      ['10:00:30', '10:01:00', '10:01:30', '10:02:00'],
    );
    assert.ok(
      clockTicks(0, 19, start, 7).every((v) => ((start / 1000 + v) / 5) % 1 < 1e-9),
      '5 s steps over 19 s',
    );
  });

  it('a step of minutes lands on the local quarter hour (the offset of the time zone)', () => {
    const t = clockTicks(0, 3600, start, 7, -30 * 60_000); // UTC+0:30
    assert.ok(t.length <= 7 && t.length >= 3);
    for (const v of t) assert.equal(((start + 30 * 60_000) / 1000 + v) % 600, 0);
  });

  it('labels the local time of day', () => {
    const d = new Date(start + 5000);
    assert.equal(clockLabel(5, start), [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':'));
  });
});
