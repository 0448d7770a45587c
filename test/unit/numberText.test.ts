// Thousands separators without ICU: the same text as toLocaleString('en-US') for whole numbers.
import assert from 'node:assert/strict';
import { figureText, thousands } from '../../src/shared/numberText';
import { describeSpread, sessionSpread } from '../../src/shared/sessionSpread';

it('groups whole numbers by thousands as toLocaleString(en-US) does, rounding first', () => {
  for (const n of [0, 7, 999, 1000, 1234.5, 99_999, 100_000, 1_234_567.8, -1234, -999_999.6, 2 ** 53, 9.9e20]) {
    assert.equal(thousands(n), Math.round(n).toLocaleString('en-US'), String(n));
  }
  assert.equal(thousands(1e21), (1e21).toLocaleString('en-US'));
});

it('figureText: one text per figure for every view; a figure with no value is "-"', () => {
  assert.equal(figureText(12_308.4), '12,308');
  assert.equal(figureText(41.66), '41.7');
  assert.equal(figureText(0.0923), '0.092');
  assert.equal(figureText(0), '0');
  for (const v of [null, undefined, Number.NaN, Infinity]) assert.equal(figureText(v), '-', String(v));
});

it("sessionSpread: the tail between the first and last session to finish, and each session's rate summed", () => {
  const s = sessionSpread([
    { rows: 5000, endedMs: 1000 },
    { rows: 5000, endedMs: 2000 },
    { rows: 5000, endedMs: 0 },
  ]);
  assert.deepEqual(s, { sessions: 2, firstEndedMs: 1000, lastEndedMs: 2000, allRunningRowsPerSec: 7500 });
  assert.equal(sessionSpread([{ rows: 10, endedMs: 5 }]), null, 'one session has no tail');
  assert.match(
    describeSpread({ ...s!, lastEndedMs: s!.firstEndedMs + 30 }, 5000),
    /finished 30 ms after the first/,
    'a tail under a second in ms, never "0.0 s"',
  );
  assert.equal(
    describeSpread(s!, 5000),
    'the last of 2 sessions finished 1.0 s after the first; rows/s over the full time 5,000, ' +
      "while all sessions ran 7,500 (each session's rows over its own time, summed)",
  );
});
