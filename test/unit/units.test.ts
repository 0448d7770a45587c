// Each kind of quantity has one text, chosen by its unit: durations in ns/µs/ms/s, bytes in B/KB/MB, counts grouped,
// percentages; never an exponent.
import assert from 'node:assert/strict';
import { formatNumber, plainNumber } from '../../src/shared/numberText';
import { bytesText, changeText, countText, durationText, percentText, quantityText } from '../../src/shared/units';

const cases: [string, () => string, string][] = [
  ['0.0000029 ms', () => durationText(0.0000029, 'ms'), '2.9 ns'],
  ['7.3e-7 s', () => durationText(7.3e-7, 's'), '730 ns'],
  ['0.0042 ms', () => durationText(0.0042, 'ms'), '4.2 µs'],
  ['12.94 ms', () => durationText(12.94, 'ms'), '12.9 ms'],
  ['2500 ms', () => durationText(2500, 'ms'), '2.5 s'],
  ['350 µs', () => durationText(350, 'µs'), '350 µs'],
  ['0 ms', () => durationText(0, 'ms'), '0 ms'],
  ['1536 bytes', () => bytesText(1536), '1.5 KB'],
  ['512 bytes', () => bytesText(512), '512 B'],
  ['118.34 bytes', () => bytesText(118.34), '118 B'],
  ['3,407,872 bytes', () => bytesText(3_407_872), '3.25 MB'],
  ['1023.9 bytes', () => bytesText(1023.9), '1 KB'],
  ['12,345,678 count', () => countText(12_345_678), '12,345,678'],
  ['999.6 count', () => countText(999.6), '1,000'],
  ['41.66 count', () => countText(41.66), '41.7'],
  ['7.3e-7 count', () => countText(7.3e-7), '0.00000073'],
  ['4.23 %', () => percentText(4.23), '4.2%'],
  ['38.4 %', () => percentText(38.4), '38.4%'],
  ['14722577 % change', () => changeText(14_722_577), '+14,722,577%'],
  ['-12.5 % change', () => changeText(-12.5), '-12.5%'],
  ['wait ms/s', () => quantityText(500, 'ms/s'), '500 ms/s'],
  ['ms/row', () => quantityText(0.0000029, 'ms/row'), '2.9 ns/row'],
  ['ms/row in a table', () => quantityText(0.0000029, 'ms/row', { inTable: true }), '2.9 ns'],
  ['B/row in a table', () => quantityText(1536, 'B/row', { inTable: true }), '1.5 KB'],
  ['bytes/s', () => quantityText(1536 * 1024, 'bytes/s'), '1.5 MB/s'],
  ['spins/row', () => quantityText(8281, 'spins/row'), '8,281 spins/row'],
  ['spins/row in a table', () => quantityText(8281, 'spins/row', { inTable: true }), '8,281'],
  ['/s', () => quantityText(42, '/s'), '42/s'],
  ['µs', () => quantityText(1250, 'µs'), '1.25 ms'],
  ['no value', () => quantityText(null, 'ms'), '-'],
];

describe('units: one text per kind of quantity', () => {
  for (const [input, text, expected] of cases) it(`${input} -> ${expected}`, () => assert.equal(text(), expected));

  it('never writes an exponent, at any magnitude', () => {
    for (let e = -12; e <= 20; e++) {
      for (const v of [1.7 * 10 ** e, -3.3 * 10 ** e]) {
        for (const t of [plainNumber(v), formatNumber(v), durationText(v, 's'), bytesText(Math.abs(v)), countText(v)])
          assert.doesNotMatch(t, /e[+-]?\d/i, `${v} -> ${t}`);
      }
    }
  });
});
