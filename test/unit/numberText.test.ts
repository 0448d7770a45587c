// Thousands separators without ICU: the same text as toLocaleString('en-US') for whole numbers.
import assert from 'node:assert/strict';
import { thousands } from '../../src/shared/numberText';

it('groups whole numbers by thousands as toLocaleString(en-US) does, rounding first', () => {
  for (const n of [0, 7, 999, 1000, 1234.5, 99_999, 100_000, 1_234_567.8, -1234, -999_999.6, 2 ** 53, 9.9e20]) {
    assert.equal(thousands(n), Math.round(n).toLocaleString('en-US'), String(n));
  }
  assert.equal(thousands(1e21), (1e21).toLocaleString('en-US'));
});
